import { RECHARGE_RETRY_DELAY_MS, type EnqueueIntentOf } from '../intents';
import type { AppContext } from '../context';
import { processMemo } from '../../platform/processScope';
import type { AdmissionHead } from '../../platform/billing/credits';
import { savedPaymentMethod, type SavedPaymentMethod } from './paymentMethods';
import type { AutoRechargeSettings } from './ports';
import { CURRENCY, isPackage, PACKAGE_PRICES_CENTS, type PackageCredits } from '../../domain/billing/packages';
import { creditModeOfGateway, ledgerOf } from '../../domain/billing/creditModes';
import { rechargeFailed, rechargeSucceeded } from '../../domain/webhooks/payloads';
import { announceAccountEvent } from '../webhooks/fanout';

/**
 * Auto-recharge. A low-balance window is named by the settings' version and the latest top-up's
 * ledger position: every trigger while the balance stays low names the same window (so the charge
 * jobs collapse into one), and a credited recharge, a manual top-up or new settings open a new one.
 * Attempt 1 charges; a decline schedules attempt 2 an hour later (a delayed job, a new idempotency
 * key); a second decline disables auto-recharge with the reason. Never a third charge. Settings the
 * gateway cannot charge (no saved payment method, a threshold not below the package) disable
 * auto-recharge with the reason, uncharged. At most one attempt of an account is in flight, and at
 * most AUTO_RECHARGE_MAX_PER_DAY are made in any 24 hours.
 *
 * A recharge charged through the test gateway buys test credits (creditModes.ts): it is credited to
 * the account's test ledger, so the live balance stays under the threshold and the window stays
 * the one charged; its job id then collapses every later trigger of that window (one charge).
 */

const log = (ctx: AppContext) => ctx.log({ component: 'recharge' });

export const rechargeWindow = (version: number, topUpSeq: number) => `v${version}s${topUpSeq}`;
const attemptIdOf = (accountId: string, window: string, attempt: number) => `${accountId}|${window}|${attempt}`;
const versionOfWindow = (window: string) => Number(/^v(\d+)s\d+$/.exec(window)?.[1] ?? NaN);

type Settings = AutoRechargeSettings & { at: number };
const SETTINGS_TTL_MS = 5000;
/** What this process read of the accounts' settings, and the window it last asked a charge for, per account. */
const settingsCacheOf = processMemo(() => new Map<string, Settings>());
const triggeredOf = processMemo(() => new Map<string, string>());

async function settingsOf(ctx: AppContext, accountId: string): Promise<Settings> {
  const settingsCache = settingsCacheOf();
  const cached = settingsCache.get(accountId);
  if (cached && ctx.clock.now().getTime() - cached.at < SETTINGS_TTL_MS) return cached;
  const s = { ...(await ctx.credits.autoRechargeSettings(accountId)), at: ctx.clock.now().getTime() };
  settingsCache.set(accountId, s);
  return s;
}

type ChargeIntent = EnqueueIntentOf<'recharge', 'charge'>;

/** A charge job of the recharge queue (pure); `delay` absent: no delay option. */
export function chargeIntent(accountId: string, window: string, attempt: number, delay?: number): ChargeIntent {
  return { kind: 'enqueue', queue: 'recharge', name: 'charge', data: { accountId, window, attempt }, ...(delay === undefined ? {} : { delay }) };
}

/**
 * What a debit asks for (pure): this window's first charge when auto-recharge is on and the
 * balance is under the threshold, unless this process already asked for it (`alreadyTriggered`).
 */
export function afterDebitIntents(accountId: string, settings: { enabled: boolean; threshold: number; version: number }, head: AdmissionHead, alreadyTriggered: string | undefined): ChargeIntent[] {
  if (!settings.enabled || head.balance >= settings.threshold) return [];
  const window = rechargeWindow(settings.version, head.topUpSeq);
  if (alreadyTriggered === window) return []; // this process already enqueued it
  return [chargeIntent(accountId, window, 1)];
}

/**
 * After a debit: when the balance is under the owner's threshold, enqueue this window's charge.
 * Settings are read at most every 5 s per process; the worker re-checks them before charging.
 */
