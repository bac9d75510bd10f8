import type { ChargeRequest, ChargeResult, PaymentGateway } from './types';
import { GatewayUnavailableError } from './types';

/**
 * Stripe PaymentIntents: one create-and-confirm call per attempt (confirm=true, off_session=true)
 * with the saved payment method and the customer it is attached to (Stripe refuses a saved
 * payment method without its customer), carrying the attempt's Idempotency-Key, so a retried call after a crash or a timeout replays the
 * first answer instead of charging again. A card error (402) or an invalid request (400, e.g. a
 * missing payment method or customer) is a decline; anything else leaves the outcome unknown and is retried
 * with the same key.
 */
export function stripeGateway(baseUrl: string, secretKey: string): PaymentGateway {
  return {
    name: 'stripe',
    needsCustomer: true,
    async charge(req: ChargeRequest, signal: AbortSignal): Promise<ChargeResult> {
      const body = new URLSearchParams({
        amount: String(req.amountCents),
        currency: req.currency,
        payment_method: req.paymentMethod,
        ...(req.customer ? { customer: req.customer } : {}),
        confirm: 'true',
        off_session: 'true',
        description: req.description,
      });
      for (const [k, v] of Object.entries(req.metadata)) body.set(`metadata[${k}]`, v);
      let res: Response;
      try {
        res = await fetch(`${baseUrl.replace(/\/$/, '')}/v1/payment_intents`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${secretKey}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            'Idempotency-Key': req.idempotencyKey,
          },
          body,
          signal,
        });
      } catch (err) {
        throw new GatewayUnavailableError(`stripe unreachable: ${(err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`);
      }
      const json = (await res.json().catch(() => null)) as StripeIntent | StripeError | null;
      if (res.ok && json && 'object' in json && json.object === 'payment_intent') {
        if (json.status === 'succeeded') return { status: 'succeeded', chargeId: json.id };
        if (json.status === 'requires_payment_method' || json.status === 'requires_action' || json.status === 'canceled') {
          return { status: 'declined', code: json.status === 'requires_action' ? 'authentication_required' : json.status, message: `payment intent ${json.status}`, chargeId: json.id };
        }
        throw new GatewayUnavailableError(`stripe payment intent ${json.id} is ${json.status}`);
      }
      const error = json && 'error' in json ? json.error : undefined;
      if ((res.status === 402 || res.status === 400) && error && (error.type === 'card_error' || error.type === 'invalid_request_error')) {
        return { status: 'declined', code: error.decline_code ?? error.code ?? error.type, message: error.message ?? 'declined', chargeId: error.payment_intent?.id ?? null };
      }
      throw new GatewayUnavailableError(`stripe answered ${res.status}${error?.type ? ` (${error.type})` : ''}`);
    },
  };
}

interface StripeIntent {
  object: 'payment_intent';
  id: string;
  status: string;
}
interface StripeError {
  error: { type: string; code?: string; decline_code?: string; message?: string; payment_intent?: { id: string } };
}
