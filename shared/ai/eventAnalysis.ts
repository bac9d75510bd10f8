import { marketType, type MarketType } from '../markets/catalog';
import type { LocalizedText } from '../sports';
import { marketEfficiency, type EfficiencyBreakdown } from './efficiency';
import { bestPrice, marketFair, overround, rankBooks, type BookQuote, type MarketFair } from './fairPrice';
import { mixGrids, priceFromSummary, summarizeGrid, type GridSummary } from './gridPricing';
import { buildNarrative, type Sentence } from './narrative';
import { effectiveProbability, firstHalfGrid, priceOutcome, type OutcomeDistribution } from './pricing';
import { expectedScore, type ScoreGrid } from './scoreGrid';
import { selectionText } from './selection';
import { simulateMatch, type MatchSimulation } from './simulate';
import { asCountModel, modelView, type ModelView, type SportFitParams } from './sportFit';
import { invertMarket, sportParamModel, type GridOptions, type PriceTarget } from './sportParams';
import { confidenceLevel, edgePercentage, kellyFraction, marginOfSafety, MAX_CREDIBLE_EDGE, PRICE_MOVE_SCALE, probabilityStandardError, type Confidence } from './staking';

/**
 * One event's analysis, pure: fair probabilities for every bet item (the sharpest bookmaker's
 * de-vigged price, blended with the fitted model by its fitted weight), the best price across
 * bookmakers, edge, Kelly and confidence, recommendations above the minimum edge with their
 * narrative in every locale, and the processed insight with its match simulation.
 *
 * How a bet item's fair probability is made (docs/ai.md):
 *   market view  = the sharpest book's de-vigged price where some book quotes the whole market,
 *                  else the price from the score grid inverted from the de-vigged main markets;
 *   model view   = the price from the fitted team ratings' score grid;
 *   fair         = (1 - w) x market view + w x model view, w fitted per sport on completed events
 *                  (0 until enough exist: the market alone).
 */
export interface AnalysisBetItem {
  id: string;
  code: string;
  price: number;
  isAvailable?: boolean | null;
  /** dataSource -> decimal odds. */
  bookPrices?: Record<string, number> | null;
}

export interface AnalysisMarket {
  id: string;
  betTypeSysname: string;
  line?: number | null;
  betItems: AnalysisBetItem[];
}

export interface AnalysisEvent {
  id: string;
  sportId: number;
  dataSource: string;
  homeTeam: { id: number; name: LocalizedText };
  awayTeam: { id: number; name: LocalizedText };
  competition: { id: number; name: LocalizedText };
  competitionId: number;
  regionId: number;
  startDateTime: Date;
  markets: AnalysisMarket[];
}

export interface AnalysisFit {
  params: SportFitParams;
  blendWeight: number;
  gamesUsed: number;
  fittedAt: Date;
}

export interface AnalysisOptions {
  minEdge: number;
  now: Date;
  /** Books sharpest first, from the refit's margin history; absent or empty: rank within this event. */
  bookRanking?: readonly string[];
  simulationIterations?: number;
  priceMoveScale?: number;
}

export interface ItemAnalysis {
  marketId: string;
  betItemId: string;
  sysname: string;
  code: string;
  line: number | null;
  selection: Sentence;
  probability: number;
  fairOdds: number;
  distribution: OutcomeDistribution;
  /** The market view (sharp de-vigged where quoted) and the model view, before blending. */
  marketProbability: number | null;
  modelProbability: number | null;
  /** The other books' consensus on this outcome, when there are other books. */
  consensusProbability: number | null;
  quoted: boolean;
  bestBook: string | null;
  bestOdds: number | null;
  books: number;
  edgePercentage: number | null;
  kellyFraction: number;
  standardError: number;
  marginOfSafety: number | null;
  confidence: Confidence | null;
}

