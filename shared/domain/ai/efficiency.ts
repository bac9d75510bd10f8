import { devigProportional } from './devig';

/**
 * Market efficiency on the contract's 0-100 scale (not 0-1: the bands are given in whole points).
 * A market is efficient when its margin is thin, bookmakers agree, and our model agrees with
 * it. Each symptom costs points, capped so no single one can zero the score:
 *   margin:      2.5 points per percent of overround           (cap 40)
 *   dispersion:  4 points per percentage point of spread        (cap 30)
 *   divergence:  3 points per percentage point model vs market  (cap 30)
 * A sharp book (2.5 % margin, 0.5 pt spread, 1 pt divergence) scores about 89.
 */
export const EFFICIENCY_WEIGHTS = {
  marginPerPercent: 2.5,
  marginCap: 40,
  dispersionPerPoint: 4,
  dispersionCap: 30,
  divergencePerPoint: 3,
  divergenceCap: 30,
} as const;

export type EfficiencyBand = 'extremely efficient' | 'efficient' | 'moderately efficient' | 'inefficient';

export interface EfficiencyInputs {
  /** Decimal odds of the same market's outcomes, one array per bookmaker (same outcome order). */
  bookmakers: number[][];
  /** The model's probabilities for the same outcomes, when it has an opinion. */
  model?: number[];
}

export interface EfficiencyBreakdown {
  score: number;
  band: EfficiencyBand;
  /** Median overround across bookmakers, in percent. */
  marginPercent: number;
  /** Mean over outcomes of the standard deviation of de-vigged probabilities, in points. */
  dispersionPoints: number;
  /** Largest absolute model - consensus difference, in points (0 without a model). */
  divergencePoints: number;
}

export function efficiencyBand(score: number): EfficiencyBand {
  if (score >= 90) return 'extremely efficient';
  if (score >= 80) return 'efficient';
  if (score >= 70) return 'moderately efficient';
  return 'inefficient';
}

export function marketEfficiency(x: EfficiencyInputs): EfficiencyBreakdown {
  if (x.bookmakers.length === 0) throw new RangeError('efficiency needs at least one bookmaker');
  const width = x.bookmakers[0].length;
  if (x.bookmakers.some((b) => b.length !== width)) throw new RangeError('every bookmaker must quote the same outcomes');
  const devigged = x.bookmakers.map((b) => devigProportional(b));
  const margins = devigged.map((d) => 100 * d.margin).sort((a, b) => a - b);
  const marginPercent = Math.max(0, margins[Math.floor((margins.length - 1) / 2)]);
  const consensus = Array.from({ length: width }, (_, k) => devigged.reduce((s, d) => s + d.probabilities[k], 0) / devigged.length);
  const dispersionPoints =
    devigged.length < 2 ? 0 : (100 / width) * consensus.reduce((s, c, k) => s + Math.sqrt(devigged.reduce((v, d) => v + (d.probabilities[k] - c) ** 2, 0) / (devigged.length - 1)), 0);
  const divergencePoints = x.model ? 100 * Math.max(...x.model.map((p, k) => Math.abs(p - consensus[k]))) : 0;
  const w = EFFICIENCY_WEIGHTS;
  const penalty =
    Math.min(w.marginCap, w.marginPerPercent * marginPercent) + Math.min(w.dispersionCap, w.dispersionPerPoint * dispersionPoints) + Math.min(w.divergenceCap, w.divergencePerPoint * divergencePoints);
  const score = Math.round(10 * Math.max(0, Math.min(100, 100 - penalty))) / 10;
  return { score, band: efficiencyBand(score), marginPercent, dispersionPoints, divergencePoints };
}

/** The score alone, as the processed insight's marketEfficiencyScore. */
export function marketEfficiencyScore(x: EfficiencyInputs): number {
  return marketEfficiency(x).score;
}
