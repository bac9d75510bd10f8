import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getConfig } from '../../platform/config';
import {
  accountExists,
  createAccountDocument,
  createApiKeyDocument,
  enableAutoRecharge,
  findAccountById,
  findApiKeyByHash,
  findApiKeyById,
  findApiKeysOfAccount,
  findRechargeAttemptsOfAccount,
  saveBillingPaymentMethod,
  setApiKeyRevokedAt,
  turnOffAutoRecharge,
} from '../../platform/db/repositories/accounts';
import { streamUsageEntriesOfAccount } from '../../platform/db/repositories/ledger';
import { lastUsed, tombstone } from './access';
import { mustSell, paymentMethodToCharge, savedPaymentMethod } from './paymentMethods';
import { generateKey, hashKey, KEY_MODES, newId, randomBase62, type KeyMode } from '../../domain/billing/keys';
import { applyCredit, balanceOf, forgetBalance, testBalanceOf } from './credits';
import { ledgerOf } from '../../domain/billing/creditModes';
import { resetHint } from './ledger';
import { FREE_CREDITS, isPackage, PACKAGE_PRICES_CENTS } from '../../domain/billing/packages';
import { isDuplicateKey } from '../../platform/db/duplicateKey';
import { daysBefore } from '../../domain/days';
import { BillingInputError } from '../../domain/billing/errors';

/** Operator actions on accounts, keys, credits and auto-recharge (the CLI prints what these return). */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const PAYMENT_METHOD = /^pm_[A-Za-z0-9_]{1,100}$/;
const CUSTOMER = /^cus_[A-Za-z0-9_]{1,100}$/;

function checkId(argument: string, value: unknown): string {
  if (typeof value !== 'string' || !ID.test(value)) throw new BillingInputError(argument, 'must be an id (letters, digits, _ or -)');
  return value;
}

async function mustFindAccount(accountId: unknown) {
  const id = checkId('account', accountId);
  const account = await findAccountById(id);
  if (!account) throw new BillingInputError('account', `no account "${id}"`);
  return account;
}

export async function createAccount(input: { name: string; email?: string | null; id?: string }) {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name || name.length > 200) throw new BillingInputError('name', 'is required (1 to 200 characters)');
  const id = input.id ?? newId('acct');
  if (await accountExists(id)) throw new BillingInputError('id', `account "${id}" exists`);
  await resetHint(id);
  await resetHint(ledgerOf(id, 'test'));
  await forgetBalance(id);
  // The grant first: a crash before the account exists leaves a harmless orphan entry, never an
  // account without its free credits. Its ref makes a retry a no-op.
  await applyCredit(id, { ref: `grant:${id}`, kind: 'grant', delta: FREE_CREDITS });
  const account = await createAccountDocument({ _id: id, name, email: input.email ?? null, balance: FREE_CREDITS });
  return { id: account._id, name: account.name, balance: await balanceOf(id) };
}

export async function createKey(input: { accountId: string; name: string; mode?: string }) {
  const account = await mustFindAccount(input.accountId);
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name || name.length > 100) throw new BillingInputError('name', 'is required (1 to 100 characters)');
  const mode = (input.mode ?? 'live') as KeyMode;
  if (!KEY_MODES.includes(mode)) throw new BillingInputError('mode', 'must be live or test');
  const key = generateKey(mode);
  const doc = await createApiKeyDocument({ _id: newId('key'), accountId: account._id, name, mode, hash: key.hash, prefix: key.prefix });
  // The plaintext leaves here once and is stored nowhere.
  return { id: doc._id, accountId: account._id, name, mode, prefix: key.prefix, key: key.plaintext };
}

