import { DateTime } from 'luxon';
import { efficiencyBand } from '../../shared/ai/efficiency';
import type { Locale } from '../../shared/sports';

/**
 * Stored AI documents to the shapes SPEC.md serves, in the requested locale. Stored texts are
 * {en, es, pt} objects; the client gets one string.
 */
type Texts = { en?: string | null; es?: string | null; pt?: string | null };

const isText = (v: unknown): v is Texts =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Texts).en === 'string' && Object.keys(v as object).every((k) => k === 'en' || k === 'es' || k === 'pt');

export function text(v: unknown, locale: Locale): string {
  if (typeof v === 'string') return v;
  if (isText(v)) return v[locale] ?? v.en ?? '';
  return '';
}

const texts = (v: unknown, locale: Locale): string[] => (Array.isArray(v) ? v.map((t) => text(t, locale)) : []);

/** Every {en, es, pt} object inside a free-form document becomes the locale's string. */
export function localizeDeep(v: unknown, locale: Locale): unknown {
  if (isText(v)) return text(v, locale);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map((x) => localizeDeep(x, locale));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, localizeDeep(x, locale)]));
  return v;
}

const iso = (d: unknown): string | null => (d instanceof Date ? d.toISOString() : typeof d === 'string' ? d : null);

/** An instant written in a zone, ISO 8601 with its offset. */
export function inZone(d: Date | string, zone: string): string {
  const date = typeof d === 'string' ? new Date(d) : d;
  return DateTime.fromJSDate(date, { zone }).toISO() ?? date.toISOString();
}

export function renderRecommendation(r: any, locale: Locale) {
  return {
    id: String(r._id),
    eventId: r.eventId,
    marketId: r.marketId,
    betItemId: r.betItemId,
    betTypeSysname: r.betTypeSysname,
    line: r.line ?? null,
    outcome: r.outcomeLocalized ? text(r.outcomeLocalized, locale) : r.outcome,
    bookmaker: r.bookmaker,
    odds: r.odds,
    probability: r.probability,
    fairOdds: r.fairOdds,
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
    eventStartAt: iso(r.eventStartAt)!,
    createdAt: iso(r.createdAt)!,
  };
}

export function renderPick(p: any, locale: Locale, zone: string) {
  const e = p.event ?? {};
  return {
    id: String(p._id),
    pickType: p.pickType,
    recommendations: (p.legs ?? []).map((l: any) => ({
      recommendationId: l.recommendationId,
      eventId: l.eventId,
      betItemId: l.betItemId,
      market: l.market,
      outcome: l.outcomeLocalized ? text(l.outcomeLocalized, locale) : l.outcome,
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
    event: {
      id: String(e.id),
      homeTeam: { id: e.homeTeam?.id, name: text(e.homeTeam?.name, locale) },
      awayTeam: { id: e.awayTeam?.id, name: text(e.awayTeam?.name, locale) },
      commenceTime: inZone(e.startDateTime, zone),
      startDateTime: iso(e.startDateTime)!,
      competition: { caption: text(e.competition?.caption, locale) },
      competitionId: e.competitionId,
      status: e.status,
      league: text(e.league, locale),
    },
    featuredOrder: p.featuredOrder,
    featuredDate: p.featuredDate,
    startsAt: iso(p.startsAt)!,
    settled: p.settled === true,
    result: p.result ?? null,
    analysisInsight: (localizeDeep(p.analysisInsight ?? null, locale) as object | null) ?? null,
    matchSimulation: p.matchSimulation ?? null,
    eventNews: (localizeDeep(p.eventNews ?? null, locale) as object | null) ?? null,
  };
}

export function renderInsight(i: any, locale: Locale, zone: string, status: string) {
  const ev = i.event ?? {};
  return {
    eventId: i.eventId,
    status,
    marketEfficiencyScore: i.marketEfficiencyScore,
    efficiencyBand: (i.analysisInsight as { efficiency?: unknown } | null)?.efficiency ? efficiencyBand(i.marketEfficiencyScore) : null,
    valueOpportunities: {
      recommendations: (i.valueOpportunities?.recommendations ?? []).map((v: any) => ({
        recommendationId: v.recommendationId,
        edge: v.edge,
        market: v.market,
        outcome: text(v.outcome, locale),
        bookmaker: v.bookmaker,
        odds: v.odds,
        confidence: v.confidence,
      })),
    },
    riskFactors: texts(i.riskFactors, locale),
    aiNotes: text(i.aiNotes, locale),
    event: { homeTeam: text(ev.homeTeam, locale), awayTeam: text(ev.awayTeam, locale), commenceTime: inZone(ev.commenceTime ?? i.startDateTime, zone), league: text(ev.league, locale) },
    analysisTimestamp: iso(i.analysisTimestamp)!,
    analysisInsight: (localizeDeep(i.analysisInsight ?? null, locale) as object | null) ?? null,
    matchSimulation: i.matchSimulation ?? null,
  };
}
