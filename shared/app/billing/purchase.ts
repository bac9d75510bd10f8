import { createHash } from 'node:crypto';
import { AccountError } from '../../domain/accounts/errors';
import { BillingInputError } from '../../domain/billing/errors';
import { GatewayUnavailableError } from '../../domain/billing/gateway/types';
import type { AppContext } from '../context';
import { balanceOf } from './accounts';
import { paymentMethodToCharge } from './paymentMethods';
import { creditModeOfGateway, ledgerOf } from '../../domain/billing/creditModes';
import { CURRENCY, isPackage, PACKAGE_PRICES_CENTS } from '../../domain/billing/packages';

/**
 * A credit package bought by its account's owner through the configured gateway, charged to the
 * payment method saved on the account (paymentMethods.ts), never to one a request names. One idempotency
 * key names one purchase: the gateway is called with a key derived from it (Stripe and the test
 * gateway replay their first answer to a repeated key, so a retry never charges twice) and the
 * ledger entry's ref is derived from it too (a unique index, so a retry never credits twice).
 * A key reused with other parameters is refused, as Stripe refuses it. Bought through the test
 * gateway, the package is test credits, credited to the account's test ledger (creditModes.ts).
 */

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** Without an Idempotency-Key header, identical purchases within this window are one purchase. */
export const DERIVED_KEY_WINDOW_MS = 10 * 60 * 1000;

export interface PurchaseInput {
  accountId: string;
  package: unknown;
  /** Refused when present: the account's saved payment method is charged. */
  paymentMethod?: unknown;
  customer?: unknown;
  /** The client's Idempotency-Key header, if sent. */
  idempotencyKey?: string;
}

export function checkIdempotencyKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) throw new BillingInputError('Idempotency-Key', 'must be 1 to 255 printable ASCII characters');
  return value;
}

/** The purchase's own id: the client's key, or one derived from what is bought and the time window (pure). */
export function purchaseId(accountId: string, params: string, clientKey: string | undefined, now: number): string {
  const material = clientKey === undefined ? `derived|${params}|${Math.floor(now / DERIVED_KEY_WINDOW_MS)}` : `client|${clientKey}`;
  return createHash('sha256').update(`${accountId}|${material}`).digest('base64url').slice(0, 32);
}

export async function purchasePackage(ctx: AppContext, input: PurchaseInput) {
  const credits = input.package;
  if (typeof credits !== 'number' || !isPackage(credits)) throw new BillingInputError('package', `must be one of ${Object.keys(PACKAGE_PRICES_CENTS).join(', ')}`);
  for (const field of ['paymentMethod', 'customer'] as const) {
    if (input[field] !== undefined) throw new BillingInputError(field, 'is not accepted: a purchase charges the payment method saved on the account (POST /v2/account/payment-method)');
  }
  if (!(await ctx.accounts.findAccount(input.accountId))) throw new AccountError('not-found', 'Account not found');
  const { paymentMethod, customer } = await paymentMethodToCharge(ctx, input.accountId);

  // Test money is test money: the test gateway's charges buy test credits, on a ledger of their own.
  const mode = creditModeOfGateway(ctx.payments.name());
  const params = JSON.stringify([credits, paymentMethod, customer]);
  const id = purchaseId(input.accountId, params, input.idempotencyKey, ctx.clock.now().getTime());
  // The first request under a key records what it buys; a retry must ask for the same.
  if ((await ctx.accounts.claimPurchase(input.accountId, id, params)) === 'other') {
    throw new AccountError('idempotency-conflict', 'This Idempotency-Key was used for another purchase: send a new key for a new purchase');
  }

  let result;
  try {
    result = await ctx.payments.charge({
      amountCents: PACKAGE_PRICES_CENTS[credits],
      currency: CURRENCY,
      paymentMethod,
      customer,
      idempotencyKey: `purchase-${input.accountId}-${id}`,
      description: `${credits} credits`,
      metadata: { accountId: input.accountId, purchaseId: id },
    });
  } catch (err) {
    // Unknown outcome (timeout, 5xx, breaker open): the same request again replays or completes it.
    const name = err instanceof Error ? err.name : '';
    if (err instanceof GatewayUnavailableError || name === 'OpenCircuitError' || name === 'TimeoutError') {
      throw new AccountError('gateway-unavailable', 'The payment gateway did not answer: retry the same request (with the same Idempotency-Key); you will be charged at most once');
    }
    throw err;
  }
  if (result.status === 'declined') throw new AccountError('declined', `Payment declined: ${result.message} (${result.code})`);
  const entry = await ctx.credits.applyCredit(ledgerOf(input.accountId, mode), { ref: `purchase:${input.accountId}:${id}`, kind: 'purchase', delta: credits });
  const [balance, testBalance] = await Promise.all([balanceOf(ctx, input.accountId), ctx.credits.testBalanceOf(input.accountId)]);
  return {
    id,
    package: credits,
    priceCents: PACKAGE_PRICES_CENTS[credits],
    currency: CURRENCY,
    chargeId: result.chargeId,
    replayed: entry.status === 'duplicate',
    mode,
    balance,
    testBalance,
  };
}
