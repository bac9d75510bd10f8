import { marketType, type MarketKind } from '../markets/catalog';
import { effectiveProbability, settleOnScore, type OutcomeDistribution, type PricedOutcome } from './pricing';
import { forEachCell, type ScoreGrid } from './scoreGrid';

/**
 * Pricing from a grid's margin and total distributions: every full-time score market settles on
 * the margin (result, double chance, handicap) or the total (over/under) alone, so one pass over
 * the grid prices them all. A basketball grid has ~16,000 cells; the market inversion prices
 * dozens of outcomes per step, which is what this is for. Same results as pricing.ts exactly.
 */
export interface GridSummary {
  /** P(home - away = d). */
  margin: Map<number, number>;
  /** P(home + away = t). */
  total: Map<number, number>;
  /** P(both sides score at least one). */
  bothScore: number;
}

export function summarizeGrid(grid: ScoreGrid): GridSummary {
  const margin = new Map<number, number>();
  const total = new Map<number, number>();
  let bothScore = 0;
  forEachCell(grid, (h, a, p) => {
    margin.set(h - a, (margin.get(h - a) ?? 0) + p);
    total.set(h + a, (total.get(h + a) ?? 0) + p);
    if (h > 0 && a > 0) bothScore += p;
  });
  return { margin, total, bothScore };
}

const MARGIN_KINDS: MarketKind[] = ['result3', 'winner2', 'handicap', 'doubleChance'];

/** Outcome distribution of one full-time score market's outcome, from the summary. */
export function summaryDistribution(s: GridSummary, kind: MarketKind, code: string, line: number | null): OutcomeDistribution {
  const d: OutcomeDistribution = { win: 0, halfWin: 0, push: 0, halfLoss: 0, loss: 0 };
  const add = (x: OutcomeDistribution, p: number) => {
    d.win += p * x.win;
    d.halfWin += p * x.halfWin;
    d.push += p * x.push;
    d.halfLoss += p * x.halfLoss;
    d.loss += p * x.loss;
  };
  if (kind === 'btts') {
    const yes = code === 'Y' ? s.bothScore : 1 - s.bothScore;
    return { win: yes, halfWin: 0, push: 0, halfLoss: 0, loss: 1 - yes };
  }
  if (MARGIN_KINDS.includes(kind)) {
    for (const [m, p] of s.margin) add(settleOnScore(kind, code, line, Math.max(m, 0), Math.max(-m, 0)), p);
  } else {
    for (const [t, p] of s.total) add(settleOnScore(kind, code, line, t, 0), p);
  }
  return d;
}

/** Price of a full-time score outcome (stat 'score', period 'FT') from a grid summary. */
export function priceFromSummary(s: GridSummary, sysname: string, code: string, line: number | null): PricedOutcome {
  const type = marketType(sysname);
  if (!type) throw new RangeError(`unknown market ${sysname}`);
  if (type.stat !== 'score' || type.period !== 'FT') throw new RangeError(`${sysname} is not a full-time score market`);
  const effectiveLine = type.kind === 'total' || type.kind === 'handicap' ? line : null;
  const distribution = summaryDistribution(s, type.kind, code, effectiveLine);
  const probability = effectiveProbability(distribution);
  return { sysname, code, line: effectiveLine, distribution, probability, fairOdds: probability > 0 ? 1 / probability : Infinity };
}

/** The mixture (1 - w) x a + w x b of two score distributions, aligned on actual scores. */
export function mixGrids(a: ScoreGrid, b: ScoreGrid, w: number): ScoreGrid {
  if (w <= 0) return a;
  if (w >= 1) return b;
  const homeMin = Math.min(a.homeMin, b.homeMin);
  const awayMin = Math.min(a.awayMin, b.awayMin);
  const rows = Math.max(a.homeMin + a.p.length, b.homeMin + b.p.length) - homeMin;
  const cols = Math.max(a.awayMin + (a.p[0]?.length ?? 0), b.awayMin + (b.p[0]?.length ?? 0)) - awayMin;
  const p = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  forEachCell(a, (h, x, v) => (p[h - homeMin][x - awayMin] += (1 - w) * v));
  forEachCell(b, (h, x, v) => (p[h - homeMin][x - awayMin] += w * v));
  return { homeMin, awayMin, p };
}
