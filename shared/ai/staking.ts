import type { OutcomeDistribution } from './pricing';

/**
 * Edge, Kelly stakes, confidence bands and parlays. Stakes are fractions of the bankroll.
 */

/** Quarter Kelly: full Kelly is optimal only with the true probability; ours is an estimate. */
export const KELLY_MULTIPLIER = 0.25;

export type Confidence = 'High' | 'Medium' | 'Low';

/** A bet's settlement states as probabilities; a plain number p means {win: p, loss: 1 - p}. */
export type BetProbability = number | OutcomeDistribution;

export function asDistribution(p: BetProbability): OutcomeDistribution {
  if (typeof p === 'number') {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`probability ${p} outside [0, 1]`);
    return { win: p, halfWin: 0, push: 0, halfLoss: 0, loss: 1 - p };
  }
  return p;
}

/** Net return per unit stake in each state, paired with its probability. */
export function returnsOf(p: BetProbability, odds: number): { net: number; probability: number }[] {
  if (!(odds > 1)) throw new RangeError(`invalid decimal odds ${odds}`);
  const d = asDistribution(p);
  return [
    { net: odds - 1, probability: d.win },
    { net: (odds - 1) / 2, probability: d.halfWin },
    { net: 0, probability: d.push },
    { net: -0.5, probability: d.halfLoss },
    { net: -1, probability: d.loss },
  ].filter((r) => r.probability > 0);
}

/** (p x odds - 1) x 100 for a plain bet; the expected net return x 100 for split lines. */
export function edgePercentage(p: BetProbability, odds: number): number {
  return 100 * returnsOf(p, odds).reduce((s, r) => s + r.net * r.probability, 0);
}

/**
 * Full-Kelly fraction for any discrete return distribution: the f maximising E log(1 + f R),
 * found by bisection on its derivative (decreasing in f). Zero when the expectation is not
 * positive; below 1 whenever a total loss is possible.
 */
export function kellyForReturns(returns: { net: number; probability: number }[]): number {
  const mean = returns.reduce((s, r) => s + r.net * r.probability, 0);
  if (!(mean > 0)) return 0;
  const worst = Math.min(...returns.map((r) => r.net));
  if (worst >= 0) return 1; // cannot lose: the cap is the whole bankroll
  const derivative = (f: number) => returns.reduce((s, r) => s + (r.probability * r.net) / (1 + f * r.net), 0);
  let lo = 0;
  let hi = Math.min(1, -1 / worst) - 1e-12;
  if (derivative(hi) > 0) return hi;
  for (let i = 0; i < 200 && hi - lo > 1e-13; i++) {
    const mid = (lo + hi) / 2;
    if (derivative(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Fractional Kelly stake; for a plain bet the full Kelly is (p x odds - 1) / (odds - 1). */
export function kellyFraction(p: BetProbability, odds: number, multiplier = KELLY_MULTIPLIER): number {
  return multiplier * kellyForReturns(returnsOf(p, odds));
}

/**
 * Confidence needs a large edge AND a small model uncertainty relative to it. The margin of
 * safety is z = (p - 1/odds) / standardError: how many standard errors the estimated
 * probability sits above break-even.
 *   High:   edge >= 5 %   and z >= 2
 *   Medium: edge >= 2.5 % and z >= 1
 *   Low:    anything else with a positive edge (and every non-positive edge)
 */
export const CONFIDENCE_THRESHOLDS = {
  High: { minEdge: 5, minZ: 2 },
  Medium: { minEdge: 2.5, minZ: 1 },
} as const;

export interface ConfidenceInputs {
  edgePercentage: number;
  probability: number;
  odds: number;
  /** Standard error of `probability` (see probabilityStandardError). */
  standardError: number;
}

export function confidenceLevel(x: ConfidenceInputs): Confidence {
  const z = x.standardError > 0 ? (x.probability - 1 / x.odds) / x.standardError : Infinity;
  for (const level of ['High', 'Medium'] as const) {
    const t = CONFIDENCE_THRESHOLDS[level];
    if (x.edgePercentage >= t.minEdge && z >= t.minZ) return level;
  }
  return 'Low';
}

/**
 * Uncertainty of a model probability: the fit's own standard error combined with a quarter of
 * the disagreement between model and market, because a model far from a liquid market is more
 * often wrong than the market is. (With half, an edge made only of disagreement could never
 * clear z >= 2; a quarter leaves High reachable for edges the fit itself is sure of.)
 */
export const DISAGREEMENT_WEIGHT = 0.25;

export function probabilityStandardError(fitStandardError: number, modelProbability: number, marketProbability?: number): number {
  const disagreement = marketProbability === undefined ? 0 : DISAGREEMENT_WEIGHT * Math.abs(modelProbability - marketProbability);
  return Math.sqrt(fitStandardError * fitStandardError + disagreement * disagreement);
}

export interface ParlayLeg {
  odds: number;
  probability: BetProbability;
}

export interface ParlayPricing {
  totalOdds: number;
  /** Probability every leg wins outright (legs are independent: different events). */
  probability: number;
  /** Expected net return x 100; a pushed leg counts at odds 1, a half result at half. */
  edgePercentage: number;
  /** Fractional Kelly on the parlay's full return distribution. */
  kellyFraction: number;
  fullKelly: number;
}

export function parlay(legs: ParlayLeg[], multiplier = KELLY_MULTIPLIER): ParlayPricing {
  if (legs.length < 2) throw new RangeError('a parlay needs at least two legs');
  if (legs.length > 8) throw new RangeError('a parlay of more than eight legs is not priced');
  const totalOdds = legs.reduce((s, l) => s * l.odds, 1);
  const probability = legs.reduce((s, l) => s * asDistribution(l.probability).win, 1);
  // Gross payout multiplier per state of a leg; the parlay pays their product.
  let states: { gross: number; probability: number }[] = [{ gross: 1, probability: 1 }];
  for (const leg of legs) {
    const next: { gross: number; probability: number }[] = [];
    for (const r of returnsOf(leg.probability, leg.odds))
      for (const s of states) next.push({ gross: s.gross * (1 + r.net), probability: s.probability * r.probability });
    states = next;
  }
  const returns = states.map((s) => ({ net: s.gross - 1, probability: s.probability }));
  const edge = 100 * returns.reduce((s, r) => s + r.net * r.probability, 0);
  const fullKelly = kellyForReturns(returns);
  return { totalOdds, probability, edgePercentage: edge, kellyFraction: multiplier * fullKelly, fullKelly };
}
