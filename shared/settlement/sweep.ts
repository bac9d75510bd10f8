import { enqueue, queueFor } from '../../jobs/client';
import { settlementQueue } from '../../jobs/settlement';
import { toRealTime } from '../clock/worldClock';
import { getConfig } from '../config';
import { childLogger } from '../logger';
import { Event, Recommendation } from '../db/models';
import { SETTLEMENT_EVENT_FILTER, settlementState } from './state';

/** Statuses after which bets are graded (postponed counts only once the event had started). */
export const SETTLING_STATUSES = ['completed', 'postponed'] as const;

/** How far back the sweep looks for events whose settlement marker is behind their result version. */
export const SWEEP_LOOKBACK_MS = 14 * 86_400_000;
/** SPEC: settlement runs 2 to 5 minutes after completion; a re-enqueued job keeps at least the minimum. */
const MIN_DELAY_MS = 120_000;
/** SPEC's latest settlement: 5 minutes after completion, unless SETTLEMENT_DELAY_MS fixes it. */
const MAX_DELAY_MS = 300_000;

/** When an ended event's settlement is due at the latest, after its end. */
export const maxSettlementDelayMs = (): number => getConfig().SETTLEMENT_DELAY_MS ?? MAX_DELAY_MS;

const log = childLogger({ component: 'settlement-sweep' });

interface Candidate {
  _id: string;
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  resultVersion?: number | null;
  settledVersion?: number | null;
}

const FIELDS = { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, settledVersion: 1 } as const;

/**
 * Re-enqueues settlement wherever a lost job (flushed Redis, crashed worker, failed retries) left
 * work behind, so losing Redis loses no settlement:
 *  (a) ended events that still have unsettled recommendations (bets with a recorded grading
 *      error are parked for review and do not count: they would only fail again), and
 *  (b) recently updated events whose settlement marker (Event.settledVersion, written last, after
 *      picks and rollups) is behind their resultVersion: a settlement or correction that did not
 *      finish, including its picks and rollups.
 * An event whose job is still waiting, delayed or running is left to it (the ingest worker's
 * delayed job keeps its delay). A completed or failed job under the same id means that run is over
 * and work remains (it ran before the event ended, or exhausted its retries): it is replaced.
 */
export async function sweepUnsettled(now = new Date()): Promise<{ enqueued: number; candidates: number }> {
  const [withOpenBets, recent] = await Promise.all([
    Recommendation.distinct('eventId', { settled: false, settlementError: null }),
    Event.find({ ...SETTLEMENT_EVENT_FILTER, updatedAt: { $gte: new Date(now.getTime() - SWEEP_LOOKBACK_MS) } }, FIELDS).lean<Candidate[]>(),
  ]);
  const open = withOpenBets.length ? await Event.find({ _id: { $in: withOpenBets.map(String) }, ...SETTLEMENT_EVENT_FILTER }, FIELDS).lean<Candidate[]>() : [];
  const candidates = new Map<string, Candidate>();
  for (const e of open) if (settlementState(e).kind === 'ended') candidates.set(e._id, e);
  for (const e of recent) if ((e.settledVersion ?? -1) < (e.resultVersion ?? 0)) candidates.set(e._id, e);

  const queue = queueFor(settlementQueue);
  const minDelay = getConfig().SETTLEMENT_DELAY_MS ?? MIN_DELAY_MS;
  let enqueued = 0;
  for (const e of candidates.values()) {
    const payload = { eventId: e._id, resultVersion: e.resultVersion ?? 0 };
    const jobId = settlementQueue.jobs['settle-event'].jobId(payload);
    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
      await existing.remove().catch((err: Error) => log.warn({ jobId, err: err.message }, 'could not replace a finished settle job'));
    }
    // endedAt is the world's (simulated) time: the delay runs from the real instant it maps to.
    const delay = e.endedAt ? Math.max(0, toRealTime(e.endedAt.getTime()) + minDelay - now.getTime()) : 0;
    await enqueue(settlementQueue, 'settle-event', payload, { delay });
    enqueued++;
  }
  if (enqueued) log.info({ enqueued, candidates: candidates.size }, 'settlement re-enqueued');
  return { enqueued, candidates: candidates.size };
}