export interface RecommendationDraft {
  _id: string;
  eventId: string;
  marketId: string;
  betItemId: string;
  betTypeSysname: string;
  code: string;
  line: number | null;
  sportId: number;
  outcome: string;
  outcomeLocalized: Sentence;
  bookmaker: string;
  odds: number;
  probability: number;
  fairOdds: number;
  marketProbability: number | null;
  distribution: OutcomeDistribution;
  standardError: number;
  confidence: Confidence;
  edgePercentage: number;
  kellyFraction: number;
  rationale: Sentence[];
  riskFactors: Sentence[];
  dataSupport: Sentence[];
  eventStartAt: Date;
  competitionId: number;
  regionId: number;
}

export interface InsightDraft {
  marketEfficiencyScore: number;
  valueOpportunities: { recommendations: { recommendationId: string; betItemId: string; edge: number; market: string; outcome: Sentence; bookmaker: string; odds: number; confidence: Confidence }[] };
  riskFactors: Sentence[];
  aiNotes: Sentence;
  event: { homeTeam: LocalizedText; awayTeam: LocalizedText; commenceTime: string; league: LocalizedText };
  analysisInsight: Record<string, unknown>;
  matchSimulation: MatchSimulation;
}

export interface EventAnalysis {
  items: ItemAnalysis[];
  recommendations: RecommendationDraft[];
  insight: InsightDraft;
  blendWeight: number;
}

/** Main market of each sport: its de-vigged price drives efficiency and the blend-weight fit. */
export const MAIN_MARKET: Record<number, string> = {
  1: 'SOCCER_MATCH_RESULT',
  2: 'BASKETBALL_MONEYLINE',
  3: 'TENNIS_MATCH_WINNER',
  4: 'BASEBALL_MONEYLINE',
  5: 'VOLLEYBALL_MATCH_WINNER',
  6: 'AMERICAN_FOOTBALL_MONEYLINE',
  7: 'ICE_HOCKEY_MONEYLINE',
  8: 'HANDBALL_MATCH_RESULT',
};

export const SIMULATION_ITERATIONS = 10_000;

/** FNV-1a: the simulation seed of an event, so its stored simulation reproduces. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function recommendationId(eventId: string, betItemId: string, book: string, odds: number): string {
  return `rec-${eventId}-${betItemId}-${book}-${odds}`;
}

/** The item's price per bookmaker: bookPrices, with the event's default provider's price. */
export function itemPrices(item: AnalysisBetItem, defaultSource: string): { book: string; odds: number }[] {
  const map: Record<string, number> = { ...(item.bookPrices ?? {}) };
  if (map[defaultSource] === undefined && Number.isFinite(item.price)) map[defaultSource] = item.price;
  return Object.keys(map)
    .sort()
    .map((book) => ({ book, odds: Number(map[book]) }))
    .filter((q) => Number.isFinite(q.odds) && q.odds > 1);
}

/** Every book quoting every outcome of the market (in the catalog's outcome order). */
export function fullQuotes(type: MarketType, market: AnalysisMarket, defaultSource: string): BookQuote[] {
  const byCode = new Map(market.betItems.filter((i) => i.isAvailable !== false).map((i) => [i.code, new Map(itemPrices(i, defaultSource).map((q) => [q.book, q.odds]))]));
  const codes = type.outcomes.map((o) => o.code);
  if (!codes.every((c) => byCode.has(c))) return [];
  const books = [...byCode.get(codes[0])!.keys()].filter((b) => codes.every((c) => byCode.get(c)!.has(b)));
  return books.map((book) => ({ book, odds: codes.map((c) => byCode.get(c)!.get(book)!) }));
}

/**
 * The distribution with effective probability p that keeps d's push mass and its split of
 * winning mass between whole and half wins (and of losing mass likewise).
 */
export function withProbability(d: OutcomeDistribution, p: number): OutcomeDistribution {
  const winMass = d.win + d.halfWin;
  const lossMass = d.loss + d.halfLoss;
  const total = winMass + lossMass;
  if (!(winMass > 0) || !(lossMass > 0)) return { win: p * total, halfWin: 0, push: 1 - total, halfLoss: 0, loss: (1 - p) * total };
  // Effective stake per unit of winning (losing) mass: whole results count 1, half results 1/2.
  const cu = (d.win + d.halfWin / 2) / winMass;
  const cd = (d.loss + d.halfLoss / 2) / lossMass;
  const u = (p * cd * total) / (cu * (1 - p) + p * cd);
  const su = u / winMass;
  const sd = (total - u) / lossMass;
  return { win: d.win * su, halfWin: d.halfWin * su, push: d.push, halfLoss: d.halfLoss * sd, loss: d.loss * sd };
}

