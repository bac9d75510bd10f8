import { balanceOf, createAccount, createKey, listKeys, revokeKey } from '../billing/accounts';
import { BillingInputError } from '../../domain/billing/errors';
import { savedPaymentMethod } from '../billing/paymentMethods';
import type { AppContext } from '../context';
import { newId } from '../../domain/billing/keys';
import { isEmail, normalizeEmail } from '../../domain/accounts/email';
import { AccountError } from '../../domain/accounts/errors';
import { dummyHash, hashPassword, verifyPassword } from '../../domain/accounts/passwordHash';
import { passwordProblem } from '../../domain/accounts/passwordPolicy';
import { admitLogin, loginSucceeded } from './throttle';
import { aggregateUsage, MAX_USAGE_DAYS, usageSince, usageTotals, type UsageEntry } from '../../domain/accounts/usage';

/**
 * The developer's own actions on their account, over the operator's code path
 * (shared/app/billing/accounts.ts and the same stores): an account signed up here is the
 * account the CLI lists, funds and revokes keys of.
 */

export const MAX_ACTIVE_KEYS = 50;

function requireString(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new BillingInputError(field, 'is required (a string)');
  return value;
}

/** Creates the account (500 free credits) and its sign-in; 'email-taken' when the address has an account. */
export async function signUp(ctx: AppContext, input: { email: unknown; password: unknown }): Promise<{ accountId: string }> {
  const raw = requireString('email', input.email);
  if (!isEmail(raw)) throw new BillingInputError('email', 'must be an e-mail address (name@example.com)');
  const email = normalizeEmail(raw);
  const password = requireString('password', input.password);
  const problem = passwordProblem(password, email);
  if (problem) throw new BillingInputError('password', problem);
  if (await ctx.accounts.findCredentialByEmail(email)) throw new AccountError('email-taken', 'An account with this e-mail already exists');
  const accountId = newId('acct');
  // The credential first: its primary key (the address) decides a race between two sign-ups.
  if ((await ctx.accounts.createCredential({ email, accountId, passwordHash: await hashPassword(password) })) === 'taken') {
    throw new AccountError('email-taken', 'An account with this e-mail already exists');
  }
  await createAccount(ctx, { id: accountId, name: email, email });
  return { accountId };
}

const LOGIN_FAILED = () => new AccountError('login-failed', 'Invalid e-mail or password');

/**
 * Checks the password; an unknown e-mail costs the same scrypt run (against a dummy hash) and
 * gets the same error as a wrong password. Each attempt is counted before the password is checked
 * and refused with 'throttled' past the limits (throttle.ts); a right password gives it back.
 */
export async function logIn(ctx: AppContext, input: { email: unknown; password: unknown }, address: string): Promise<{ accountId: string }> {
  const email = normalizeEmail(requireString('email', input.email));
  const password = requireString('password', input.password);
  const admission = await admitLogin(ctx, email, address);
  if (!admission.allowed) throw new AccountError('throttled', `Too many failed logins. Retry after ${admission.retryAfterS} seconds.`, admission.retryAfterS);
  const credential = await ctx.accounts.findCredentialByEmail(email);
  const ok = await verifyPassword(password, credential?.passwordHash ?? (await dummyHash()));
  if (!credential || !ok) throw LOGIN_FAILED();
  await loginSucceeded(ctx, admission.ticket);
  // A sign-up that stopped between its credential and its account is completed here.
  if (!(await ctx.accounts.accountExists(credential.accountId))) await createAccount(ctx, { id: credential.accountId, name: email, email }).catch(() => undefined);
  return { accountId: credential.accountId };
}

/** The account as its owner sees it: e-mail, balance (live credits), test credits apart, and auto-recharge settings. */
export async function accountView(ctx: AppContext, accountId: string) {
  const [account, signInEmail, balance, testBalance, paymentMethod] = await Promise.all([
    ctx.accounts.findAccount(accountId),
    ctx.accounts.findEmailOfAccount(accountId),
    balanceOf(ctx, accountId),
    ctx.credits.testBalanceOf(accountId),
    savedPaymentMethod(ctx, accountId),
  ]);
  if (!account) throw new AccountError('not-found', 'Account not found');
  const ar = account.autoRecharge;
  return {
    id: account._id,
    email: signInEmail ?? account.email ?? null,
    balance,
    testBalance,
    autoRecharge: {
      enabled: ar?.enabled ?? false,
      threshold: ar?.threshold ?? 0,
      package: ar?.packageCredits ?? null,
      disabledReason: ar?.disabledReason ?? null,
    },
    paymentMethod,
    createdAt: account.createdAt ?? null,
  };
}

/** The account's unrevoked keys: never a secret or a hash. */
export async function keysOf(ctx: AppContext, accountId: string) {
  const keys = await listKeys(ctx, accountId);
  return keys.filter((k) => !k.revokedAt).map(({ id, name, mode, prefix, createdAt, lastUsedAt }) => ({ id, name, mode, prefix, createdAt, lastUsedAt }));
}

export async function newKey(ctx: AppContext, accountId: string, input: { name: unknown; mode: unknown }) {
  const name = requireString('name', input.name);
  const mode = requireString('mode', input.mode);
  const active = (await ctx.accounts.findApiKeysOfAccount(accountId)).filter((k) => !k.revokedAt).length;
  if (active >= MAX_ACTIVE_KEYS) throw new AccountError('too-many-keys', `An account holds at most ${MAX_ACTIVE_KEYS} keys: revoke one first`);
  const key = await createKey(ctx, { accountId, name, mode });
  return { id: key.id, key: key.key, name: key.name, mode: key.mode, prefix: key.prefix };
}

/** Revokes one of the account's own keys; another account's key is 'not-found', like an unknown one. */
export async function revokeOwnKey(ctx: AppContext, accountId: string, keyId: string) {
  const doc = typeof keyId === 'string' ? await ctx.accounts.findApiKeyOfAccount(accountId, keyId) : null;
  if (!doc || doc.revokedAt) throw new AccountError('not-found', 'Key not found');
  const r = await revokeKey(ctx, doc._id);
  return { id: r.id, revokedAt: r.revokedAt };
}

/** Requests and credits per UTC day and endpoint over the last `days` days (today included). */
export async function usageOf(ctx: AppContext, accountId: string, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > MAX_USAGE_DAYS) throw new BillingInputError('days', `must be an integer from 1 to ${MAX_USAGE_DAYS}`);
  const now = ctx.clock.now();
  const since = usageSince(days, now);
  const entries: UsageEntry[] = [];
  for await (const e of ctx.accounts.usageEntries(accountId, since)) entries.push(e);
  const data = aggregateUsage(entries);
  return { days, from: since.toISOString().slice(0, 10), to: now.toISOString().slice(0, 10), data, totals: usageTotals(data) };
}
