import { randomBytes } from 'node:crypto';
import { AccountError } from '../../domain/accounts/errors';
import { BillingInputError } from '../../domain/billing/errors';
import { GatewayRequestError, GatewayUnavailableError, type PaymentGateway, type SetupState } from '../../domain/billing/gateway/types';
import type { AppContext } from '../context';

/**
 * The account's payment method, saved server-side: the gateway customer is created for the account
 * (once per gateway), a setup on the gateway attaches a card to it (Stripe: a Checkout Session in
 * setup mode, finished by the owner on Stripe's page), and the server reads the outcome back from
 * the gateway. Purchases and auto-recharge charge only what is saved here: a request never names a
 * customer or a payment method, so nobody can charge a card that is not the account's.
 */

const SETUP_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

export interface SavedPaymentMethod {
  gateway: string;
  /** Null only on the test gateway when the operator saved a test card without one. */
  customer: string | null;
  paymentMethod: string;
  savedAt: Date | null;
}

/** Refuses with 'not-selling' when this deployment sells no credits (PAYMENT_GATEWAY=none). */
export function mustSell(ctx: AppContext): void {
  if (ctx.config.PAYMENT_GATEWAY === 'none') throw new AccountError('not-selling', 'This deployment sells no credits (PAYMENT_GATEWAY=none)');
}

const errorName = (err: unknown) => (err instanceof Error ? err.name : '');

/** Gateway failures in the account API's terms: an unknown outcome is a 503 to retry, a refused request a 400. */
async function atGateway<T>(ctx: AppContext, what: string, fn: (gateway: PaymentGateway, signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await ctx.payments.call(fn);
  } catch (err) {
    if (err instanceof GatewayRequestError) throw new BillingInputError('setup', err.message);
    if (err instanceof GatewayUnavailableError || errorName(err) === 'TimeoutError' || errorName(err) === 'AbortError') {
      throw new AccountError('gateway-unavailable', `The payment gateway did not answer (${what}): retry`);
    }
    throw err;
  }
}

/** The account's customer at the configured gateway, created there on first use. */
async function customerOf(ctx: AppContext, accountId: string): Promise<{ gateway: string; customer: string }> {
  const billing = await ctx.accounts.findBilling(accountId);
  if (!billing) throw new AccountError('not-found', 'Account not found');
  return atGateway(ctx, 'creating the customer', async (gw, signal) => {
    if (billing.customer && billing.gateway === gw.name) return { gateway: gw.name, customer: billing.customer };
    // The idempotency key names the account: two setups at once create one customer.
    const created = await gw.createCustomer({ accountId, email: billing.email, idempotencyKey: `customer-${accountId}-${gw.name}` }, signal);
    return { gateway: gw.name, customer: await ctx.accounts.recordBillingCustomer(accountId, gw.name, created) };
  });
}

export interface SetupView {
  setup: { id: string; status: SetupState['status']; url: string | null };
  paymentMethod: SavedPaymentMethod | null;
}

/**
 * Starts saving a card. Stripe: answers the page to send the owner to (`url`); the card is saved
 * once `confirmSetup` finds the setup complete. The test gateway: `testCard` names one of its test
 * cards and the setup is complete (and saved) at once.
 */
export async function startSetup(ctx: AppContext, accountId: string, input: { testCard?: unknown }, returnUrl: string): Promise<SetupView> {
  mustSell(ctx);
  // The request is checked before anything is created at the gateway.
  const gateway = ctx.config.PAYMENT_GATEWAY;
  const testCards = ctx.payments.testCards;
  let testCard: string | undefined;
  if (gateway === 'test') {
    if (typeof input.testCard !== 'string' || !testCards.includes(input.testCard)) throw new BillingInputError('testCard', `is required with the test gateway: one of ${testCards.join(', ')}`);
    testCard = input.testCard;
  } else if (input.testCard !== undefined) {
    throw new BillingInputError('testCard', `is only for the test gateway; with ${gateway} the card is entered on the gateway's page`);
  }
  const { customer } = await customerOf(ctx, accountId);
  const setup = await atGateway(ctx, 'starting the setup', (gw, signal) =>
    gw.startSetup({ accountId, customer, returnUrl, testCard, idempotencyKey: `setup-${accountId}-${randomBytes(9).toString('base64url')}` }, signal),
  );
  const saved = setup.status === 'complete' ? await saveFrom(ctx, accountId, gateway, customer, setup) : null;
  return { setup: { id: setup.id, status: setup.status, url: setup.url }, paymentMethod: saved };
}