function mixDistributions(a: OutcomeDistribution, b: OutcomeDistribution | null, w: number): OutcomeDistribution {
  if (!b || w <= 0) return a;
  const k = ['win', 'halfWin', 'push', 'halfLoss', 'loss'] as const;
  return Object.fromEntries(k.map((s) => [s, (1 - w) * a[s] + w * b[s]])) as unknown as OutcomeDistribution;
}

const pct = (x: number, d = 1) => (100 * x).toFixed(d);
const local = (x: string) => ({ en: x, es: x.replace('.', ','), pt: x.replace('.', ',') });

/** The grids one view (market or model) gives: full time, first half (soccer), counts. */
interface View {
  x: number[];
  full: ScoreGrid;
  summary: GridSummary;
  firstHalf?: ScoreGrid;
}

function viewOf(sportId: number, x: number[], options: GridOptions): View {
  const model = sportParamModel(sportId);
  const full = model.grid(x, options);
  return {
    x,
    full,
    summary: summarizeGrid(full),
    firstHalf: sportId === 1 ? firstHalfGrid(Math.exp(x[0]), Math.exp(x[1]), options.rho ?? -0.05) : undefined,
  };
}

function distributionIn(
  view: View,
  type: MarketType,
  code: string,
  line: number | null,
  counts: { corners?: ReturnType<typeof asCountModel>; cards?: ReturnType<typeof asCountModel> },
): OutcomeDistribution | null {
  if (type.stat === 'score' && type.period === 'FT') return priceFromSummary(view.summary, type.sysname, code, line).distribution;
  if (type.stat === 'score') return view.firstHalf ? priceOutcome({ sportId: type.sportId, fullTime: view.full, firstHalf: view.firstHalf }, type.sysname, code, line).distribution : null;
  const model = type.stat === 'corners' ? counts.corners : counts.cards;
  if (!model) return null;
  return priceOutcome({ sportId: type.sportId, fullTime: view.full, corners: model, cards: model }, type.sysname, code, line).distribution;
}

