import { BillingInputError } from '../../domain/billing/errors';
import { generateKey, KEY_MODES, newId, randomBase62 } from '../../domain/billing/keys';
import { FREE_CREDITS, isPackage, PACKAGE_PRICES_CENTS } from '../../domain/billing/packages';
import { daysBefore } from '../../domain/days';
import { billedRequestsOf } from '../../domain/accounts/usage';
import type { AppContext } from '../context';
import { mustSell, paymentMethodToCharge, savedPaymentMethod } from './paymentMethods';
import type { AccountRow } from './ports';

/** Operator actions on accounts, keys, credits and auto-recharge (the CLI prints what these return). */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const PAYMENT_METHOD = /^pm_[A-Za-z0-9_]{1,100}$/;
const CUSTOMER = /^cus_[A-Za-z0-9_]{1,100}$/;

function checkId(argument: string, value: unknown): string {
  if (typeof value !== 'string' || !ID.test(value)) throw new BillingInputError(argument, 'must be an id (letters, digits, _ or -)');
  return value;
}

async function mustFindAccount(ctx: AppContext, accountId: unknown): Promise<AccountRow> {
  const id = checkId('account', accountId);
  const account = await ctx.accounts.findAccount(id);
  if (!account) throw new BillingInputError('account', `no account "${id}"`);
  return account;
}

/** The live balance: what live keys are admitted against and see. */
export async function balanceOf(ctx: AppContext, accountId: string): Promise<number> {
  return (await ctx.credits.admissionHead(accountId)).balance;
}

export async function createAccount(ctx: AppContext, input: { name: string; email?: string | null; id?: string }) {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name || name.length > 200) throw new BillingInputError('name', 'is required (1 to 200 characters)');
  const id = input.id ?? newId('acct');
  if (await ctx.accounts.accountExists(id)) throw new BillingInputError('id', `account "${id}" exists`);
  await ctx.credits.forgetBalances(id);
  // The grant first: a crash before the account exists leaves a harmless orphan entry, never an
  // account without its free credits. Its ref makes a retry a no-op.
  await ctx.credits.applyCredit(id, { ref: `grant:${id}`, kind: 'grant', delta: FREE_CREDITS });
  if ((await ctx.accounts.createAccount({ _id: id, name, email: input.email ?? null, balance: FREE_CREDITS })) === 'exists') {
    throw new BillingInputError('id', `account "${id}" exists`);
  }
  return { id, name, balance: await balanceOf(ctx, id) };
}

export async function createKey(ctx: AppContext, input: { accountId: string; name: string; mode?: string }) {
  const account = await mustFindAccount(ctx, input.accountId);
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name || name.length > 100) throw new BillingInputError('name', 'is required (1 to 100 characters)');
  const mode = KEY_MODES.find((m) => m === (input.mode ?? 'live'));
  if (!mode) throw new BillingInputError('mode', 'must be live or test');
  const key = generateKey(mode);
  const id = newId('key');
  await ctx.accounts.createApiKey({ _id: id, accountId: account._id, name, mode, hash: key.hash, prefix: key.prefix });
  // The plaintext leaves here once and is stored nowhere.
  return { id, accountId: account._id, name, mode, prefix: key.prefix, key: key.plaintext };
}

export async function listKeys(ctx: AppContext, accountId: string) {
  const account = await mustFindAccount(ctx, accountId);
  const keys = await ctx.accounts.findApiKeysOfAccount(account._id);
  keys.sort((a, b) => +a.createdAt - +b.createdAt);
  const used = await ctx.accounts.keysLastUsed(keys.map((k) => k.hash));
  return keys.map((k, i) => ({
    id: k._id,
    name: k.name,
    mode: k.mode,
    prefix: k.prefix,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt,
    lastUsedAt: used[i],
  }));
}

export async function revokeKey(ctx: AppContext, keyId: string) {
  const id = checkId('key', keyId);
  const doc = await ctx.accounts.findApiKeyById(id);
  if (!doc) throw new BillingInputError('key', `no key "${id}"`);
  const revokedAt = doc.revokedAt ?? ctx.clock.now();
  if (!doc.revokedAt) await ctx.accounts.setApiKeyRevokedAt(id, revokedAt);
  await ctx.accounts.refuseKey(doc.hash);
  return { id, revokedAt, alreadyRevoked: Boolean(doc.revokedAt) };
}

export async function addCredits(ctx: AppContext, input: { accountId: string; packageCredits: number; ref?: string }) {
  const account = await mustFindAccount(ctx, input.accountId);
  if (typeof input.packageCredits !== 'number' || !isPackage(input.packageCredits)) throw new BillingInputError('package', `must be one of ${Object.keys(PACKAGE_PRICES_CENTS).join(', ')}`);
  const ref = `purchase:${input.ref ?? randomBase62(16)}`;
  const r = await ctx.credits.applyCredit(account._id, { ref, kind: 'purchase', delta: input.packageCredits });
  return {
    accountId: account._id,
    credits: input.packageCredits,
    priceCents: PACKAGE_PRICES_CENTS[input.packageCredits],
    applied: r.status === 'applied',
    balance: await balanceOf(ctx, account._id),
  };
}