export async function listKeys(accountId: string) {
  const account = await mustFindAccount(accountId);
  const keys = await findApiKeysOfAccount(account._id);
  keys.sort((a, b) => +a.createdAt - +b.createdAt);
  const used = await lastUsed(keys.map((k) => k.hash));
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

export async function revokeKey(keyId: string) {
  const id = checkId('key', keyId);
  const doc = await findApiKeyById(id);
  if (!doc) throw new BillingInputError('key', `no key "${id}"`);
  const revokedAt = doc.revokedAt ?? new Date();
  if (!doc.revokedAt) await setApiKeyRevokedAt(id, revokedAt);
  await tombstone(doc.hash);
  return { id, revokedAt, alreadyRevoked: Boolean(doc.revokedAt) };
}

export async function addCredits(input: { accountId: string; packageCredits: number; ref?: string }) {
  const account = await mustFindAccount(input.accountId);
  if (typeof input.packageCredits !== 'number' || !isPackage(input.packageCredits)) throw new BillingInputError('package', `must be one of ${Object.keys(PACKAGE_PRICES_CENTS).join(', ')}`);
  const ref = `purchase:${input.ref ?? randomBase62(16)}`;
  const r = await applyCredit(account._id, { ref, kind: 'purchase', delta: input.packageCredits });
  return { accountId: account._id, credits: input.packageCredits, priceCents: PACKAGE_PRICES_CENTS[input.packageCredits], applied: r.status === 'applied', balance: await balanceOf(account._id) };
}

/** Balance (and test credits, apart), auto-recharge settings, recent recharges and usage per endpoint over `days`. */
export async function accountSummary(accountId: string, days = 30) {
  const account = await mustFindAccount(accountId);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new BillingInputError('days', 'must be an integer from 1 to 3650');
  const since = daysBefore(Date.now(), days);
  const [balance, testBalance, attempts] = await Promise.all([balanceOf(account._id), testBalanceOf(account._id), findRechargeAttemptsOfAccount(account._id)]);
  // Summed here rather than with $group: FerretDB 1.x counts with $sum: 1 unreliably.
  const usage = new Map<string, { endpoint: string; requests: number; credits: number }>();
  const cursor = streamUsageEntriesOfAccount(account._id, since);
  for await (const e of cursor) {
    if (!e.endpoint) continue;
    const u = usage.get(e.endpoint) ?? { endpoint: e.endpoint, requests: 0, credits: 0 };
    // A refunded request is not a billed request: its refund cancels its debit.
    u.requests += e.kind === 'debit' ? 1 : -1;
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
export async function setAutoRecharge(input: { accountId: string; threshold: unknown; packageCredits: unknown; paymentMethod?: unknown; customer?: unknown; operator?: boolean }) {
  const account = await mustFindAccount(input.accountId);
  if (typeof input.packageCredits !== 'number' || !isPackage(input.packageCredits)) throw new BillingInputError('package', `must be one of ${Object.keys(PACKAGE_PRICES_CENTS).join(', ')}`);
  const credits = input.packageCredits as number;
  if (typeof input.threshold !== 'number' || !Number.isInteger(input.threshold) || input.threshold < 1 || input.threshold >= credits) {
    throw new BillingInputError('threshold', `must be an integer from 1 to ${credits - 1}: below the package's ${credits} credits, so that one recharge lifts the balance above it`);
  }
  const threshold = input.threshold;
  mustSell();
  if (input.paymentMethod !== undefined || input.customer !== undefined) {
    if (!input.operator) {
      throw new BillingInputError(
        input.paymentMethod !== undefined ? 'paymentMethod' : 'customer',
        'is not accepted: auto-recharge charges the payment method saved on the account (POST /v2/account/payment-method)',
      );
    }
    await saveOperatorPaymentMethod(account._id, input.paymentMethod, input.customer ?? null);
  } else {
    await paymentMethodToCharge(account._id);
  }
  await enableAutoRecharge(account._id, { threshold, packageCredits: credits, version: (account.autoRecharge?.version ?? 0) + 1 });
  const saved = await savedPaymentMethod(account._id);
  return { accountId: account._id, enabled: true, threshold, packageCredits: credits, paymentMethod: saved?.paymentMethod ?? null, customer: saved?.customer ?? null };
}

/** The operator's CLI saves a payment method it vouches for; `customer` is required where the gateway needs one (Stripe). */
async function saveOperatorPaymentMethod(accountId: string, paymentMethod: unknown, customer: unknown): Promise<void> {
  if (typeof paymentMethod !== 'string' || !PAYMENT_METHOD.test(paymentMethod)) throw new BillingInputError('payment-method', 'must be a gateway payment method id (pm_...)');
  if (customer !== null && (typeof customer !== 'string' || !CUSTOMER.test(customer))) throw new BillingInputError('customer', 'must be a gateway customer id (cus_...)');
  const gateway = getConfig().PAYMENT_GATEWAY;
  if (customer === null && gateway === 'stripe') throw new BillingInputError('customer', `is required with PAYMENT_GATEWAY=${gateway}: the customer the payment method is attached to (cus_...)`);
  await saveBillingPaymentMethod(accountId, gateway, customer, paymentMethod);
}

export async function clearAutoRecharge(accountId: string) {
  const account = await mustFindAccount(accountId);
  await turnOffAutoRecharge(account._id, (account.autoRecharge?.version ?? 0) + 1);
  return { accountId: account._id, enabled: false };
}

export const DEMO_ACCOUNT_ID = 'acct_demo';
const DEMO_KEY_FILE = join(resolve(__dirname, '..', '..', '..'), '.local', 'demo-key.json');

/**
 * A working key for the embedded default. The demo account is created once. Keys are stored only
 * hashed, so the demo key's plaintext is kept in .local/demo-key.json (gitignored, mode 0600, this
 * machine only) and printed again while it still works; otherwise a new one is made.
 */
export async function demoKey(mode: KeyMode = 'live') {
  if (!KEY_MODES.includes(mode)) throw new BillingInputError('mode', 'must be live or test');
  if (!(await accountExists(DEMO_ACCOUNT_ID))) {
    await createAccount({ id: DEMO_ACCOUNT_ID, name: 'Demo account' }).catch(async (err) => {
      // Created concurrently by another demo-key.
      if (!isDuplicateKey(err) && !(err instanceof BillingInputError && err.argument === 'id')) throw err;
    });
  }
  const scope = `${getConfig().MONGODB_URI}/${getConfig().MONGODB_DB}`;
  const saved = readSaved();
  const existing = saved[`${scope}|${mode}`];
  if (existing) {
    const doc = await findApiKeyByHash(hashKey(existing));
    if (doc && !doc.revokedAt && doc.accountId === DEMO_ACCOUNT_ID) return { accountId: DEMO_ACCOUNT_ID, id: doc._id, mode, key: existing, created: false };
  }
  const created = await createKey({ accountId: DEMO_ACCOUNT_ID, name: `demo (${mode})`, mode });
  saved[`${scope}|${mode}`] = created.key;
  mkdirSync(join(DEMO_KEY_FILE, '..'), { recursive: true });
  writeFileSync(DEMO_KEY_FILE, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return { accountId: DEMO_ACCOUNT_ID, id: created.id, mode, key: created.key, created: true };
}

function readSaved(): Record<string, string> {
  try {
    return existsSync(DEMO_KEY_FILE) ? (JSON.parse(readFileSync(DEMO_KEY_FILE, 'utf8')) as Record<string, string>) : {};
  } catch {
    return {};
  }
}
