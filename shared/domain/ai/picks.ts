import { createHash } from 'node:crypto';
import type { EventHeader } from './eventHeader';
import type { Sentence } from './narrative';
import type { OutcomeDistribution } from './pricing';
import { parlay, type Confidence } from './staking';
import { utcDay } from '../days';

/**
 * Featured picks of one day, pure: singles (each event's best recommendation) and parlays of
 * legs from DIFFERENT events. A pick's id is derived from its legs, so rebuilding the same day
 * from the same recommendations writes the same documents.
 */
export interface PickRecommendation {
  _id: string;
  eventId: string;
  betItemId: string;
  betTypeSysname: string;
  code: string;
  line: number | null;
  outcome: string;
  outcomeLocalized?: Sentence | null;
  bookmaker: string;
  odds: number;
  probability: number;
  distribution?: OutcomeDistribution | null;
  edgePercentage: number;
  kellyFraction: number;
  confidence: Confidence;
  rationale?: Sentence[];
}

export interface PickEvent extends EventHeader {
  status: string;
}

export interface PickCandidate {
  rec: PickRecommendation;
  event: PickEvent;
  analysisInsight?: unknown;
  matchSimulation?: unknown;
}

export interface PickDraft {
  _id: string;
  pickType: 'single' | 'parlay';
  legs: {
    recommendationId: string;
    eventId: string;
    betItemId: string;
    market: string;
    outcome: string;
    outcomeLocalized: Sentence | null;
    code: string;
    bookmaker: string;
    odds: number;
    point: number | null;
    edgePercentage: number;
    confidence: Confidence;
  }[];
  eventIds: string[];
  totalOdds: number;
  probability: number;
  edgePercentage: number;
  confidence: Confidence;
  kellyFraction: number;
  rationale: Sentence[];
  event: Record<string, unknown>;
  featuredOrder: number;
  featuredDate: string;
  startsAt: Date;
  competitionIds: number[];
  regionIds: number[];
  analysisInsight: unknown;
  matchSimulation: unknown;
  eventNews: null;
}

export const PICKS_POLICY = {
  /** Singles per day: the best recommendation of each of the top events. */
  singles: 3,
  /** Parlay sizes built from the top Medium-or-better legs (one per event). */
  parlaySizes: [2, 3] as const,
} as const;

const RANK: Record<Confidence, number> = { High: 0, Medium: 1, Low: 2 };

/** Best first: confidence, then edge, then Kelly stake, then id (a total order). */
export function compareRecommendations(a: PickRecommendation, b: PickRecommendation): number {
  return RANK[a.confidence] - RANK[b.confidence] || b.edgePercentage - a.edgePercentage || b.kellyFraction - a.kellyFraction || a._id.localeCompare(b._id);
}

export function pickId(recommendationIds: readonly string[]): string {
  return `pick-${createHash('sha1')
    .update([...recommendationIds].sort().join('|'))
    .digest('hex')
    .slice(0, 24)}`;
}

function eventView(e: PickEvent): Record<string, unknown> {
  return {
    id: e.id,
    homeTeam: { id: e.homeTeam.id, name: e.homeTeam.name },
    awayTeam: { id: e.awayTeam.id, name: e.awayTeam.name },
    commenceTime: e.startDateTime.toISOString(),
    startDateTime: e.startDateTime.toISOString(),
    competition: { caption: e.competition.name },
    competitionId: e.competitionId,
    status: e.status,
    league: e.competition.name,
  };
}

const worst = (cs: Confidence[]): Confidence => cs.reduce<Confidence>((w, c) => (RANK[c] > RANK[w] ? c : w), 'High');
const two = (x: number) => ({ en: x.toFixed(2), es: x.toFixed(2).replace('.', ','), pt: x.toFixed(2).replace('.', ',') });
const one = (x: number) => ({ en: x.toFixed(1), es: x.toFixed(1).replace('.', ','), pt: x.toFixed(1).replace('.', ',') });

