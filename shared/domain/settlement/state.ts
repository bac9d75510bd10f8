import { EMPTY_STATS, statsOf, type EndState, type EventStats } from '../stats';
import { utcDay, utcDayRange } from '../days';

/**
 * Where an event stands for settlement, from its stored status (pure).
 * - `pending`: not over yet (upcoming, live): nothing to do.
 * - `unplayed`: it never started (postponed or cancelled before kickoff). The contract: no settlement,
 *   bets void; recommendations stay unsettled. `final` is true when it will never be played
 *   (cancelled): only then does a parlay count its leg as void (push). A postponed event may be
 *   rescheduled and played later, so its parlays wait.
 * - `ended`: grade everything with `endState`. completed + voided = abandoned; postponed after
 *   the start = postponed; cancelled after the start is treated as abandoned (the match was
 *   stopped and will not finish). A completed event counts as started even when ingest did not
 *   record startedAt: it was played.
 */
export type SettlementState = { kind: 'pending' } | { kind: 'unplayed'; final: boolean } | { kind: 'ended'; endState: EndState };

export interface EventLike {
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
}

export function settlementState(e: EventLike): SettlementState {
  const started = e.startedAt !== null && e.startedAt !== undefined;
  switch (e.status) {
    case 'completed':
      return { kind: 'ended', endState: e.voided ? 'abandoned' : 'completed' };
    case 'postponed':
      return started ? { kind: 'ended', endState: 'postponed' } : { kind: 'unplayed', final: false };
    case 'cancelled':
      return started ? { kind: 'ended', endState: 'abandoned' } : { kind: 'unplayed', final: true };
    default:
      return { kind: 'pending' };
  }
}

export type StatsSource = 'liveEventData' | 'event.stats' | 'none';

type Counts = Partial<Record<keyof EventStats, number | null | undefined>>;

function pickStats(doc: Counts): EventStats {
  return statsOf((k) => {
    const v = doc[k];
    return typeof v === 'number' ? v : null;
  });
}

/**
 * The stats settlement grades from. The contract: LiveEventData "is the data that settlement uses", so it
 * wins whenever the event has one, field by field as it is (a null there stays null and refunds
 * the markets that need it, even if Event.stats has a value: the two must not be mixed). Only an
 * event without any LiveEventData document falls back to Event.stats (the list view's final
 * counts); with neither, every count is null and every bet of the event pushes (missing score).
 */
export function settlementStats(led: Counts | null | undefined, eventStats: Counts | null | undefined): { stats: EventStats; source: StatsSource } {
  if (led) return { stats: pickStats(led), source: 'liveEventData' };
  if (eventStats) return { stats: pickStats(eventStats), source: 'event.stats' };
  return { stats: { ...EMPTY_STATS }, source: 'none' };
}

/** The performance day of a bet: the UTC day its event started (stable under retries and corrections). */
export function betDay(eventStartAt: Date): string {
  return utcDay(eventStartAt);
}

/** The bets of one performance day, as a query on eventStartAt. */
export function dayRange(day: string): { $gte: Date; $lt: Date } {
  const { gte, lt } = utcDayRange(day);
  return { $gte: gte, $lt: lt };
}
