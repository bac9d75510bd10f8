import { deleteUnstartedUnsettledPicksByIds, findInsightPickBodiesByIds, findPicksOfFeaturedDay, upsertPickUnlessStarted, type RecommendationDoc } from '../db/repositories/ai';
import { currentOpportunityRecommendations } from '../opportunities/store';
import { currentListing } from '../listing/store';
import { listingIndex } from '../../domain/listing/rows';
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

/** A stored recommendation as a picks rebuild reads it. */
function toPickRecommendation(r: RecommendationDoc): PickRecommendation {
  return {
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
  };
}

/**
 * The value opportunities' read model (each event's latest analysis, its recommendations kept in
 * memory) and the listing's (when each event starts): the rebuild lists no insight, recommendation
 * or event of the store, which on FerretDB meant scanning each collection for every rebuild.
 */
async function findOpenRecommendations(at: Date, from: Date, until: Date): Promise<{ rec: PickRecommendation; startAt: Date }[]> {
  const [recs, listing] = await Promise.all([currentOpportunityRecommendations(at), currentListing()]);
  const index = listingIndex(listing);
  const out: { rec: PickRecommendation; startAt: Date }[] = [];
  for (const r of recs) {
    const t = index.get(r.eventId)?.t;
    if (t !== undefined && t > from.getTime() && t < until.getTime()) out.push({ rec: toPickRecommendation(r), startAt: new Date(t) });
  }
  return out;
}

/** A picks rebuild's store (shared/app/ai/picksPorts.ts): MongoDB, the read models in Redis, and a Redis lock per day. */
export function picksStore() {
  return {
    findOpenRecommendations,
    findEvents: findEventsWithoutMarketsAndStatsByIds,
    findInsightBodies: findInsightPickBodiesByIds,
    findPicksOfDay: findPicksOfFeaturedDay,
    deleteUnstartedUnsettledPicks: deleteUnstartedUnsettledPicksByIds,
    upsertPickUnlessStarted,
    withDayLock: <T>(day: string, fn: () => Promise<T>): Promise<T> => waitForLock(redis(), key('lock', `picks-${day}`), fn),
  };
}
