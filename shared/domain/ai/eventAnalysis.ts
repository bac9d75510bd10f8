import { PRICE_MOVE_SCALE } from './staking';
import { insightOf } from './analysis/insight';
import { mainMarketView } from './analysis/mainMarket';
import { deVigMarkets, quotesByMarket, sharpestBooks, typedMarkets } from './analysis/quotes';
import { priceItems } from './analysis/items';
import { recommend } from './analysis/recommend';
import { simulateFairGrid } from './analysis/simulation';
import type { AnalysisEvent, AnalysisFit, AnalysisOptions, EventAnalysis } from './analysis/types';
import { priceViews } from './analysis/views';

export type * from './analysis/types';
export { fullQuotes, itemPrices } from './analysis/quotes';
export { withProbability } from './analysis/items';
export { recommendationId } from './analysis/recommend';
export { seedOf, SIMULATION_ITERATIONS, STORED_SCORES } from './analysis/simulation';

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
export function analyzeEvent(event: AnalysisEvent, fit: AnalysisFit | null, options: AnalysisOptions): EventAnalysis | null {
  const markets = typedMarkets(event);
  const quotes = quotesByMarket(markets, event.dataSource);
  const ranking = sharpestBooks(markets, quotes, options.bookRanking);
  const fairs = deVigMarkets(markets, quotes, ranking, options.devigMethod);
  const views = priceViews(event, fit, markets, fairs);
  if (!views) return null;
  const items = priceItems(event, markets, fairs, views, options.priceMoveScale ?? PRICE_MOVE_SCALE);
  const { simulation, expected } = simulateFairGrid(event.id, views, options.simulationIterations);
  const main = mainMarketView(event.sportId, markets, quotes, fairs, views);
  const matchesUsed = fit && views.model?.known ? fit.gamesUsed : undefined;
  const recommendations = recommend(items, { event, fairs, minEdge: options.minEdge, w: views.w, expected, simulation, mainSysname: main.sysname, matchesUsed });
  const insight = insightOf({ event, fit, views, main, recommendations, simulation, expected, ranking, matchesUsed });
  return { items, recommendations, blendWeight: views.w, insight };
}