/** Balance (and test credits, apart), auto-recharge settings, recent recharges and usage per endpoint over `days`. */
export async function accountSummary(ctx: AppContext, accountId: string, days = 30) {
  const account = await mustFindAccount(ctx, accountId);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new BillingInputError('days', 'must be an integer from 1 to 3650');
  const since = daysBefore(ctx.clock.now().getTime(), days);
  const [balance, testBalance, attempts] = await Promise.all([balanceOf(ctx, account._id), ctx.credits.testBalanceOf(account._id), ctx.recharges.findAttemptsOfAccount(account._id)]);
  // Summed here rather than with $group: FerretDB 1.x counts with $sum: 1 unreliably.
  const usage = new Map<string, { endpoint: string; requests: number; credits: number }>();
  for await (const e of ctx.accounts.usageEntries(account._id, since)) {
    if (!e.endpoint) continue;
    const u = usage.get(e.endpoint) ?? { endpoint: e.endpoint, requests: 0, credits: 0 };
    // A refunded request is not a billed request: its refund cancels its debit.
    u.requests += billedRequestsOf(e);
    u.credits -= e.delta;
    usage.set(e.endpoint, u);
  }
  attempts.sort((a, b) => +b.createdAt - +a.createdAt);
  return {
    id: account._id,
    name: account.name,
    balance,
    testBalance,
    autoRecharge: {
      enabled: account.autoRecharge?.enabled ?? false,
      threshold: account.autoRecharge?.threshold ?? 0,
      packageCredits: account.autoRecharge?.packageCredits ?? null,
      paymentMethod: account.billing?.paymentMethod ?? null,
      customer: account.billing?.customer ?? null,
      disabledReason: account.autoRecharge?.disabledReason ?? null,
      disabledAt: account.autoRecharge?.disabledAt ?? null,
    },
    usage: { days, endpoints: [...usage.values()].filter((u) => u.requests > 0).sort((a, b) => b.credits - a.credits) },
    recharges: attempts.slice(0, 10).map((a) => ({ id: a._id, attempt: a.attempt, status: a.status, credits: a.packageCredits, error: a.error, at: a.createdAt })),
  };
}

/**
 * Turns auto-recharge on: below `threshold` credits, buy `packageCredits` with the account's saved
 * payment method. The threshold is below the package's credits, so one recharge lifts the balance
 * above it (no chain of charges). The owner cannot name a payment method: only the operator's CLI
 * may save one with the settings (`paymentMethod`, and `customer` where the gateway needs one),
 * as the operator vouches for it.
 */
export async function setAutoRecharge(ctx: AppContext, input: { accountId: string; threshold: unknown; packageCredits: unknown; paymentMethod?: unknown; customer?: unknown; operator?: boolean }) {
  const account = await mustFindAccount(ctx, input.accountId);
  const credits = input.packageCredits;
  if (typeof credits !== 'number' || !isPackage(credits)) throw new BillingInputError('package', `must be one of ${Object.keys(PACKAGE_PRICES_CENTS).join(', ')}`);
  if (typeof input.threshold !== 'number' || !Number.isInteger(input.threshold) || input.threshold < 1 || input.threshold >= credits) {
    throw new BillingInputError('threshold', `must be an integer from 1 to ${credits - 1}: below the package's ${credits} credits, so that one recharge lifts the balance above it`);
  }
  const threshold = input.threshold;
  mustSell(ctx);
  if (input.paymentMethod !== undefined || input.customer !== undefined) {
    if (!input.operator) {
      throw new BillingInputError(
        input.paymentMethod !== undefined ? 'paymentMethod' : 'customer',
        'is not accepted: auto-recharge charges the payment method saved on the account (POST /v2/account/payment-method)',
      );
    }
    await saveOperatorPaymentMethod(ctx, account._id, input.paymentMethod, input.customer ?? null);
  } else {
    await paymentMethodToCharge(ctx, account._id);
  }
  await ctx.accounts.enableAutoRecharge(account._id, { threshold, packageCredits: credits, version: (account.autoRecharge?.version ?? 0) + 1 });
  const saved = await savedPaymentMethod(ctx, account._id);
  return { accountId: account._id, enabled: true, threshold, packageCredits: credits, paymentMethod: saved?.paymentMethod ?? null, customer: saved?.customer ?? null };
}

/** The operator's CLI saves a payment method it vouches for; `customer` is required where the gateway needs one (Stripe). */
async function saveOperatorPaymentMethod(ctx: AppContext, accountId: string, paymentMethod: unknown, customer: unknown): Promise<void> {
  if (typeof paymentMethod !== 'string' || !PAYMENT_METHOD.test(paymentMethod)) throw new BillingInputError('payment-method', 'must be a gateway payment method id (pm_...)');
  if (customer !== null && (typeof customer !== 'string' || !CUSTOMER.test(customer))) throw new BillingInputError('customer', 'must be a gateway customer id (cus_...)');
  const gateway = ctx.config.PAYMENT_GATEWAY;
  if (customer === null && gateway === 'stripe') throw new BillingInputError('customer', `is required with PAYMENT_GATEWAY=${gateway}: the customer the payment method is attached to (cus_...)`);
  await ctx.accounts.saveBillingPaymentMethod(accountId, gateway, customer, paymentMethod);
}

export async function clearAutoRecharge(ctx: AppContext, accountId: string) {
  const account = await mustFindAccount(ctx, accountId);
  await ctx.accounts.turnOffAutoRecharge(account._id, (account.autoRecharge?.version ?? 0) + 1);
  return { accountId: account._id, enabled: false };
}