export function analyzeEvent(event: AnalysisEvent, fit: AnalysisFit | null, options: AnalysisOptions): EventAnalysis | null {
  const sportModel = sportParamModel(event.sportId);
  const moveScale = options.priceMoveScale ?? PRICE_MOVE_SCALE;
  const markets = event.markets
    .map((m) => ({ market: m, type: marketType(m.betTypeSysname) }))
    .filter((x): x is { market: AnalysisMarket; type: MarketType } => !!x.type && x.type.sportId === event.sportId);

  // Sharpness: the refit's ranking over many events, else the books' median margin in this one.
  const quotesByMarket = new Map(markets.map(({ market, type }) => [market.id, fullQuotes(type, market, event.dataSource)]));
  let ranking: readonly string[] = options.bookRanking ?? [];
  if (ranking.length === 0) {
    const margins = new Map<string, number[]>();
    for (const { market, type } of markets) {
      if (type.kind === 'doubleChance') continue;
      for (const q of quotesByMarket.get(market.id) ?? []) margins.set(q.book, [...(margins.get(q.book) ?? []), overround(q.odds)]);
    }
    ranking = rankBooks(margins);
  }
  const fairs = new Map<string, MarketFair>();
  for (const { market, type } of markets) {
    // Double chance outcomes overlap (their probabilities sum to two): no de-vig applies; the
    // grid prices them from the exclusive markets.
    if (type.kind === 'doubleChance') continue;
    const f = marketFair(quotesByMarket.get(market.id) ?? [], ranking);
    if (f) fairs.set(market.id, f);
  }

  // The market's parameters: the grid reproducing every de-vigged full-time score market.
  const targets: PriceTarget[] = [];
  for (const { market, type } of markets) {
    const f = fairs.get(market.id);
    if (!f || type.stat !== 'score' || type.period !== 'FT') continue;
    type.outcomes.slice(0, -1).forEach((o, k) => targets.push({ sysname: type.sysname, code: o.code, line: market.line ?? null, probability: f.probabilities[k] }));
  }
  const home = String(event.homeTeam.id);
  const away = String(event.awayTeam.id);
  const view: ModelView | null = fit ? modelView(fit.params, home, away) : null;
  const gridOptions: GridOptions = view?.options ?? {};
  const inversion = invertMarket(sportModel, targets, gridOptions, view?.x);
  if (!inversion && !view) return null;
  const w = !inversion ? 1 : view ? Math.min(1, Math.max(0, fit!.blendWeight)) : 0;
  const marketView = inversion ? viewOf(event.sportId, inversion.x, gridOptions) : null;
  const modelViewGrids = view ? viewOf(event.sportId, view.x, gridOptions) : null;
  // One standard error step of each model parameter, for the fit's share of the uncertainty.
  const perturbed =
    view && w > 0
      ? view.x.map((_, j) =>
          viewOf(
            event.sportId,
            view.x.map((v, i) => (i === j ? v + view.se[j] : v)),
            gridOptions,
          ),
        )
      : [];
  const counts = fit?.params.family === 'goals' ? { corners: asCountModel(fit.params.corners), cards: asCountModel(fit.params.cards) } : {};

  const items: ItemAnalysis[] = [];
  for (const { market, type } of markets) {
    const fair = fairs.get(market.id);
    const line = market.line ?? null;
    for (const item of market.betItems) {
      const k = type.outcomes.findIndex((o) => o.code === item.code);
      if (k < 0) continue;
      const dMarket = marketView ? distributionIn(marketView, type, item.code, line, counts) : null;
      const dModel = modelViewGrids ? distributionIn(modelViewGrids, type, item.code, line, counts) : null;
      const quotedP = fair ? fair.probabilities[k] : null;
      const pMarket = quotedP ?? (dMarket ? effectiveProbability(dMarket) : null);
      const pModel = dModel ? effectiveProbability(dModel) : null;
      let p: number;
      if (pMarket !== null && pModel !== null) p = (1 - w) * pMarket + w * pModel;
      else if (pMarket !== null) p = pMarket;
      else if (pModel !== null && w >= 1) p = pModel;
      else continue;
      const shape = dMarket ?? dModel ?? { win: p, halfWin: 0, push: 0, halfLoss: 0, loss: 1 - p };
      const distribution = withProbability(mixDistributions(shape, dMarket ? dModel : null, w), p);
      const prices = item.isAvailable === false ? [] : itemPrices(item, event.dataSource);
      const best = bestPrice(prices);
      const fitSE =
        w > 0 && pModel !== null
          ? w *
            Math.hypot(
              ...perturbed.map((pv) => {
                const d = distributionIn(pv, type, item.code, line, counts);
                return d ? effectiveProbability(d) - pModel : 0;
              }),
            )
          : 0;
      const consensus = fair?.consensus ? fair.consensus[k] : null;
      // Disagreement: with the other books, and (when the model moved the price) with the market.
      const reference = consensus ?? (w > 0 && pMarket !== null ? pMarket : undefined);
      let se = probabilityStandardError({ probability: p, fitStandardError: fitSE, referenceProbability: reference ?? undefined, priceMoveScale: moveScale });
      if (!fair && inversion) se = Math.hypot(se, inversion.residual);
      const edge = best ? edgePercentage(distribution, best.odds) : null;
      const z = best ? marginOfSafety({ probability: p, odds: best.odds, standardError: se }) : null;
      items.push({
        marketId: market.id,
        betItemId: item.id,
        sysname: type.sysname,
        code: item.code,
        line,
        selection: selectionText(type, item.code, line, event.homeTeam.name, event.awayTeam.name),
        probability: p,
        fairOdds: p > 0 ? 1 / p : Infinity,
        distribution,
        marketProbability: pMarket,
        modelProbability: pModel,
        consensusProbability: consensus,
        quoted: !!fair,
        bestBook: best?.book ?? null,
        bestOdds: best?.odds ?? null,
        books: prices.length,
        edgePercentage: edge,
        kellyFraction: best && edge !== null && edge > 0 ? kellyFraction(distribution, best.odds) : 0,
        standardError: se,
        marginOfSafety: z,
        confidence: best && edge !== null ? confidenceLevel({ edgePercentage: edge, probability: p, odds: best.odds, standardError: se }) : null,
      });
    }
  }

  const fairGrid = marketView && modelViewGrids ? mixGrids(marketView.full, modelViewGrids.full, w) : (marketView ?? modelViewGrids)!.full;
  const simulation = trimmedSimulation(simulateMatch({ grid: fairGrid }, options.simulationIterations ?? SIMULATION_ITERATIONS, seedOf(event.id)));
  const expected = expectedScore(fairGrid);
  const mainSysname = MAIN_MARKET[event.sportId];
  const main = markets.find((m) => m.type.sysname === mainSysname);
  const mainQuotes = main ? (quotesByMarket.get(main.market.id) ?? []) : [];
  const mainFair = main ? (fairs.get(main.market.id) ?? null) : null;
  const mainModel = main && modelViewGrids ? main.type.outcomes.map((o) => effectiveProbability(distributionIn(modelViewGrids, main.type, o.code, null, counts)!)) : null;
  const efficiency: EfficiencyBreakdown | null = mainQuotes.length ? marketEfficiency({ bookmakers: mainQuotes.map((q) => [...q.odds]), model: mainModel ?? undefined }) : null;

  const matchesUsed = fit && view?.known ? fit.gamesUsed : undefined;
  const recommendations: RecommendationDraft[] = [];
  for (const it of items) {
    if (it.edgePercentage === null || it.bestBook === null || it.bestOdds === null || it.confidence === null) continue;
    if (it.edgePercentage < options.minEdge || it.edgePercentage > MAX_CREDIBLE_EDGE) continue;
    const fair = fairs.get(it.marketId);
    const narrative = (['en', 'es', 'pt'] as const).map((locale) =>
      buildNarrative({
        homeTeam: event.homeTeam.name[locale] ?? event.homeTeam.name.en,
        awayTeam: event.awayTeam.name[locale] ?? event.awayTeam.name.en,
        selection: it.selection,
        odds: it.bestOdds!,
        modelProbability: it.probability,
        marketProbability: it.consensusProbability ?? it.marketProbability ?? it.probability,
        edgePercentage: it.edgePercentage!,
        kellyFraction: it.kellyFraction,
        confidence: it.confidence!,
        standardError: it.standardError,
        expectedScore: event.sportId === 3 || event.sportId === 5 ? undefined : expected,
        modelWeight: w,
        devigMethod: fair?.method,
        marginPercent: fair ? 100 * fair.margin : undefined,
        matchesUsed,
        bookmakers: fair?.books ?? it.books,
        simulatedProbability: it.sysname === mainSysname ? simulatedShare(simulation, it.code) : undefined,
        simulationIterations: it.sysname === mainSysname ? simulation.iterations : undefined,
      }),
    );
    const pick = (part: 'rationale' | 'riskFactors' | 'dataSupport') =>
      narrative[0][part].map((_, i) => ({ en: narrative[0][part][i].en, es: narrative[1][part][i].es, pt: narrative[2][part][i].pt }));
    // The narrative's market sentence compares with the other books; say which book is sharp.
    const dataSupport = pick('dataSupport');
    if (fair) {
      dataSupport.push({
        en: `Fair price from ${fair.sharpBook}, the sharpest of ${fair.books} bookmakers; the bet is priced at ${it.bestBook}.`,
        es: `Precio justo de ${fair.sharpBook}, la más precisa de ${fair.books} casas; la apuesta se toma en ${it.bestBook}.`,
        pt: `Preço justo de ${fair.sharpBook}, a mais precisa de ${fair.books} casas; a aposta é feita em ${it.bestBook}.`,
      });
    }
    recommendations.push({
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
    });
  }
  recommendations.sort((a, b) => b.edgePercentage - a.edgePercentage || a._id.localeCompare(b._id));

  const riskFactors = insightRisks({ efficiency, mainFair, books: mainQuotes.length, fitGames: matchesUsed, hasModel: !!view, w, modelMain: mainModel });
  const best = recommendations[0];
  const bandText = efficiency ? { en: efficiency.band, es: BAND_ES[efficiency.band], pt: BAND_PT[efficiency.band] } : null;
  const aiNotes: Sentence = {
    en: [
      efficiency && bandText ? `Market efficiency ${efficiency.score}/100 (${bandText.en}).` : 'No complete main market to measure efficiency on.',
      mainFair ? `Fair prices from ${mainFair.sharpBook} with its ${pct(mainFair.margin)}% margin removed (${mainFair.method}).` : '',
      w > 0 ? `The fitted model carries ${pct(w, 0)}% of the forecast.` : "The forecast is the market's: the model has not earned a weight yet.",
      best
        ? `${recommendations.length} value bet${recommendations.length === 1 ? '' : 's'}; best ${best.outcomeLocalized.en} at ${best.odds} (${best.bookmaker}), edge ${best.edgePercentage.toFixed(1)}%.`
        : 'No price beats the fair odds by the minimum edge.',
    ]
      .filter(Boolean)
      .join(' '),
    es: [
      efficiency && bandText ? `Eficiencia del mercado ${local(String(efficiency.score)).es}/100 (${bandText.es}).` : 'No hay un mercado principal completo para medir la eficiencia.',
      mainFair ? `Precios justos de ${mainFair.sharpBook} sin su margen del ${local(pct(mainFair.margin)).es}% (${mainFair.method}).` : '',
      w > 0 ? `El modelo ajustado pesa un ${pct(w, 0)}% del pronóstico.` : 'El pronóstico es el del mercado: el modelo aún no ha ganado peso.',
      best
        ? `${recommendations.length} apuesta${recommendations.length === 1 ? '' : 's'} de valor; la mejor ${best.outcomeLocalized.es} a ${local(String(best.odds)).es} (${best.bookmaker}), ventaja ${local(best.edgePercentage.toFixed(1)).es}%.`
        : 'Ninguna cuota supera la cuota justa en la ventaja mínima.',
    ]
      .filter(Boolean)
      .join(' '),
    pt: [
      efficiency && bandText ? `Eficiência do mercado ${local(String(efficiency.score)).pt}/100 (${bandText.pt}).` : 'Não há um mercado principal completo para medir a eficiência.',
      mainFair ? `Preços justos de ${mainFair.sharpBook} sem a margem de ${local(pct(mainFair.margin)).pt}% (${mainFair.method}).` : '',
      w > 0 ? `O modelo ajustado pesa ${pct(w, 0)}% da previsão.` : 'A previsão é a do mercado: o modelo ainda não ganhou peso.',
      best
        ? `${recommendations.length} aposta${recommendations.length === 1 ? '' : 's'} de valor; a melhor ${best.outcomeLocalized.pt} a ${local(String(best.odds)).pt} (${best.bookmaker}), vantagem ${local(best.edgePercentage.toFixed(1)).pt}%.`
        : 'Nenhuma odd supera a odd justa pela vantagem mínima.',
    ]
      .filter(Boolean)
      .join(' '),
  };

  const describe = sportParamModel(event.sportId).describe;
  const analysisInsight: Record<string, unknown> = {
    sportModel: { sportId: event.sportId, family: fit?.params.family ?? null, grid: 'fair = (1 - blendWeight) x market grid + blendWeight x model grid' },
    market: inversion ? { parameters: describe(inversion.x), residual: round(inversion.residual, 6), targets: targets.length } : null,
    model: view ? { parameters: describe(view.x), knownTeams: view.known, gamesUsed: fit!.gamesUsed, fittedAt: fit!.fittedAt.toISOString() } : null,
    blendWeight: w,
    expectedScore: { home: round(expected.home, 3), away: round(expected.away, 3) },
    mainMarket:
      main && mainFair
        ? {
            sysname: mainSysname,
            sharpBook: mainFair.sharpBook,
            devigMethod: mainFair.method,
            marginPercent: round(100 * mainFair.margin, 3),
            bookmakers: mainFair.books,
            fairProbabilities: Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(mainFair.probabilities[k], 5)])),
            consensusProbabilities: mainFair.consensus ? Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(mainFair.consensus![k], 5)])) : null,
            modelProbabilities: mainModel ? Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(mainModel[k], 5)])) : null,
          }
        : null,
    efficiency,
    teams: teamsInsight(fit?.params ?? null, home, away, event),
    // What the refit compares after the event: the market's and the model's main-market view.
    blendInputs: mainFair && mainModel ? { market: mainFair.probabilities.map((x) => round(x, 6)), model: mainModel.map((x) => round(x, 6)) } : null,
    bookRanking: ranking.slice(0, 10),
  };

  return {
    items,
    recommendations,
    blendWeight: w,
    insight: {
      marketEfficiencyScore: efficiency?.score ?? 0,
      valueOpportunities: {
        recommendations: recommendations.map((r) => ({
          recommendationId: r._id,
          betItemId: r.betItemId,
          edge: r.edgePercentage,
          market: r.betTypeSysname,
          outcome: r.outcomeLocalized,
          bookmaker: r.bookmaker,
          odds: r.odds,
          confidence: r.confidence,
        })),
      },
      riskFactors,
      aiNotes,
      event: { homeTeam: event.homeTeam.name, awayTeam: event.awayTeam.name, commenceTime: event.startDateTime.toISOString(), league: event.competition.name },
      analysisInsight,
      matchSimulation: simulation,
    },
  };
}

