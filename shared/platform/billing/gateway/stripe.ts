import type { ChargeRequest, ChargeResult, PaymentGateway, SetupRequest, SetupState } from '../../../domain/billing/gateway/types';
import { GatewayRequestError, GatewayUnavailableError } from '../../../domain/billing/gateway/types';

/**
 * Stripe over its REST API (form-encoded, Bearer secret key, Idempotency-Key on every POST).
 * - Charges: PaymentIntents, one create-and-confirm call per attempt (confirm=true,
 *   off_session=true) with the account's saved payment method and its customer. A card error
 *   (402) or an invalid request (400) is a decline; anything else leaves the outcome unknown and
 *   is retried with the same key, which makes Stripe replay its first answer.
 * - Saving a card: the account's Customer (created once), then a Checkout Session in setup mode
 *   on it; the owner enters the card on Stripe's page, and the server reads the session back
 *   (with its SetupIntent) to learn the payment method. Neither id ever comes from a request.
 */
export function stripeGateway(baseUrl: string, secretKey: string): PaymentGateway {
  const root = baseUrl.replace(/\/$/, '');

  async function call(method: 'GET' | 'POST', path: string, params: URLSearchParams, idempotencyKey: string | null, signal: AbortSignal): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(`${root}${path}${method === 'GET' && [...params].length ? `?${params.toString()}` : ''}`, {
        method,
        headers: {
          Authorization: `Bearer ${secretKey}`,
          ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        ...(method === 'POST' ? { body: params } : {}),
        signal,
      });
    } catch (err) {
      const name = err instanceof Error ? err.name : undefined;
      throw new GatewayUnavailableError(`stripe unreachable: ${name === 'AbortError' || name === 'TimeoutError' ? 'timed out' : err instanceof Error ? err.message : String(err)}`);
    }
    const json: unknown = await res.json().catch(() => null);
    return { status: res.status, json };
  }

  /** The object Stripe answered (read by `parse`), or the error: a 4xx other than 404 is a request error, the rest unknown outcomes. */
  function objectOf<T extends StripeObject>(r: { status: number; json: unknown }, parse: (json: unknown) => T | null, what: string): T | null {
    const object = r.status === 200 ? parse(r.json) : null;
    if (object) return object;
    const error = stripeError(r.json);
    if (r.status === 404) return null;
    if (r.status === 400 && error) throw new GatewayRequestError(`stripe refused ${what}: ${error.message ?? error.type}`);
    throw new GatewayUnavailableError(`stripe answered ${r.status} to ${what}${error?.type ? ` (${error.type})` : ''}`);
  }

  function setupState(s: CheckoutSession): SetupState {
    const intent = typeof s.setup_intent === 'object' && s.setup_intent ? s.setup_intent : null;
    const paymentMethod = intent?.status === 'succeeded' ? (typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null)) : null;
    const status = s.status === 'complete' && paymentMethod ? 'complete' : s.status === 'expired' ? 'expired' : 'open';
    return { id: s.id, status, customer: s.customer ?? null, accountId: s.metadata?.accountId ?? null, paymentMethod, url: s.url ?? null };
  }

  return {
    name: 'stripe',
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
      const { status, json } = await call('POST', '/v1/payment_intents', body, req.idempotencyKey, signal);
      const intent = status === 200 ? paymentIntent(json) : null;
      if (intent) {
        if (intent.status === 'succeeded') return { status: 'succeeded', chargeId: intent.id };
        if (intent.status === 'requires_payment_method' || intent.status === 'requires_action' || intent.status === 'canceled') {
          return { status: 'declined', code: intent.status === 'requires_action' ? 'authentication_required' : intent.status, message: `payment intent ${intent.status}`, chargeId: intent.id };
        }
        throw new GatewayUnavailableError(`stripe payment intent ${intent.id} is ${intent.status}`);
      }
      const error = stripeError(json);
      if ((status === 402 || status === 400) && error && (error.type === 'card_error' || error.type === 'invalid_request_error')) {
        return { status: 'declined', code: error.decline_code ?? error.code ?? error.type, message: error.message ?? 'declined', chargeId: error.payment_intent?.id ?? null };
      }
      throw new GatewayUnavailableError(`stripe answered ${status}${error?.type ? ` (${error.type})` : ''}`);
    },

    async createCustomer({ accountId, email, idempotencyKey }, signal) {
      const body = new URLSearchParams({ 'metadata[accountId]': accountId, ...(email ? { email } : {}) });
      const customer = objectOf(await call('POST', '/v1/customers', body, idempotencyKey, signal), customerObject, 'the customer');
      if (!customer) throw new GatewayUnavailableError('stripe answered 404 to creating a customer');
      return customer.id;
    },

    async startSetup(req: SetupRequest, signal) {
      const body = new URLSearchParams({
        mode: 'setup',
        customer: req.customer,
        'payment_method_types[0]': 'card',
        success_url: req.returnUrl.replace('{SETUP_ID}', '{CHECKOUT_SESSION_ID}'),
        cancel_url: req.returnUrl.replace('{SETUP_ID}', '{CHECKOUT_SESSION_ID}'),
        'metadata[accountId]': req.accountId,
      });
      const session = objectOf(await call('POST', '/v1/checkout/sessions', body, req.idempotencyKey, signal), checkoutSession, 'the setup session');
      if (!session) throw new GatewayUnavailableError('stripe answered 404 to creating a setup session');
      return setupState(session);
    },

    async findSetup(setupId, signal) {
      if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(setupId)) return null;
      const params = new URLSearchParams({ 'expand[0]': 'setup_intent' });
      const session = objectOf(await call('GET', `/v1/checkout/sessions/${setupId}`, params, null, signal), checkoutSession, 'reading the setup session');
      return session ? setupState(session) : null;
    },
  };
}

