import { expect } from 'chai';
import { stripeGateway } from '../../../shared/platform/billing/gateway/stripe';
import type { ChargeRequest, PaymentGateway } from '../../../shared/domain/billing/gateway/types';
import { FAKE_STRIPE_CUSTOMER, startFakeStripe, type FakeStripe } from '../../helpers/fakeStripe';

/** The Stripe adapter against the local recorded-response server: the customer a saved card is attached to. */
describe('billing: Stripe adapter and the saved card customer', () => {
  let stripe: FakeStripe;
  let gateway: PaymentGateway;
  let n = 0;
  const charge = (paymentMethod: string, customer: string | null, idempotencyKey = `adapter-test-${++n}`) => {
    const req: ChargeRequest = { amountCents: 1000, currency: 'usd', paymentMethod, customer, idempotencyKey, description: '20000 credits', metadata: { accountId: 'acct_adapter' } };
    return gateway.charge(req, AbortSignal.timeout(5000));
  };
  before(async () => {
    stripe = await startFakeStripe();
    gateway = stripeGateway(stripe.url, stripe.secretKey);
  });
  after(() => stripe.close());

  it('happy: an off-session charge names the customer the payment method is attached to, and succeeds', async () => {
    const r = await charge('pm_card_visa', FAKE_STRIPE_CUSTOMER);
    expect(r).to.include({ status: 'succeeded' });
    expect(stripe.requests.at(-1)!.body).to.include({ payment_method: 'pm_card_visa', customer: FAKE_STRIPE_CUSTOMER, off_session: 'true', confirm: 'true', amount: '1000' });
    expect(stripe.created).to.have.length(1);
  });

  it('error: without the customer Stripe answers invalid_request_error parameter_missing; nothing is charged', async () => {
    const before = stripe.created.length;
    const r = await charge('pm_card_visa', null);
    expect(r).to.deep.include({ status: 'declined', code: 'parameter_missing', chargeId: null });
    expect(r.status === 'declined' && r.message).to.match(/belongs to the Customer cus_fakeStripeSaved01\. Please include the Customer in the `customer` parameter/);
    expect(stripe.requests.at(-1)!.body).to.not.have.property('customer');
    expect(stripe.created).to.have.length(before);
  });

  it('error: a customer the payment method is not attached to is refused; nothing is charged', async () => {
    const before = stripe.created.length;
    const r = await charge('pm_card_visa', 'cus_someoneElse01');
    expect(r).to.deep.include({ status: 'declined', code: 'invalid_request_error', chargeId: null });
    expect(r.status === 'declined' && r.message).to.equal('The customer does not have a payment method with the ID pm_card_visa. The payment method must be attached to the customer.');
    expect(stripe.created).to.have.length(before);
  });

  it('error: an unknown payment method is resource_missing', async () => {
    const r = await charge('pm_not_saved_anywhere', FAKE_STRIPE_CUSTOMER);
    expect(r).to.deep.include({ status: 'declined', code: 'resource_missing' });
  });

  it('happy: a refused request saves nothing for its idempotency key: the corrected retry charges once', async () => {
    const before = stripe.created.length;
    expect(await charge('pm_card_mastercard', null, 'adapter-retry')).to.include({ status: 'declined' });
    expect(await charge('pm_card_mastercard', FAKE_STRIPE_CUSTOMER, 'adapter-retry')).to.include({ status: 'succeeded' });
    expect(await charge('pm_card_mastercard', FAKE_STRIPE_CUSTOMER, 'adapter-retry')).to.include({ status: 'succeeded' });
    expect(stripe.created).to.have.length(before + 1);
  });

  it('error: a saved card that declines is still a card_error with its decline code', async () => {
    const r = await charge('pm_card_chargeDeclined', FAKE_STRIPE_CUSTOMER);
    expect(r).to.deep.include({ status: 'declined', code: 'generic_decline' });
    expect(r.chargeId).to.match(/^pi_/);
  });
});
