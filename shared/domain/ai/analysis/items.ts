import { bestPrice, type MarketFair } from '../fairPrice';
import { effectiveProbability, type OutcomeDistribution } from '../pricing';
import { selectionText } from '../selection';
import { confidenceLevel, edgePercentage, kellyFraction, marginOfSafety, probabilityStandardError } from '../staking';
import { itemPrices, type TypedMarket } from './quotes';
import type { AnalysisBetItem, AnalysisEvent, ItemAnalysis } from './types';
import { distributionIn, type PriceViews } from './views';

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
  const mix = (s: keyof OutcomeDistribution) => (1 - w) * a[s] + w * b[s];
  return { win: mix('win'), halfWin: mix('halfWin'), push: mix('push'), halfLoss: mix('halfLoss'), loss: mix('loss') };
}

/** The blended fair probability: both views weighted, else the market's, else the model's when it carries all the weight. */
function blend(pMarket: number | null, pModel: number | null, w: number): number | null {
  if (pMarket !== null && pModel !== null) return (1 - w) * pMarket + w * pModel;
  if (pMarket !== null) return pMarket;
  if (pModel !== null && w >= 1) return pModel;
  return null;
}

interface ItemContext {
  event: AnalysisEvent;
  market: TypedMarket;
  fair: MarketFair | undefined;
  views: PriceViews;
  moveScale: number;
}

/** One bet item: fair probability (step 6), best price, edge, Kelly, standard error and confidence; null when unpriceable. */
function priceItem(item: AnalysisBetItem, k: number, x: ItemContext): ItemAnalysis | null {
  const { event, fair, views } = x;
  const { market, type } = x.market;
  const { w, counts } = views;
  const line = market.line ?? null;
  const dMarket = views.market ? distributionIn(views.market, type, item.code, line, counts) : null;
  const dModel = views.modelGrids ? distributionIn(views.modelGrids, type, item.code, line, counts) : null;
  const quotedP = fair ? fair.probabilities[k] : null;
  const pMarket = quotedP ?? (dMarket ? effectiveProbability(dMarket) : null);
  const pModel = dModel ? effectiveProbability(dModel) : null;
  const p = blend(pMarket, pModel, w);
  if (p === null) return null;
  const shape = dMarket ?? dModel ?? { win: p, halfWin: 0, push: 0, halfLoss: 0, loss: 1 - p };
  const distribution = withProbability(mixDistributions(shape, dMarket ? dModel : null, w), p);
  const prices = item.isAvailable === false ? [] : itemPrices(item, event.dataSource);
  const best = bestPrice(prices);
  const fitSE =
    w > 0 && pModel !== null
      ? w *
        Math.hypot(
          ...views.perturbed.map((pv) => {
            const d = distributionIn(pv, type, item.code, line, counts);
            return d ? effectiveProbability(d) - pModel : 0;
          }),
        )
      : 0;
  const consensus = fair?.consensus ? fair.consensus[k] : null;
  // Disagreement: with the other books, and (when the model moved the price) with the market.
  const reference = consensus ?? (w > 0 && pMarket !== null ? pMarket : undefined);
  let se = probabilityStandardError({ probability: p, fitStandardError: fitSE, referenceProbability: reference ?? undefined, priceMoveScale: x.moveScale });
  if (!fair && views.inversion) se = Math.hypot(se, views.inversion.residual);
  const edge = best ? edgePercentage(distribution, best.odds) : null;
  return {
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
    marginOfSafety: best ? marginOfSafety({ probability: p, odds: best.odds, standardError: se }) : null,
    confidence: best && edge !== null ? confidenceLevel({ edgePercentage: edge, probability: p, odds: best.odds, standardError: se }) : null,
  };
}

/** Every priceable bet item of the event's markets, in market then item order. */
export function priceItems(event: AnalysisEvent, markets: readonly TypedMarket[], fairs: Map<string, MarketFair>, views: PriceViews, moveScale: number): ItemAnalysis[] {
  const items: ItemAnalysis[] = [];
  for (const m of markets) {
    const context: ItemContext = { event, market: m, fair: fairs.get(m.market.id), views, moveScale };
    for (const item of m.market.betItems) {
      const k = m.type.outcomes.findIndex((o) => o.code === item.code);
      if (k < 0) continue;
      const analysed = priceItem(item, k, context);
      if (analysed) items.push(analysed);
    }
  }
  return items;
}
