import { enqueue } from '../../jobs/client';
import { settlementQueue } from '../../jobs/settlement';
import { Event, Pick, Recommendation } from '../models';

/** Statuses after which bets are graded (postponed counts only once the event had started). */
export const SETTLING_STATUSES = ['completed', 'postponed'] as const;

/**
 * Re-enqueues settlement for every ended event that still has unsettled bets: what a lost job,
 * a flushed Redis or a crashed worker would otherwise leave behind. Enqueueing is idempotent
 * (job id = event + result version), so running it often is harmless.
 */
export async function sweepUnsettled(): Promise<{ enqueued: number }> {
  const [recEvents, pickEvents] = await Promise.all([
    Recommendation.distinct('eventId', { settled: false }),
    Pick.distinct('eventIds', { settled: false }),
  ]);
  const eventIds = [...new Set([...recEvents, ...pickEvents].map(String))];
  if (eventIds.length === 0) return { enqueued: 0 };
  const ended = await Event.find(
    { _id: { $in: eventIds }, status: { $in: SETTLING_STATUSES }, startedAt: { $ne: null } },
    { _id: 1, resultVersion: 1 },
  ).lean();
  for (const e of ended) await enqueue(settlementQueue, 'settle-event', { eventId: String(e._id), resultVersion: e.resultVersion ?? 0 });
  return { enqueued: ended.length };
}
