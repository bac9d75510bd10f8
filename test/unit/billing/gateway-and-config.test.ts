import { expect } from 'chai';
import { testOutcome } from '../../../shared/platform/billing/gateway/testGateway';
import { ConfigError, loadConfig } from '../../../shared/platform/config';

const req = (paymentMethod: string) => ({ amountCents: 1000, currency: 'usd', paymentMethod, customer: null, idempotencyKey: 'k', description: 'd', metadata: {} });

describe('billing: test gateway cards and payment config', () => {
  const cards: [string, string][] = [
    ['pm_card_visa', 'succeeded'],
    ['pm_card_mastercard', 'succeeded'],
    ['pm_card_amex', 'succeeded'],
    ['pm_card_chargeDeclined', 'generic_decline'],
    ['pm_card_visa_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc'],
    ['pm_card_chargeDeclinedProcessingError', 'processing_error'],
    ['pm_card_visa_chargeDeclinedLostCard', 'lost_card'],
    ['pm_card_visa_chargeDeclinedStolenCard', 'stolen_card'],
    ['pm_card_chargeDeclinedFraudulent', 'fraudulent'],
    ['pm_no_such_method', 'resource_missing'],
  ];
  for (const [pm, expected] of cards) {
    it(`${expected === 'succeeded' ? 'happy' : 'error'}: ${pm} -> ${expected}`, () => {
      const r = testOutcome(req(pm), 'pi_x');
      expect(r.status === 'succeeded' ? 'succeeded' : r.code).to.equal(expected);
    });
  }

  it('happy: the test gateway is the default; rate limits default to 20 and 2 per second', () => {
    const cfg = loadConfig({});
    expect(cfg.PAYMENT_GATEWAY).to.equal('test');
    expect(cfg.RATE_LIMIT_LIVE_RPS).to.equal(20);
    expect(cfg.RATE_LIMIT_TEST_RPS).to.equal(2);
  });

  it('happy: production runs with stripe or with none (sells nothing), never with the test gateway', () => {
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'none' }).PAYMENT_GATEWAY).to.equal('none');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x' }).PAYMENT_GATEWAY).to.equal('stripe');
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'test' })).to.throw(/grants credits without charging anyone/);
  });

  for (const [env, variable] of [
    [{ PAYMENT_GATEWAY: 'paypal' }, 'PAYMENT_GATEWAY'],
    [{ NODE_ENV: 'production' }, 'PAYMENT_GATEWAY'],
    [{ NODE_ENV: 'production', PAYMENT_GATEWAY: 'test' }, 'PAYMENT_GATEWAY'],
    [{ TRUST_PROXY: 'everyone; please' }, 'TRUST_PROXY'],
    [{ AUTO_RECHARGE_MAX_PER_DAY: '0' }, 'AUTO_RECHARGE_MAX_PER_DAY'],
    [{ ADMIN_QUEUE_ACTIONS: 'yes' }, 'ADMIN_QUEUE_ACTIONS'],
    [{ PAYMENT_GATEWAY: 'stripe' }, 'STRIPE_SECRET_KEY'],
    [{ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: 'ftp://x' }, 'STRIPE_API_URL'],
    [{ RATE_LIMIT_LIVE_RPS: '0' }, 'RATE_LIMIT_LIVE_RPS'],
    [{ RATE_LIMIT_TEST_RPS: 'fast' }, 'RATE_LIMIT_TEST_RPS'],
    [{ PAYMENT_TIMEOUT_MS: '5' }, 'PAYMENT_TIMEOUT_MS'],
  ] as [Record<string, string>, string][]) {
    it(`error: ${JSON.stringify(env)} names ${variable}`, () => {
      expect(() => loadConfig(env))
        .to.throw(ConfigError)
        .with.property('variable', variable);
    });
  }

  it('security: the Stripe secret is never echoed in a config error', () => {
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_secret123', STRIPE_API_URL: 'nope' }))
      .to.throw(ConfigError)
      .that.satisfies((e: Error) => !e.message.includes('sk_live_secret123'));
  });
});
