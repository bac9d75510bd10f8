import { sportDefinition } from '../../sports/registry';
import type { MarketFair } from '../fairPrice';
import { buildNarrative } from '../narrative';
import type { MatchSimulation } from '../simulate';
import { MAX_CREDIBLE_EDGE } from '../staking';
import { round } from './format';
import { simulatedShare } from './simulation';
import type { AnalysisEvent, ItemAnalysis, RecommendationDraft } from './types';

export function recommendationId(eventId: string, betItemId: string, book: string, odds: number): string {
  return `rec-${eventId}-${betItemId}-${book}-${odds}`;
}

/** What the narrative of every recommendation of the event shares. */
export interface RecommendationContext {
  event: AnalysisEvent;
  fairs: Map<string, MarketFair>;
  minEdge: number;
  w: number;
  expected: { home: number; away: number };
  simulation: MatchSimulation;
  mainSysname: string | undefined;
  /** Games in the fit, when the fit rates both teams. */
  matchesUsed: number | undefined;
}

type Priced = ItemAnalysis & { edgePercentage: number; bestBook: string; bestOdds: number; confidence: NonNullable<ItemAnalysis['confidence']> };

function recommendable(it: ItemAnalysis, minEdge: number): it is Priced {
  if (it.edgePercentage === null || it.bestBook === null || it.bestOdds === null || it.confidence === null) return false;
  return it.edgePercentage >= minEdge && it.edgePercentage <= MAX_CREDIBLE_EDGE;
}

function recommendationOf(it: Priced, x: RecommendationContext): RecommendationDraft {
  const { event } = x;
  const fair = x.fairs.get(it.marketId);
  const isMain = it.sysname === x.mainSysname;
  const { narrativeScore } = sportDefinition(event.sportId);
  const narrative = (['en', 'es', 'pt'] as const).map((locale) =>
    buildNarrative({
      homeTeam: event.homeTeam.name[locale] ?? event.homeTeam.name.en,
      awayTeam: event.awayTeam.name[locale] ?? event.awayTeam.name.en,
      selection: it.selection,
      odds: it.bestOdds,
      modelProbability: it.probability,
      marketProbability: it.consensusProbability ?? it.marketProbability ?? it.probability,
      edgePercentage: it.edgePercentage,
      kellyFraction: it.kellyFraction,
      confidence: it.confidence,
      standardError: it.standardError,
      expectedScore: narrativeScore ? x.expected : undefined,
      modelWeight: x.w,
      devigMethod: fair?.method,
      marginPercent: fair ? 100 * fair.margin : undefined,
      matchesUsed: x.matchesUsed,
      bookmakers: fair?.books ?? it.books,
      simulatedProbability: isMain ? simulatedShare(x.simulation, it.code) : undefined,
      simulationIterations: isMain ? x.simulation.iterations : undefined,
    }),
  );
  const pick = (part: 'rationale' | 'riskFactors' | 'dataSupport') => narrative[0][part].map((_, i) => ({ en: narrative[0][part][i].en, es: narrative[1][part][i].es, pt: narrative[2][part][i].pt }));
  // The narrative's market sentence compares with the other books; say which book is sharp.
  const dataSupport = pick('dataSupport');
  if (fair) {
    dataSupport.push({
      en: `Fair price from ${fair.sharpBook}, the sharpest of ${fair.books} bookmakers; the bet is priced at ${it.bestBook}.`,
      es: `Precio justo de ${fair.sharpBook}, la más precisa de ${fair.books} casas; la apuesta se toma en ${it.bestBook}.`,
      pt: `Preço justo de ${fair.sharpBook}, a mais precisa de ${fair.books} casas; a aposta é feita em ${it.bestBook}.`,
    });
  }
  return {
    _id: recommendationId(event.id, it.betItemId, it.bestBook, it.bestOdds),
    eventId: event.id,
    marketId: it.marketId,
    betItemId: it.betItemId,
    betTypeSysname: it.sysname,
    code: it.code,
    line: it.line,
    sportId: event.sportId,
    outcome: it.selection.en,
    outcomeLocalized: it.selection,
    bookmaker: it.bestBook,
    odds: it.bestOdds,
    probability: it.probability,
    fairOdds: it.fairOdds,
    marketProbability: it.marketProbability,
    distribution: it.distribution,
    standardError: it.standardError,
    confidence: it.confidence,
    edgePercentage: round(it.edgePercentage, 4),
    kellyFraction: round(it.kellyFraction, 6),
    rationale: pick('rationale'),
    riskFactors: pick('riskFactors'),
    dataSupport,
    eventStartAt: event.startDateTime,
    competitionId: event.competitionId,
    regionId: event.regionId,
  };
}

/** The items whose best price beats the fair odds by the minimum edge (and not incredibly), best edge first. */
export function recommend(items: readonly ItemAnalysis[], x: RecommendationContext): RecommendationDraft[] {
  return items
    .filter((it) => recommendable(it, x.minEdge))
    .map((it) => recommendationOf(it, x))
    .sort((a, b) => b.edgePercentage - a.edgePercentage || a._id.localeCompare(b._id));
}