export async function afterDebit(ctx: AppContext, accountId: string, head: AdmissionHead): Promise<void> {
  const intents = afterDebitIntents(accountId, await settingsOf(ctx, accountId), head, triggeredOf().get(accountId));
  if (intents.length === 0) return;
  await ctx.dispatch(intents);
  triggeredOf().set(accountId, intents[0].data.window);
}

/** The retry after a declined attempt 1 (pure): attempt 2, due an hour after the decline. */
export function retryIntent(accountId: string, window: string, decidedAt: number, now: number): ChargeIntent {
  return chargeIntent(accountId, window, 2, Math.max(0, decidedAt + RECHARGE_RETRY_DELAY_MS - now));
}

export type ChargeOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'disabled'; reason: string }
  | { outcome: 'credited'; attemptId: string; credits: number }
  | { outcome: 'declined'; attemptId: string; code: string; next: 'retry' | 'disabled' };

/** The charge job: state-driven, so a retry or a replay after a crash resumes where it stopped. */
export async function runCharge(ctx: AppContext, payload: { accountId: string; window: string; attempt: number }): Promise<ChargeOutcome> {
  const { accountId, window, attempt } = payload;
  const id = attemptIdOf(accountId, window, attempt);
  const store = ctx.recharges;
  let doc = await store.findAttempt(id);
  if (!doc) {
    const why = await whyNotCharge(ctx, accountId, window, attempt);
    if ('reason' in why) {
      if (!why.disable) return { outcome: 'skipped', reason: why.reason };
      // Announced first: a replay after the disable finds auto-recharge off and would say nothing.
      const failed = rechargeFailed({
        accountId,
        subject: `${accountId}|${window}|settings`,
        attempt: null,
        code: 'settings',
        message: why.reason,
        willRetry: false,
        nextAttemptAt: null,
        autoRechargeDisabled: true,
        at: ctx.clock.now(),
      });
      await announceAccountEvent(ctx, { ...failed, accountId });
      await ctx.accounts.disableAutoRechargeIfVersion(accountId, why.disable.version, why.reason);
      log(ctx).warn({ accountId, reason: why.reason }, 'auto-recharge settings incomplete; disabled without charging');
      return { outcome: 'disabled', reason: why.reason };
    }
    const { credits, saved } = why;
    // An attempt stored already (a replay) is taken as stored.
    await store.createAttempt({
      _id: id,
      accountId,
      window,
      attempt,
      packageCredits: credits,
      amountCents: PACKAGE_PRICES_CENTS[credits],
      paymentMethod: saved.paymentMethod,
      customer: saved.customer,
      gateway: ctx.payments.name(),
      idempotencyKey: `recharge-${accountId}-${window}-a${attempt}`,
      status: 'pending',
    });
    doc = await store.findAttempt(id);
    if (!doc) throw new Error(`recharge attempt ${id} not found after its insert`);
  }

  if (doc.status === 'pending' || doc.status === 'charging') {
    // First call, or a replay after a crash or an unknown outcome: the same idempotency key makes
    // the gateway answer the first call's outcome instead of charging again.
    await store.setAttemptFields(id, { status: 'charging' });
    const result = await ctx.payments.charge({
      amountCents: doc.amountCents,
      currency: CURRENCY,
      paymentMethod: doc.paymentMethod,
      customer: doc.customer ?? null,
      idempotencyKey: doc.idempotencyKey,
      description: `${doc.packageCredits} credits (auto-recharge)`,
      metadata: { accountId, attemptId: id },
    });
    const decidedAt = ctx.clock.now();
    if (result.status === 'succeeded') {
      await store.setAttemptFields(id, { status: 'succeeded', gatewayChargeId: result.chargeId, decidedAt, error: null });
      doc = { ...doc, status: 'succeeded', gatewayChargeId: result.chargeId, decidedAt };
    } else {
      const error = `${result.code}: ${result.message}`;
      await store.setAttemptFields(id, { status: 'declined', gatewayChargeId: result.chargeId, decidedAt, error });
      doc = { ...doc, status: 'declined', error, decidedAt };
    }
  }

  if (doc.status === 'succeeded') {
    // The ledger ref is the attempt: however often this runs, the package is credited once; to the
    // test credits when the attempt was charged through the test gateway.
    await ctx.credits.applyCredit(ledgerOf(accountId, creditModeOfGateway(doc.gateway)), { ref: `recharge:${id}`, kind: 'recharge', delta: doc.packageCredits });
    if (!doc.credited) await store.setAttemptFields(id, { credited: true });
    const mode = creditModeOfGateway(doc.gateway);
    const event = rechargeSucceeded({
      accountId,
      attemptId: id,
      credits: doc.packageCredits,
      amountCents: doc.amountCents,
      currency: CURRENCY,
      mode,
      chargeId: doc.gatewayChargeId ?? null,
      at: doc.decidedAt ?? ctx.clock.now(),
    });
    await announceAccountEvent(ctx, { ...event, accountId });
    log(ctx).info({ accountId, attemptId: id, credits: doc.packageCredits, mode: creditModeOfGateway(doc.gateway) }, 'auto-recharge credited');
    return { outcome: 'credited', attemptId: id, credits: doc.packageCredits };
  }

  const code = (doc.error ?? 'declined').split(':')[0];
  if (attempt === 1) {
    const now = ctx.clock.now().getTime();
    const decidedAt = doc.decidedAt ? +doc.decidedAt : now;
    await ctx.dispatch([retryIntent(accountId, window, decidedAt, now)]);
    const failed = rechargeFailed({
      accountId,
      subject: id,
      attempt,
      code,
      message: doc.error ?? 'declined',
      willRetry: true,
      nextAttemptAt: new Date(decidedAt + RECHARGE_RETRY_DELAY_MS),
      autoRechargeDisabled: false,
      at: new Date(decidedAt),
    });
    await announceAccountEvent(ctx, { ...failed, accountId });
    log(ctx).warn({ accountId, attemptId: id, code }, 'auto-recharge declined; retrying in 1 hour');
    return { outcome: 'declined', attemptId: id, code, next: 'retry' };
  }
  // Disable only the settings this window was charged under; new settings saved meanwhile stay.
  await ctx.accounts.disableAutoRechargeIfVersion(accountId, versionOfWindow(window), `payment declined twice (${doc.error})`);
  const failed = rechargeFailed({
    accountId,
    subject: id,
    attempt,
    code,
    message: doc.error ?? 'declined',
    willRetry: false,
    nextAttemptAt: null,
    autoRechargeDisabled: true,
    at: doc.decidedAt ?? ctx.clock.now(),
  });
  await announceAccountEvent(ctx, { ...failed, accountId });
  log(ctx).warn({ accountId, attemptId: id, code }, 'auto-recharge declined twice; disabled');
  return { outcome: 'declined', attemptId: id, code, next: 'disabled' };
}