const BAND_ES = { 'extremely efficient': 'extremadamente eficiente', efficient: 'eficiente', 'moderately efficient': 'moderadamente eficiente', inefficient: 'ineficiente' } as const;
const BAND_PT = { 'extremely efficient': 'extremamente eficiente', efficient: 'eficiente', 'moderately efficient': 'moderadamente eficiente', inefficient: 'ineficiente' } as const;

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Scores stored per simulation: basketball draws thousands of distinct scores. */
export const STORED_SCORES = 40;

/** The simulation with its score distribution cut to the most frequent scores plus the rest's share. */
function trimmedSimulation(sim: MatchSimulation): MatchSimulation & { otherScoresShare: number } {
  const entries = Object.entries(sim.scoreDistribution);
  const kept = entries.slice(0, STORED_SCORES);
  const other = entries.slice(STORED_SCORES).reduce((s, [, p]) => s + p, 0);
  return { ...sim, scoreDistribution: Object.fromEntries(kept), otherScoresShare: Math.round(other * 1e6) / 1e6 };
}

function simulatedShare(sim: MatchSimulation, code: string): number | undefined {
  if (code === '1') return sim.outcomeFrequencies.home;
  if (code === 'X') return sim.outcomeFrequencies.draw;
  if (code === '2') return sim.outcomeFrequencies.away;
  return undefined;
}