async function saveFrom(ctx: AppContext, accountId: string, gateway: string, customer: string, setup: SetupState): Promise<SavedPaymentMethod> {
  // A complete setup names the card it attached; one that does not is the gateway's error, not a card to save.
  if (!setup.paymentMethod) throw new AccountError('setup-incomplete', 'The gateway reports the setup complete without a card: start a new one');
  await ctx.accounts.saveBillingPaymentMethod(accountId, gateway, customer, setup.paymentMethod);
  return { gateway, customer, paymentMethod: setup.paymentMethod, savedAt: ctx.clock.now() };
}

/**
 * Saves the card of a finished setup, as the gateway reports it: the setup must be this account's
 * (its customer and its account id at the gateway), else it is not found, like an unknown id.
 */
export async function confirmSetup(ctx: AppContext, accountId: string, setupId: unknown): Promise<SetupView> {
  mustSell(ctx);
  if (typeof setupId !== 'string' || !SETUP_ID.test(setupId)) throw new BillingInputError('setupId', 'must be the id of a setup this account started (cs_...)');
  const billing = await ctx.accounts.findBilling(accountId);
  const setup = await atGateway(ctx, 'reading the setup', (gw, signal) => gw.findSetup(setupId, signal));
  if (!setup || !billing?.customer || !billing.gateway || setup.customer !== billing.customer || setup.accountId !== accountId) throw new AccountError('not-found', 'Setup not found');
  if (setup.status === 'expired') throw new AccountError('setup-incomplete', 'This setup expired before a card was saved: start a new one');
  if (setup.status !== 'complete') throw new AccountError('setup-incomplete', `No card is saved yet: finish the gateway's page${setup.url ? ` (${setup.url})` : ''}, then confirm again`);
  const saved = await saveFrom(ctx, accountId, billing.gateway, billing.customer, setup);
  return { setup: { id: setup.id, status: setup.status, url: setup.url }, paymentMethod: saved };
}

/** Which gateway takes the cards (none: this deployment sells nothing), and the test gateway's cards. */
export function gatewayView(ctx: AppContext): { gateway: 'test' | 'stripe' | 'none'; testCards: readonly string[] } {
  const configured = ctx.config.PAYMENT_GATEWAY;
  const gateway = configured === 'test' || configured === 'stripe' ? configured : 'none';
  return { gateway, testCards: gateway === 'test' ? ctx.payments.testCards : [] };
}

/** The account's saved payment method at the configured gateway, or null. */
export async function savedPaymentMethod(ctx: AppContext, accountId: string): Promise<SavedPaymentMethod | null> {
  const b = await ctx.accounts.findBilling(accountId);
  // Only a card of the configured gateway (with none configured, no card matches).
  if (!b?.paymentMethod || !b.gateway || (!b.customer && b.gateway !== 'test') || b.gateway !== ctx.config.PAYMENT_GATEWAY) return null;
  return { gateway: b.gateway, customer: b.customer ?? null, paymentMethod: b.paymentMethod, savedAt: b.savedAt ?? null };
}

/** What a charge needs: the saved payment method, or 'no-payment-method'. */
export async function paymentMethodToCharge(ctx: AppContext, accountId: string): Promise<SavedPaymentMethod> {
  mustSell(ctx);
  const saved = await savedPaymentMethod(ctx, accountId);
  if (!saved)
    throw new AccountError('no-payment-method', 'No payment method is saved on this account: save one first (POST /v2/account/payment-method; an operator: set-auto-recharge --payment-method)');
  return saved;
}

/** Forgets the saved payment method; auto-recharge, which would charge it, is turned off. */
export async function removePaymentMethod(ctx: AppContext, accountId: string): Promise<void> {
  const account = await ctx.accounts.findAccount(accountId);
  if (!account) throw new AccountError('not-found', 'Account not found');
  await ctx.accounts.removeBillingPaymentMethod(accountId, (account.autoRecharge?.version ?? 0) + 1);
}
