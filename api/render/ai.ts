import { DateTime } from 'luxon';
import { efficiencyBand } from '../../shared/domain/ai/efficiency';
import { type RecommendationIdentity, type RecommendationPrice, recommendationPrice } from '../../shared/domain/ai/eventHeader';
import { marketType } from '../../shared/domain/markets/catalog';
import type { Locale, LocalizedText } from '../../shared/domain/sports';
import type { InsightDoc, PickDoc, PickEventDoc, PickLegDoc, RecommendationDoc } from '../../shared/platform/db/repositories/ai';
import { localizeDeep, text } from './localize';
import { outcomeCaption } from './markets';

/**
 * The one renderer of stored AI documents (recommendations, picks, insights) into the shapes of
 * the API contract (schemas in api/schemas/ai.ts), used by the event detail and by every /v2/ai endpoint, so a pick or a recommendation
 * reads the same wherever it is served. Names and sentences come in the requested locale;
 * instants are UTC ISO strings, except commenceTime, written in the request's time zone.
 */

const iso = (d: unknown): string | null => (d instanceof Date ? d.toISOString() : typeof d === 'string' ? d : null);
const texts = (list: unknown, locale: Locale): string[] => (Array.isArray(list) ? list.map((t) => text(t, locale)).filter((t): t is string => t !== null) : []);
const free = (doc: unknown, locale: Locale) => localizeDeep(doc ?? null, locale);

/** An instant written in a zone, ISO 8601 with its offset (UTC: the same string as toISOString). */
export function inZone(d: Date | string, zone: string): string {
  const date = typeof d === 'string' ? new Date(d) : d;
  return DateTime.fromJSDate(date, { zone }).toISO() ?? date.toISOString();
}

/**
 * The selection as bettors read it: the AI worker's own wording when stored ("Arsenal",
 * "Más de 2,5"), else the market catalog's caption, else the stored English text.
 */
function outcomeText(o: { outcome: string; outcomeLocalized?: LocalizedText | null }, sysname: string, code: string, line: number | null | undefined, locale: Locale): string {
  const own = o.outcomeLocalized ? text(o.outcomeLocalized, locale) : null;
  return own ?? outcomeCaption(marketType(sysname), code, line, locale, o.outcome);
}

/** The fields of a stored recommendation (RecommendationDoc) its contract form shows; the optional ones may be absent. */
export type RecommendationFields = RecommendationIdentity &
  RecommendationPrice &
  Pick<RecommendationDoc, 'outcome' | 'eventStartAt'> &
  Partial<
    Pick<
      RecommendationDoc,
      'line' | 'outcomeLocalized' | 'rationale' | 'riskFactors' | 'dataSupport' | 'settled' | 'result' | 'resultDetail' | 'actualReturn' | 'settlementDate' | 'closingOdds' | 'clv' | 'createdAt'
    >
  >;

/** The contract's Recommendation, outcome and sentences in the requested locale. */
export function renderRecommendation(r: RecommendationFields, locale: Locale) {
  return {
    id: String(r._id),
    eventId: r.eventId,
    marketId: r.marketId,
    betItemId: r.betItemId,
    betTypeSysname: r.betTypeSysname,
    line: r.line ?? null,
    outcome: outcomeText(r, r.betTypeSysname, r.code, r.line, locale),
    ...recommendationPrice(r),
    rationale: texts(r.rationale, locale),
    riskFactors: texts(r.riskFactors, locale),
    dataSupport: texts(r.dataSupport, locale),
    settled: r.settled === true,
    result: r.result ?? null,
    resultDetail: r.resultDetail ?? null,
    actualReturn: r.actualReturn ?? null,
    settlementDate: iso(r.settlementDate),
    closingOdds: r.closingOdds ?? null,
    clv: r.clv ?? null,
    eventStartAt: iso(r.eventStartAt),
    createdAt: iso(r.createdAt),
  };
}

/** The fields of a stored pick's leg (PickLegDoc) its contract form shows. */
type LegFields = Pick<PickLegDoc, 'recommendationId' | 'eventId' | 'betItemId' | 'market' | 'outcome' | 'code' | 'bookmaker' | 'odds' | 'edgePercentage' | 'confidence'> &
  Partial<Pick<PickLegDoc, 'outcomeLocalized' | 'point' | 'result'>>;

/** The fields of a stored pick's main event (PickEventDoc) its contract form shows. */
type PickEventFields = Pick<PickEventDoc, 'id' | 'homeTeam' | 'awayTeam' | 'startDateTime' | 'competition' | 'competitionId' | 'status' | 'league'>;

