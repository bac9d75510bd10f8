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

/** Recommendations need at least this edge, in percent (the worker's default; AI_MIN_EDGE). */
export const DEFAULT_MIN_EDGE = 2;

/**
 * An edge above this many percent against the sharp price is nearly always a stale or mistyped
 * quote, not value: such prices are skipped, never recommended.
 */
export const MAX_CREDIBLE_EDGE = 25;

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
 * Confidence needs a large edge AND a small uncertainty relative to it. The margin of safety is
 * z = (p - 1/odds) / standardError: how many standard errors the fair probability sits above
 * the price's break-even. With the standard error below (dominated by how far a sharp line
 * typically moves before kickoff), Phi(z) approximates the chance the bet beats the closing line.
 *   High:   edge >= 5 % and z >= 1
 *   Medium: edge >= 3 % and z >= 0.5
 *   Low:    anything else (every recommendation clears the minimum edge first)
 * Chosen on the EPL 2013/14-2018/19 warm-up seasons of the backtest (docs/ai.md), where mean
 * closing-line value ran High 7.8 % > Medium 4.2 % > Low 1.4 %.
 */
export const CONFIDENCE_THRESHOLDS = {
  High: { minEdge: 5, minZ: 1 },
  Medium: { minEdge: 3, minZ: 0.5 },
} as const;

export interface ConfidenceInputs {
  edgePercentage: number;
  probability: number;
  odds: number;
  /** Standard error of `probability` (see probabilityStandardError). */
  standardError: number;
}

export function marginOfSafety(x: Omit<ConfidenceInputs, 'edgePercentage'>): number {
  return x.standardError > 0 ? (x.probability - 1 / x.odds) / x.standardError : Infinity;
}

export function confidenceLevel(x: ConfidenceInputs): Confidence {
  const z = marginOfSafety(x);
  for (const level of ['High', 'Medium'] as const) {
    const t = CONFIDENCE_THRESHOLDS[level];
    if (x.edgePercentage >= t.minEdge && z >= t.minZ) return level;
  }
  return 'Low';
}

/**
 * A quarter of the disagreement between the fair probability and a reference (the other
 * bookmakers' consensus, or the market when the model moved away from it) counts as error:
 * when everyone else disagrees with the sharp line, the sharp line is more often the one that moves.
 */
export const DISAGREEMENT_WEIGHT = 0.25;

/**
 * How far a sharp line moves between the price we act on and kickoff, per unit of sqrt(p(1-p)):
 * the root mean square of (closing - opening) de-vigged Pinnacle probability over
 * sqrt(p(1-p)) is 0.049 on EPL 2012/13-2018/19. The backtest refits it on its warm-up seasons.
 */
export const PRICE_MOVE_SCALE = 0.05;

export interface UncertaintyInputs {
  /** The fair probability whose uncertainty is wanted. */
  probability: number;
  /** Standard error from the statistical model's fit, already scaled by its blend weight. */
  fitStandardError?: number;
  /** Consensus of the other bookmakers (or the market when the model leads), when there is one. */
  referenceProbability?: number;
  /** Typical move of the sharp price before kickoff, per sqrt(p(1-p)); 0 turns the term off. */
  priceMoveScale?: number;
}

/** Root sum of squares of the fit's error, the sharp price's expected move, and disagreement. */
export function probabilityStandardError(x: UncertaintyInputs): number {
  const p = Math.min(1, Math.max(0, x.probability));
  const fit = x.fitStandardError ?? 0;
  const move = (x.priceMoveScale ?? PRICE_MOVE_SCALE) * Math.sqrt(p * (1 - p));
  const disagreement = x.referenceProbability === undefined ? 0 : DISAGREEMENT_WEIGHT * Math.abs(p - x.referenceProbability);
  return Math.sqrt(fit * fit + move * move + disagreement * disagreement);
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
    for (const r of returnsOf(leg.probability, leg.odds)) for (const s of states) next.push({ gross: s.gross * (1 + r.net), probability: s.probability * r.probability });
    states = next;
  }
  const returns = states.map((s) => ({ net: s.gross - 1, probability: s.probability }));
  const edge = 100 * returns.reduce((s, r) => s + r.net * r.probability, 0);
  const fullKelly = kellyForReturns(returns);
  return { totalOdds, probability, edgePercentage: edge, kellyFraction: multiplier * fullKelly, fullKelly };
}