function draft(legs: PickCandidate[], order: number): PickDraft {
  const sorted = [...legs].sort((a, b) => a.event.startDateTime.getTime() - b.event.startDateTime.getTime() || a.event.id.localeCompare(b.event.id));
  const main = sorted[0];
  const single = legs.length === 1;
  const pricing = single
    ? { totalOdds: main.rec.odds, probability: main.rec.probability, edgePercentage: main.rec.edgePercentage, kellyFraction: main.rec.kellyFraction }
    : parlay(sorted.map((l) => ({ odds: l.rec.odds, probability: l.rec.distribution ?? l.rec.probability })));
  const confidence = worst(sorted.map((l) => l.rec.confidence));
  const rationale: Sentence[] = single
    ? (main.rec.rationale ?? [])
    : [
        {
          en: `${legs.length} legs from different events: total odds ${two(pricing.totalOdds).en}, all legs win with probability ${one(100 * pricing.probability).en}%.`,
          es: `${legs.length} selecciones de eventos distintos: cuota total ${two(pricing.totalOdds).es}, todas aciertan con probabilidad ${one(100 * pricing.probability).es}%.`,
          pt: `${legs.length} seleções de eventos diferentes: odd total ${two(pricing.totalOdds).pt}, todas acertam com probabilidade ${one(100 * pricing.probability).pt}%.`,
        },
        {
          en: `Expected return ${one(pricing.edgePercentage).en}% per unit staked; quarter Kelly stakes ${two(100 * pricing.kellyFraction).en}% of the bankroll. Legs are independent; each is a recommendation with its own edge.`,
          es: `Rendimiento esperado del ${one(pricing.edgePercentage).es}% por unidad apostada; un cuarto de Kelly apuesta el ${two(100 * pricing.kellyFraction).es}% del bankroll. Las selecciones son independientes; cada una es una recomendación con su propia ventaja.`,
          pt: `Retorno esperado de ${one(pricing.edgePercentage).pt}% por unidade apostada; um quarto de Kelly aposta ${two(100 * pricing.kellyFraction).pt}% da banca. As seleções são independentes; cada uma é uma recomendação com sua própria vantagem.`,
        },
      ];
  return {
    _id: pickId(sorted.map((l) => l.rec._id)),
    pickType: single ? 'single' : 'parlay',
    legs: sorted.map((l) => ({
      recommendationId: l.rec._id,
      eventId: l.rec.eventId,
      betItemId: l.rec.betItemId,
      market: l.rec.betTypeSysname,
      outcome: l.rec.outcome,
      outcomeLocalized: l.rec.outcomeLocalized ?? null,
      code: l.rec.code,
      bookmaker: l.rec.bookmaker,
      odds: l.rec.odds,
      point: l.rec.line,
      edgePercentage: l.rec.edgePercentage,
      confidence: l.rec.confidence,
    })),
    eventIds: sorted.map((l) => l.event.id),
    totalOdds: Math.round(pricing.totalOdds * 1e6) / 1e6,
    probability: pricing.probability,
    edgePercentage: Math.round(pricing.edgePercentage * 1e4) / 1e4,
    confidence,
    kellyFraction: Math.round(pricing.kellyFraction * 1e6) / 1e6,
    rationale,
    event: eventView(main.event),
    featuredOrder: order,
    featuredDate: utcDay(main.event.startDateTime),
    startsAt: main.event.startDateTime,
    competitionIds: [...new Set(sorted.map((l) => l.event.competitionId))],
    regionIds: [...new Set(sorted.map((l) => l.event.regionId))],
    analysisInsight: main.analysisInsight ?? null,
    matchSimulation: main.matchSimulation ?? null,
    eventNews: null,
  };
}

/**
 * Each event's best candidate, best first: the ranking a day's picks are drawn from. `eventOf`
 * names a candidate's event.
 */
export function bestPerEventRanked<C extends { rec: PickRecommendation }>(candidates: readonly C[], eventOf: (c: C) => string): C[] {
  const best = new Map<string, C>();
  for (const c of candidates) {
    const cur = best.get(eventOf(c));
    if (!cur || compareRecommendations(c.rec, cur.rec) < 0) best.set(eventOf(c), c);
  }
  return [...best.values()].sort((a, b) => compareRecommendations(a.rec, b.rec));
}

/**
 * How many of the best-ranked events a day's picks draw from: the singles are the first
 * `singles`, and a parlay's legs the first Medium-or-better ones, which rank ahead of every Low.
 * A rebuild needs to read no further than these (test/unit/ai/picks-ranking.test.ts).
 */
export function eventsDrawnFrom(policy = PICKS_POLICY): number {
  return Math.max(policy.singles, ...policy.parlaySizes);
}

/**
 * The day's picks from its candidate recommendations (several per event allowed): singles of
 * the best events first, then parlays of the best Medium-or-better legs. Orders start at
 * `firstOrder` (after picks already frozen by kickoff).
 */
export function buildPicks(candidates: readonly PickCandidate[], firstOrder = 1, policy = PICKS_POLICY): PickDraft[] {
  const ranked = bestPerEventRanked(candidates, (c) => c.event.id);
  const out: PickDraft[] = [];
  let order = firstOrder;
  for (const c of ranked.slice(0, policy.singles)) out.push(draft([c], order++));
  const strong = ranked.filter((c) => c.rec.confidence !== 'Low');
  for (const size of policy.parlaySizes) if (strong.length >= size) out.push(draft(strong.slice(0, size), order++));
  return out;
}