/** The fields of a stored pick (PickDoc) its contract form shows; the optional ones may be absent. */
export type PickFields = Pick<PickDoc, '_id' | 'pickType' | 'totalOdds' | 'edgePercentage' | 'confidence' | 'kellyFraction' | 'featuredOrder' | 'featuredDate' | 'startsAt'> &
  Partial<Pick<PickDoc, 'rationale' | 'settled' | 'result' | 'analysisInsight' | 'matchSimulation' | 'eventNews'>> & { legs: readonly LegFields[]; event: PickEventFields };

function renderLeg(l: LegFields, locale: Locale) {
  return {
    recommendationId: l.recommendationId,
    eventId: l.eventId,
    betItemId: l.betItemId,
    market: l.market,
    outcome: outcomeText(l, l.market, l.code, l.point, locale),
    bookmaker: l.bookmaker,
    odds: l.odds,
    point: l.point ?? null,
    edgePercentage: l.edgePercentage,
    confidence: l.confidence,
    result: l.result ?? null,
  };
}

function renderPickEvent(e: PickEventFields, locale: Locale, zone: string) {
  return {
    id: String(e.id),
    homeTeam: { id: e.homeTeam?.id, name: text(e.homeTeam?.name, locale) ?? '' },
    awayTeam: { id: e.awayTeam?.id, name: text(e.awayTeam?.name, locale) ?? '' },
    commenceTime: inZone(e.startDateTime, zone),
    startDateTime: iso(e.startDateTime),
    competition: { caption: text(e.competition?.caption, locale) ?? '' },
    competitionId: e.competitionId,
    status: e.status,
    league: text(e.league, locale) ?? '',
  };
}

/** The contract's Pick: legs in the pick's recommendation form, the main event with commenceTime in `zone`. */
export function renderPick(p: PickFields, locale: Locale, zone: string) {
  return {
    id: String(p._id),
    pickType: p.pickType,
    recommendations: (p.legs ?? []).map((l) => renderLeg(l, locale)),
    totalOdds: p.totalOdds,
    edgePercentage: p.edgePercentage,
    confidence: p.confidence,
    kellyFraction: p.kellyFraction,
    rationale: texts(p.rationale, locale),
    event: renderPickEvent(p.event, locale, zone),
    featuredOrder: p.featuredOrder,
    featuredDate: p.featuredDate,
    startsAt: iso(p.startsAt),
    settled: p.settled === true,
    result: p.result ?? null,
    analysisInsight: free(p.analysisInsight, locale),
    matchSimulation: free(p.matchSimulation, locale),
    eventNews: free(p.eventNews, locale),
  };
}

/** The fields of a stored insight (InsightDoc) its contract form shows. */
export type InsightFields = Pick<
  InsightDoc,
  'eventId' | 'startDateTime' | 'marketEfficiencyScore' | 'valueOpportunities' | 'riskFactors' | 'aiNotes' | 'event' | 'analysisTimestamp' | 'analysisInsight' | 'matchSimulation'
>;

/** The contract's processed insight; `status` is the event's current one (the stored one may lag). */
export function renderInsight(i: InsightFields, locale: Locale, zone: string, status: string) {
  const ev = i.event;
  return {
    eventId: i.eventId,
    status,
    marketEfficiencyScore: i.marketEfficiencyScore,
    efficiencyBand: i.analysisInsight?.efficiency ? efficiencyBand(i.marketEfficiencyScore) : null,
    valueOpportunities: {
      recommendations: (i.valueOpportunities?.recommendations ?? []).map((v) => ({
        recommendationId: v.recommendationId,
        edge: v.edge,
        market: v.market,
        outcome: text(v.outcome, locale) ?? '',
        bookmaker: v.bookmaker,
        odds: v.odds,
        confidence: v.confidence,
      })),
    },
    riskFactors: texts(i.riskFactors, locale),
    aiNotes: text(i.aiNotes, locale) ?? '',
    event: {
      homeTeam: text(ev?.homeTeam, locale) ?? '',
      awayTeam: text(ev?.awayTeam, locale) ?? '',
      commenceTime: inZone(ev?.commenceTime ?? i.startDateTime, zone),
      league: text(ev?.league, locale) ?? '',
    },
    analysisTimestamp: iso(i.analysisTimestamp),
    analysisInsight: free(i.analysisInsight, locale),
    matchSimulation: free(i.matchSimulation, locale),
  };
}
