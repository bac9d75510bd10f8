import { deleteUnstartedUnsettledPicksByIds, findPicksOfFeaturedDay, findRecommendationsByIds, findUpcomingInsightsStartingBetween, upsertPickUnlessStarted } from '../db/repositories/ai';
import { findEventsWithoutMarketsAndStatsByIds } from '../db/repositories/events';
import { key, redis } from '../db/redis';
import { waitForLock } from '../locks';
import type { PickRecommendation } from '../../domain/ai/picks';
import type { Sentence } from '../../domain/ai/narrative';
import type { OutcomeDistribution } from '../../domain/ai/pricing';
import { isFiniteNumber, isRecord } from '../../domain/records';

type StoredText = { en: string; es?: string | null; pt?: string | null };

/** A stored text in every locale (an analysis writes all three; a missing one reads as English). */
const sentence = (t: StoredText): Sentence => ({ en: t.en, es: t.es ?? t.en, pt: t.pt ?? t.en });

/** A stored distribution (a free-form field) when it holds every outcome's probability; else none (the leg is priced by its probability). */
function distributionOf(v: unknown): OutcomeDistribution | null {
  if (!isRecord(v)) return null;
  const { win, halfWin, push, halfLoss, loss } = v;
  return isFiniteNumber(win) && isFiniteNumber(halfWin) && isFiniteNumber(push) && isFiniteNumber(halfLoss) && isFiniteNumber(loss) ? { win, halfWin, push, halfLoss, loss } : null;
}

/** The recommendations of `ids` as a picks rebuild reads them. */
async function findPickRecommendations(ids: readonly string[]): Promise<PickRecommendation[]> {
  return (await findRecommendationsByIds(ids)).map((r) => ({
    _id: r._id,
    eventId: r.eventId,
    betItemId: r.betItemId,
    betTypeSysname: r.betTypeSysname,
    code: r.code,
    line: r.line ?? null,
    outcome: r.outcome,
    outcomeLocalized: r.outcomeLocalized ? sentence(r.outcomeLocalized) : null,
    bookmaker: r.bookmaker,
    odds: r.odds,
    probability: r.probability,
    distribution: distributionOf(r.distribution),
    edgePercentage: r.edgePercentage,
    kellyFraction: r.kellyFraction,
    confidence: r.confidence,
    rationale: r.rationale.map(sentence),
  }));
}

/** A picks rebuild's store (shared/app/ai/picksPorts.ts): MongoDB, and a Redis lock per day. */
export function picksStore() {
  return {
    findUpcomingInsights: findUpcomingInsightsStartingBetween,
    findRecommendations: findPickRecommendations,
    findEvents: findEventsWithoutMarketsAndStatsByIds,
    findPicksOfDay: findPicksOfFeaturedDay,
    deleteUnstartedUnsettledPicks: deleteUnstartedUnsettledPicksByIds,
    upsertPickUnlessStarted,
    withDayLock: <T>(day: string, fn: () => Promise<T>): Promise<T> => waitForLock(redis(), key('lock', `picks-${day}`), fn),
  };
}