interface StripeObject {
  object: string;
  id: string;
}
interface PaymentIntent extends StripeObject {
  object: 'payment_intent';
  status: string;
}
interface CheckoutSession extends StripeObject {
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired' | null;
  customer: string | null;
  url: string | null;
  metadata?: Record<string, string>;
  setup_intent: string | { id: string; status: string; payment_method: string | { id: string } | null } | null;
}
interface StripeError {
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
  payment_intent?: { id: string };
}

/*
 * Stripe's answers read field by field: only what the adapter uses, each checked for its type
 * (an object of the wrong kind or shape is no object, as an unreadable body is).
 */
type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringOr = <T>(v: unknown, otherwise: T): string | T => (typeof v === 'string' ? v : otherwise);

/** The object's id when `json` is a Stripe object of this kind. */
function idOf(json: unknown, object: string): { json: Json; id: string } | null {
  return isJson(json) && json.object === object && typeof json.id === 'string' ? { json, id: json.id } : null;
}

function customerObject(json: unknown): StripeObject | null {
  const o = idOf(json, 'customer');
  return o && { object: 'customer', id: o.id };
}

function paymentIntent(json: unknown): PaymentIntent | null {
  const o = idOf(json, 'payment_intent');
  return o && typeof o.json.status === 'string' ? { object: 'payment_intent', id: o.id, status: o.json.status } : null;
}

const SESSION_STATUSES = ['open', 'complete', 'expired'] as const;

function checkoutSession(json: unknown): CheckoutSession | null {
  const o = idOf(json, 'checkout.session');
  if (!o) return null;
  const { status, customer, url, metadata, setup_intent: intent } = o.json;
  const metadataEntries = isJson(metadata) ? Object.entries(metadata).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as const] : [])) : null;
  const method = isJson(intent) ? intent.payment_method : null;
  return {
    object: 'checkout.session',
    id: o.id,
    status: SESSION_STATUSES.find((s) => s === status) ?? null,
    customer: stringOr(customer, null),
    url: stringOr(url, null),
    ...(metadataEntries ? { metadata: Object.fromEntries(metadataEntries) } : {}),
    setup_intent:
      typeof intent === 'string'
        ? intent
        : isJson(intent) && typeof intent.id === 'string' && typeof intent.status === 'string'
          ? { id: intent.id, status: intent.status, payment_method: typeof method === 'string' ? method : isJson(method) && typeof method.id === 'string' ? { id: method.id } : null }
          : null,
  };
}

/** Stripe's error, when the answer is one. */
function stripeError(json: unknown): StripeError | undefined {
  const error = isJson(json) ? json.error : undefined;
  if (!isJson(error) || typeof error.type !== 'string') return undefined;
  const intent = error.payment_intent;
  return {
    type: error.type,
    code: stringOr(error.code, undefined),
    decline_code: stringOr(error.decline_code, undefined),
    message: stringOr(error.message, undefined),
    payment_intent: isJson(intent) && typeof intent.id === 'string' ? { id: intent.id } : undefined,
  };
}
