import CircuitBreaker from 'opossum';
import { getConfig } from '../../config';
import { childLogger } from '../../logger';
import { stripeGateway } from './stripe';
import { testGateway } from './testGateway';
import type { ChargeRequest, ChargeResult, PaymentGateway } from '../../../domain/billing/gateway/types';

export type { ChargeRequest, ChargeResult, PaymentGateway, SetupState } from '../../../domain/billing/gateway/types';
export { GatewayRequestError, GatewayUnavailableError } from '../../../domain/billing/gateway/types';

let gateway: PaymentGateway | undefined;
let breaker: CircuitBreaker<[ChargeRequest], ChargeResult> | undefined;

/** Whether this deployment sells credits (PAYMENT_GATEWAY is not none). */
export const sellsCredits = (): boolean => getConfig().PAYMENT_GATEWAY !== 'none';

/** The configured gateway (PAYMENT_GATEWAY); callers check sellsCredits() first. */
export function paymentGateway(): PaymentGateway {
  const cfg = getConfig();
  if (cfg.PAYMENT_GATEWAY === 'none') throw new Error('PAYMENT_GATEWAY is none: this deployment sells nothing');
  gateway ??= cfg.PAYMENT_GATEWAY === 'stripe' ? stripeGateway(cfg.STRIPE_API_URL, cfg.STRIPE_SECRET_KEY) : testGateway;
  return gateway;
}

/** A gateway call outside the charge breaker (customers, setups), aborted at PAYMENT_TIMEOUT_MS. */
export function withGatewayTimeout<T>(fn: (gateway: PaymentGateway, signal: AbortSignal) => Promise<T>): Promise<T> {
  return fn(paymentGateway(), AbortSignal.timeout(getConfig().PAYMENT_TIMEOUT_MS));
}

/**
 * Charges through an opossum breaker: after repeated unknown outcomes (timeouts, 5xx) it stops
 * calling the gateway for a while and fails fast; the job is retried later with the same
 * idempotency key. Declines are answers and never open it. Each call is really aborted at its timeout.
 */
export function chargeThroughBreaker(request: ChargeRequest): Promise<ChargeResult> {
  const cfg = getConfig();
  if (!breaker) {
    const gw = paymentGateway();
    breaker = new CircuitBreaker((req: ChargeRequest) => gw.charge(req, AbortSignal.timeout(cfg.PAYMENT_TIMEOUT_MS)), {
      name: `payment-${gw.name}`,
      timeout: cfg.PAYMENT_TIMEOUT_MS + 1000,
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      resetTimeout: 30000,
    });
    const log = childLogger({ component: 'payment', gateway: gw.name });
    breaker.on('open', () => log.warn('payment breaker open'));
    breaker.on('close', () => log.info('payment breaker closed'));
  }
  return breaker.fire(request);
}