function insightRisks(x: {
  efficiency: EfficiencyBreakdown | null;
  mainFair: MarketFair | null;
  books: number;
  fitGames?: number;
  hasModel: boolean;
  w: number;
  modelMain: number[] | null;
}): Sentence[] {
  const out: Sentence[] = [];
  if (!x.mainFair)
    out.push({
      en: 'No bookmaker quotes the whole main market: fair prices come from the score model alone.',
      es: 'Ninguna casa cotiza el mercado principal completo: los precios justos salen solo del modelo.',
      pt: 'Nenhuma casa cota o mercado principal completo: os preços justos vêm só do modelo.',
    });
  if (x.books === 1)
    out.push({
      en: 'Only one bookmaker prices this event: no second opinion on the fair price.',
      es: 'Solo una casa cotiza este evento: no hay segunda opinión sobre el precio justo.',
      pt: 'Apenas uma casa cota este evento: não há segunda opinião sobre o preço justo.',
    });
  if (x.efficiency && x.efficiency.dispersionPoints >= 2) {
    const d = x.efficiency.dispersionPoints.toFixed(1);
    out.push({
      en: `Bookmakers disagree by ${d} points on average: prices may be stale or news may be moving the market.`,
      es: `Las casas discrepan ${d.replace('.', ',')} puntos de media: puede haber cuotas desfasadas o noticias moviendo el mercado.`,
      pt: `As casas divergem ${d.replace('.', ',')} pontos em média: pode haver odds desatualizadas ou notícias movendo o mercado.`,
    });
  }
  if (x.efficiency && x.efficiency.marginPercent >= 6) {
    const m = x.efficiency.marginPercent.toFixed(1);
    out.push({
      en: `High bookmaker margin (${m}%): little of the price is left for the bettor.`,
      es: `Margen alto de las casas (${m.replace('.', ',')}%): queda poco valor para el apostante.`,
      pt: `Margem alta das casas (${m.replace('.', ',')}%): sobra pouco valor para o apostador.`,
    });
  }
  if (!x.hasModel)
    out.push({
      en: 'No fitted team ratings for this sport yet: the analysis rests on prices alone.',
      es: 'Aún no hay valoraciones ajustadas para este deporte: el análisis se basa solo en las cuotas.',
      pt: 'Ainda não há avaliações ajustadas para este esporte: a análise se baseia só nas odds.',
    });
  else if (x.fitGames !== undefined && x.fitGames < 100)
    out.push({
      en: `Team ratings rest on only ${x.fitGames} completed games.`,
      es: `Las valoraciones se basan en solo ${x.fitGames} partidos completados.`,
      pt: `As avaliações se baseiam em apenas ${x.fitGames} jogos concluídos.`,
    });
  if (x.mainFair && x.modelMain) {
    const gap = Math.max(...x.modelMain.map((m, k) => Math.abs(m - x.mainFair!.probabilities[k])));
    if (gap >= 0.08) {
      const g = (100 * gap).toFixed(1);
      out.push({
        en: `Model and market differ by up to ${g} points on the result: one of them misses something (injuries, lineups).`,
        es: `Modelo y mercado difieren hasta ${g.replace('.', ',')} puntos en el resultado: a uno de los dos se le escapa algo (lesiones, alineaciones).`,
        pt: `Modelo e mercado diferem até ${g.replace('.', ',')} pontos no resultado: um deles deixa escapar algo (lesões, escalações).`,
      });
    }
  }
  return out;
}

function teamsInsight(params: SportFitParams | null, home: string, away: string, event: AnalysisEvent): Record<string, unknown> {
  const side = (id: string, name: LocalizedText) => {
    const base: Record<string, unknown> = { id: Number(id), name };
    if (!params) return { ...base, rated: false };
    if (params.family === 'goals') {
      const i = params.dc.teams.indexOf(id);
      if (i < 0) return { ...base, rated: false };
      return {
        ...base,
        rated: true,
        attack: round(Math.exp(params.dc.attack[i]), 4),
        defence: round(Math.exp(params.dc.defence[i]), 4),
        note: "multipliers of the average team's scoring rate (attack) and of the rate it concedes (defence)",
      };
    }
    const i = params.teams.indexOf(id);
    if (i < 0) return { ...base, rated: false };
    if (params.family === 'normal')
      return { ...base, rated: true, strength: round(params.strength[i], 3), pace: round(params.pace[i], 3), note: 'points above an average team on margin (strength) and on total (pace)' };
    return { ...base, rated: true, setRating: round(params.rating[i], 4), note: 'log-odds of winning a set against an average opponent' };
  };
  return { home: side(home, event.homeTeam.name), away: side(away, event.awayTeam.name) };
}