/** What a charge takes: a package and the saved payment method. */
interface Chargeable {
  credits: PackageCredits;
  saved: SavedPaymentMethod;
}

/** Settings that cannot be charged (`problem`): a skipped job alone would be re-queued by every sweep, unseen. */
function chargeableSettings(ar: { packageCredits?: number | null; threshold?: number | null }, saved: SavedPaymentMethod | null): Chargeable | { problem: string } {
  if (!saved) return { problem: 'settings incomplete: no payment method saved on the account' };
  const credits = ar.packageCredits;
  if (!credits || !isPackage(credits)) return { problem: 'settings incomplete: no valid package' };
  // Settings saved before the rule: a threshold the package cannot lift the balance above would charge again and again.
  if ((ar.threshold ?? 0) >= credits) return { problem: `settings invalid: the threshold (${ar.threshold}) is not below the package's ${credits} credits` };
  return { credits, saved };
}

const DAY_MS = 86_400_000;

/** Why no new attempt may start now: one in flight in another window, or the daily cap reached (pure). */
export function rechargeBudgetProblem(attempts: readonly { window: string; status: string; createdAt: Date }[], window: string, now: number, maxPerDay: number): string | undefined {
  if (attempts.some((a) => a.window !== window && (a.status === 'pending' || a.status === 'charging'))) return 'another recharge of this account is in flight';
  const lastDay = attempts.filter((a) => +a.createdAt > now - DAY_MS).length;
  if (lastDay >= maxPerDay) return `daily cap reached: ${lastDay} recharges in the last 24 hours (AUTO_RECHARGE_MAX_PER_DAY=${maxPerDay})`;
  return undefined;
}

/**
 * Reasons a new attempt must not charge (settings changed, balance topped up, previous attempt not
 * a decline); `disable` when the settings themselves cannot be charged, naming their version.
 * Otherwise, what the charge takes, as checked.
 */
