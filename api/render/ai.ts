import { marketType } from '../../shared/markets/catalog';
import type { Locale, LocalizedText } from '../../shared/sports';
import { localizeDeep, text } from './localize';
import { outcomeCaption } from './markets';

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : typeof d === 'string' ? d : null);
const texts = (list: unknown, locale: Locale): string[] =>
  Array.isArray(list) ? list.map((t) => text(t, locale)).filter((t): t is string => t !== null) : [];

/** A stored recommendation (shared/models/recommendation.ts). */
export interface StoredRecommendation {
  _id: string;
  eventId: string;
  marketId: string;
  betItemId: string;
  betTypeSysname: string;
  code: string;
  line?: number | null;
  outcome: string;
  bookmaker: string;
  odds: number;
  confidence: string;
  edgePercentage: number;
  kellyFraction: number;
  rationale?: LocalizedText[];
  riskFactors?: LocalizedText[];
  dataSupport?: LocalizedText[];
  settled?: boolean | null;
  result?: string | null;
  resultDetail?: string | null;
  actualReturn?: number | null;
  settlementDate?: Date | null;
  createdAt?: Date;
}

/** SPEC.md Recommendation, outcome and sentences in the requested locale. */
export function renderRecommendation(r: StoredRecommendation, locale: Locale) {
  return {
    id: r._id,
    eventId: r.eventId,
    marketId: r.marketId,
    betItemId: r.betItemId,
    betTypeSysname: r.betTypeSysname,
    outcome: outcomeCaption(marketType(r.betTypeSysname), r.code, r.line, locale, r.outcome),
    bookmaker: r.bookmaker,
    odds: r.odds,
    confidence: r.confidence,
    edgePercentage: r.edgePercentage,
    kellyFraction: r.kellyFraction,
    rationale: texts(r.rationale, locale),
    riskFactors: texts(r.riskFactors, locale),
    dataSupport: texts(r.dataSupport, locale),
    settled: r.settled === true,
    result: r.result ?? null,
    resultDetail: r.resultDetail ?? null,
    actualReturn: r.actualReturn ?? null,
    settlementDate: iso(r.settlementDate),
    createdAt: iso(r.createdAt),
  };
}

/** A stored pick (shared/models/pick.ts). */
export interface StoredPick {
  _id: string;
  pickType: string;
  legs: { market: string; outcome: string; code: string; bookmaker: string; odds: number; point?: number | null; edgePercentage: number; confidence: string; result?: string | null }[];
  totalOdds: number;
  edgePercentage: number;
  confidence: string;
  kellyFraction: number;
  rationale?: LocalizedText[];
  event: unknown;
  featuredOrder: number;
  settled?: boolean | null;
  result?: string | null;
  analysisInsight?: unknown;
  matchSimulation?: unknown;
  eventNews?: unknown;
}

/** SPEC.md Pick: legs in the pick's recommendation form. */
export function renderPick(p: StoredPick, locale: Locale) {
  return {
    id: p._id,
    pickType: p.pickType,
    recommendations: p.legs.map((l) => ({
      market: l.market,
      outcome: outcomeCaption(marketType(l.market), l.code, l.point, locale, l.outcome),
      bookmaker: l.bookmaker,
      odds: l.odds,
      point: l.point ?? null,
      edgePercentage: l.edgePercentage,
      confidence: l.confidence,
      result: l.result ?? null,
    })),
    totalOdds: p.totalOdds,
    edgePercentage: p.edgePercentage,
    confidence: p.confidence,
    kellyFraction: p.kellyFraction,
    rationale: texts(p.rationale, locale),
    event: localizeDeep(p.event, locale),
    featuredOrder: p.featuredOrder,
    settled: p.settled === true,
    result: p.result ?? null,
    analysisInsight: localizeDeep(p.analysisInsight ?? null, locale),
    matchSimulation: localizeDeep(p.matchSimulation ?? null, locale),
    eventNews: localizeDeep(p.eventNews ?? null, locale),
  };
}
