import CircuitBreaker from 'opossum';
import { getConfig } from '../../config';
import { childLogger } from '../../logger';
import { stripeGateway } from './stripe';
import { testGateway } from './testGateway';
import type { ChargeRequest, ChargeResult, PaymentGateway } from './types';

export type { ChargeRequest, ChargeResult, PaymentGateway } from './types';
export { GatewayUnavailableError } from './types';

let gateway: PaymentGateway | undefined;
let breaker: CircuitBreaker<[ChargeRequest], ChargeResult> | undefined;

/** The configured gateway (PAYMENT_GATEWAY). */
export function paymentGateway(): PaymentGateway {
  const cfg = getConfig();
  gateway ??= cfg.PAYMENT_GATEWAY === 'stripe' ? stripeGateway(cfg.STRIPE_API_URL, cfg.STRIPE_SECRET_KEY) : testGateway;
  return gateway;
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
