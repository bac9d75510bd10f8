import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import type { EnqueueIntent } from '../intents';
import { settlementState } from '../../domain/settlement/state';
import { DAY_MS } from '../../domain/days';
import type { SweepEventRow } from './ports';

/** Statuses after which bets are graded (postponed counts only once the event had started). */
export const SETTLING_STATUSES = ['completed', 'postponed'] as const;

/** How far back the sweep looks for events whose settlement marker is behind their result version. */
export const SWEEP_LOOKBACK_MS = 14 * DAY_MS;
/** The contract: settlement runs 2 to 5 minutes after completion; a re-enqueued job keeps at least the minimum. */
const MIN_DELAY_MS = 120_000;
/** The contract's latest settlement: 5 minutes after completion, unless SETTLEMENT_DELAY_MS fixes it. */
const MAX_DELAY_MS = 300_000;

/** When an ended event's settlement is due at the latest, after its end. */
export const maxSettlementDelayMs = (config: Pick<Config, 'SETTLEMENT_DELAY_MS'>): number => config.SETTLEMENT_DELAY_MS ?? MAX_DELAY_MS;
/** The least delay after an event's end of a re-enqueued settle job. */
export const minSettlementDelayMs = (config: Pick<Config, 'SETTLEMENT_DELAY_MS'>): number => config.SETTLEMENT_DELAY_MS ?? MIN_DELAY_MS;

export type SweepCandidate = SweepEventRow;

/**
 * The events whose settlement a lost job (flushed Redis, crashed worker, failed retries) left
 * behind, so losing Redis loses no settlement:
 *  (a) ended events that still have unsettled recommendations (bets with a recorded grading
 *      error are parked for review and do not count: they would only fail again), and
 *  (b) recently updated events whose settlement marker (settledVersion in eventsettlements, written last, after
 *      picks and rollups) is behind their resultVersion: a settlement or correction that did not
 *      finish, including its picks and rollups.
 */
export async function findUnsettled(ctx: AppContext, now: Date): Promise<SweepCandidate[]> {
  const store = ctx.settlement;
  const [withOpenBets, recent] = await Promise.all([store.findEventIdsWithOpenBets(), store.findEventsUpdatedSince(new Date(now.getTime() - SWEEP_LOOKBACK_MS))]);
  const open: SweepCandidate[] = withOpenBets.length ? await store.findSweepEvents(withOpenBets) : [];
  const candidates = new Map<string, SweepCandidate>();
  for (const e of open) if (settlementState(e).kind === 'ended') candidates.set(e._id, e);
  for (const e of recent) if ((e.settledVersion ?? -1) < (e.resultVersion ?? 0)) candidates.set(e._id, e);
  return [...candidates.values()];
}

/**
 * The sweep's intentions (pure): a settle-event job per candidate, for its current result version.
 * An event whose job is still waiting, delayed or running is left to it (the ingest worker's
 * delayed job keeps its delay); a completed or failed job under the same id means that run is over
 * and work remains (it ran before the event ended, or exhausted its retries): it is replaced.
 * The delay runs from the real instant the event's (world-time) end maps to, at least `minDelayMs`.
 */
export function sweepIntents(candidates: readonly SweepCandidate[], now: Date, minDelayMs: number, toReal: (worldMs: number) => number): EnqueueIntent[] {
  return candidates.map((e) => ({
    kind: 'enqueue',
    queue: 'settlement',
    name: 'settle-event',
    data: { eventId: e._id, resultVersion: e.resultVersion ?? 0 },
    // endedAt is the world's (simulated) time: the delay runs from the real instant it maps to.
    delay: e.endedAt ? Math.max(0, toReal(e.endedAt.getTime()) + minDelayMs - now.getTime()) : 0,
    existing: 'replace-finished',
  }));
}

/**
 * The settlement sweep: re-enqueues settlement wherever a lost job left work behind. A job still
 * waiting, delayed or running is kept, a finished one under the same id is replaced.
 */
export async function sweepUnsettled(ctx: AppContext, now = ctx.clock.now()): Promise<{ enqueued: number; candidates: number }> {
  const sweepLog = ctx.log({ component: 'settlement-sweep' });
  const candidates = await findUnsettled(ctx, now);
  const results = await ctx.dispatch(
    sweepIntents(candidates, now, minSettlementDelayMs(ctx.config), (worldMs) => ctx.clock.toRealTime(worldMs)),
    { log: sweepLog },
  );
  const enqueued = results.filter((r) => r.enqueued).length;
  if (enqueued) sweepLog.info({ enqueued, candidates: candidates.length }, 'settlement re-enqueued');
  return { enqueued, candidates: candidates.length };
}