async function whyNotCharge(ctx: AppContext, accountId: string, window: string, attempt: number): Promise<{ reason: string; disable?: { version: number } } | Chargeable> {
  if (attempt !== 1 && attempt !== 2) return { reason: `no attempt ${attempt}: a recharge is retried once` };
  const account = await ctx.accounts.findAccount(accountId);
  const ar = account?.autoRecharge;
  if (!account || !ar?.enabled) return { reason: 'auto-recharge is off' };
  const chargeable = chargeableSettings(ar, await savedPaymentMethod(ctx, accountId));
  if ('problem' in chargeable) return { reason: chargeable.problem, disable: { version: ar.version ?? 0 } };
  const head = await ctx.credits.admissionHead(accountId);
  if (rechargeWindow(ar.version ?? 0, head.topUpSeq) !== window) return { reason: 'window closed (topped up or settings changed)' };
  if (head.balance >= (ar.threshold ?? 0)) return { reason: 'balance is not under the threshold' };
  if (attempt === 2) {
    const first = await ctx.recharges.findAttempt(attemptIdOf(accountId, window, 1));
    if (first?.status !== 'declined') return { reason: 'attempt 1 was not declined' };
  }
  const budget = rechargeBudgetProblem(await ctx.recharges.findAttemptsOfAccount(accountId), window, ctx.clock.now().getTime(), ctx.config.AUTO_RECHARGE_MAX_PER_DAY);
  if (budget) return { reason: budget };
  return chargeable;
}

/**
 * The sweep's step for one account under its threshold (pure): the current window's next charge,
 * attempt 1, or attempt 2 after a decline (due an hour after it), and a failed job under that id
 * put back to work. Ids collapse duplicates.
 */
export function sweepChargeIntent(accountId: string, window: string, first: { status?: string | null; decidedAt?: Date | null } | null, now: number): ChargeIntent {
  const attempt = first?.status === 'declined' ? 2 : 1;
  const due = attempt === 2 && first?.decidedAt ? +first.decidedAt + RECHARGE_RETRY_DELAY_MS - now : 0;
  return { ...chargeIntent(accountId, window, attempt, Math.max(0, due)), existing: 'retry-failed' };
}

/**
 * Whether the window's charge succeeded and was credited (pure): nothing is left to do in it. A
 * live credit opens a new window (its top-up lifts the balance above the threshold), so only a
 * recharge credited to the test credits leaves the live balance under the threshold in the window
 * it charged; the sweep leaves that window alone.
 */
export function windowCredited(first: { status?: string | null; credited?: boolean | null } | null, second: { status?: string | null; credited?: boolean | null } | null): boolean {
  const last = first?.status === 'declined' ? second : first;
  return last?.status === 'succeeded' && last.credited === true;
}

/**
 * What a lost job would leave behind: for every enabled account under its threshold, the current
 * window's next step (attempt 1, or attempt 2 after a decline), with failed charge jobs (gateway
 * unreachable past their retries) put back to work. The recharge worker carries them out.
 */
export async function rechargeSweepIntents(ctx: AppContext): Promise<ChargeIntent[]> {
  const accounts = await ctx.accounts.findAccountsWithAutoRechargeEnabled();
  const intents: ChargeIntent[] = [];
  for (const a of accounts) {
    const head = await ctx.credits.admissionHead(a._id);
    if (head.balance >= (a.autoRecharge?.threshold ?? 0)) continue;
    const window = rechargeWindow(a.autoRecharge?.version ?? 0, head.topUpSeq);
    const first = await ctx.recharges.findAttempt(attemptIdOf(a._id, window, 1));
    const second = first?.status === 'declined' ? await ctx.recharges.findAttempt(attemptIdOf(a._id, window, 2)) : null;
    if (windowCredited(first, second)) continue;
    intents.push(sweepChargeIntent(a._id, window, first, ctx.clock.now().getTime()));
  }
  return intents;
}

/**
 * The recharge sweep: makes sure every enabled account under its threshold has its window's next
 * charge queued, and puts failed charge jobs back to work.
 */
export async function sweepRecharges(ctx: AppContext): Promise<{ ensured: number }> {
  const results = await ctx.dispatch(await rechargeSweepIntents(ctx));
  return { ensured: results.length };
}
