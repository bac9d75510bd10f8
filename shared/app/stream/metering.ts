import type { KeyIdentity } from '../../platform/billing/access';
import { debitOfAdmission, debitRequest, settleRequest, type Debit } from '../billing/metering';
import type { AppContext } from '../context';

/**
 * A stream's metering after its open (docs/stream.md): at the start of each further period
 * (STREAM_BILLING_INTERVAL_MS) the key is checked again, and a live key is debited the period's
 * cost under the period's own ref and charged at once (a stream's period is served as it starts;
 * nothing is held). The open's debit is the request's own, made by the metering middleware.
 */

export type PeriodOutcome =
  { ok: true; balance?: number } | { ok: false; reason: 'revoked' } | { ok: false; reason: 'insufficient'; balance: number } | { ok: false; reason: 'capped'; cap: number; retryAfterS: number };

export interface PeriodInput {
  plaintext: string;
  key: KeyIdentity;
  cost: number;
  /** Unique per connection and period: the ledger's ref of the charge. */
  ref: string;
  /** The ledger's endpoint (GET /v2/stream). */
  endpoint: string;
}

export async function chargePeriod(ctx: AppContext, input: PeriodInput): Promise<PeriodOutcome> {
  const live = input.key.mode === 'live';
  const access = await ctx.credits.checkKey(input.plaintext, live ? { cost: input.cost, ref: input.ref } : undefined);
  if (access.outcome === 'invalid') return { ok: false, reason: 'revoked' };
  // Test keys consume no credits, but their stream is requests of their daily cap: at the cap it ends.
  if (access.outcome === 'capped') return { ok: false, reason: 'capped', cap: access.cap, retryAfterS: access.retryAfterS };
  // A key over its rate limit is still a valid key: the period goes on.
  if (!live) return { ok: true };
  const { accountId, keyId } = input.key;
  const debit: Debit =
    access.outcome === 'allowed' && access.admission
      ? await debitOfAdmission(ctx, { accountId, cost: input.cost, ref: input.ref }, access.admission)
      : await debitRequest(ctx, { accountId, cost: input.cost, ref: input.ref });
  if (!debit.ok) return { ok: false, reason: 'insufficient', balance: debit.balance };
  settleRequest(ctx, { accountId, keyId, ref: debit.ref, hold: debit.hold, at: debit.at, cost: input.cost, endpoint: input.endpoint, charged: true });
  return { ok: true, balance: debit.balance };
}

/** Charges the open's debit now instead of when the response ends: a stream outlives the holds' stale sweep. */
export function chargeOpening(ctx: AppContext, input: { key: KeyIdentity; debit: Debit | undefined; cost: number; endpoint: string }): void {
  const d = input.debit;
  if (!d?.ok) return;
  settleRequest(ctx, { accountId: input.key.accountId, keyId: input.key.keyId, ref: d.ref, hold: d.hold, at: d.at, cost: input.cost, endpoint: input.endpoint, charged: true });
}

/**
 * The minutes of the feed a resume replays beyond the open's own (cost table row `/v2/stream`,
 * docs/metering.md): a backlog covers the time from the resume id to now, every started minute of
 * it is a credit, and the open's credit pays the first. A stream that reconnects every 15 minutes
 * thus pays about what one that stayed connected pays.
 */
export function backlogMinutes(resumeIdMs: number, nowMs: number, periodMs: number): number {
  const span = Math.max(0, nowMs - resumeIdMs);
  return Math.max(0, Math.ceil(span / periodMs) - 1);
}

/** Debits a resume's backlog (its own ref) and charges it at once; insufficient: nothing is debited. */
export async function chargeBacklog(
  ctx: AppContext,
  input: { key: KeyIdentity; cost: number; ref: string; endpoint: string },
): Promise<{ ok: true; balance: number } | { ok: false; balance: number }> {
  const { accountId, keyId } = input.key;
  const debit = await debitRequest(ctx, { accountId, cost: input.cost, ref: input.ref });
  if (!debit.ok) return { ok: false, balance: debit.balance };
  settleRequest(ctx, { accountId, keyId, ref: debit.ref, hold: debit.hold, at: debit.at, cost: input.cost, endpoint: input.endpoint, charged: true });
  return { ok: true, balance: debit.balance };
}
