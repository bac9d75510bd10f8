import type { MarketType } from '../../markets/catalog';
import type { MarketFair } from '../fairPrice';
import { priceFromSummary, summarizeGrid, type GridSummary } from '../gridPricing';
import { sportDefinition } from '../../sports/registry';
import { invertMarket, type PriceTarget } from '../inversion';
import { priceOutcome, type OutcomeDistribution } from '../pricing';
import type { ScoreGrid } from '../scoreGrid';
import { asCountModel, modelView, type ModelView } from '../sportFit';
import type { GridOptions } from '../sportParams';
import type { TypedMarket } from './quotes';
import type { AnalysisEvent, AnalysisFit } from './types';

/** The grids one view (market or model) gives: full time, first half (a sport with first-half markets), counts. */
export interface View {
  x: number[];
  full: ScoreGrid;
  summary: GridSummary;
  firstHalf?: ScoreGrid;
}

export type CountModels = { corners?: ReturnType<typeof asCountModel>; cards?: ReturnType<typeof asCountModel> };

/** Steps 4 to 6: the market's and the model's score grids and the blend weight between them. */
export interface PriceViews {
  /** The de-vigged full-time score markets the market's parameters were inverted from. */
  targets: PriceTarget[];
  inversion: ReturnType<typeof invertMarket>;
  /** The fitted ratings' parameters for this fixture, when there is a fit. */
  model: ModelView | null;
  /** The model's weight in the blend. */
  w: number;
  market: View | null;
  modelGrids: View | null;
  /** The model view moved one standard error along each parameter, for the fit's share of the uncertainty. */
  perturbed: View[];
  counts: CountModels;
}

function viewOf(sportId: number, x: number[], options: GridOptions): View {
  const sport = sportDefinition(sportId);
  const full = sport.model.grid(x, options);
  return { x, full, summary: summarizeGrid(full), firstHalf: sport.firstHalf?.(x, options) };
}

/** The settlement distribution of one outcome in a view, or null when the view cannot price it. */
export function distributionIn(view: View, type: MarketType, code: string, line: number | null, counts: CountModels): OutcomeDistribution | null {
  if (type.stat === 'score' && type.period === 'FT') return priceFromSummary(view.summary, type.sysname, code, line).distribution;
  if (type.stat === 'score') return view.firstHalf ? priceOutcome({ sportId: type.sportId, fullTime: view.full, firstHalf: view.firstHalf }, type.sysname, code, line).distribution : null;
  const model = type.stat === 'corners' ? counts.corners : counts.cards;
  if (!model) return null;
  return priceOutcome({ sportId: type.sportId, fullTime: view.full, corners: model, cards: model }, type.sysname, code, line).distribution;
}

/** Every de-vigged full-time score market's outcomes but the last (the last follows from the others). */
function inversionTargets(markets: readonly TypedMarket[], fairs: Map<string, MarketFair>): PriceTarget[] {
  const targets: PriceTarget[] = [];
  for (const { market, type } of markets) {
    const f = fairs.get(market.id);
    if (!f || type.stat !== 'score' || type.period !== 'FT') continue;
    type.outcomes.slice(0, -1).forEach((o, k) => targets.push({ sysname: type.sysname, code: o.code, line: market.line ?? null, probability: f.probabilities[k] }));
  }
  return targets;
}

/**
 * Step 4, market view: the grid reproducing every de-vigged full-time score market; step 5, model
 * view: the fitted ratings' grid for the fixture; step 6, the blend weight (the model alone when
 * nothing can be inverted, the market alone without a fit). Null when there is neither view.
 */
export function priceViews(event: AnalysisEvent, fit: AnalysisFit | null, markets: readonly TypedMarket[], fairs: Map<string, MarketFair>): PriceViews | null {
  const targets = inversionTargets(markets, fairs);
  const model = fit ? modelView(fit.params, String(event.homeTeam.id), String(event.awayTeam.id)) : null;
  const gridOptions: GridOptions = model?.options ?? {};
  const inversion = invertMarket(sportDefinition(event.sportId), targets, gridOptions, model?.x);
  if (!inversion && !model) return null;
  const w = !inversion ? 1 : model && fit ? Math.min(1, Math.max(0, fit.blendWeight)) : 0;
  const perturbed =
    model && w > 0
      ? model.x.map((_, j) =>
          viewOf(
            event.sportId,
            model.x.map((v, i) => (i === j ? v + model.se[j] : v)),
            gridOptions,
          ),
        )
      : [];
  return {
    targets,
    inversion,
    model,
    w,
    market: inversion ? viewOf(event.sportId, inversion.x, gridOptions) : null,
    modelGrids: model ? viewOf(event.sportId, model.x, gridOptions) : null,
    perturbed,
    counts: fit?.params.family === 'goals' ? { corners: asCountModel(fit.params.corners), cards: asCountModel(fit.params.cards) } : {},
  };
}
