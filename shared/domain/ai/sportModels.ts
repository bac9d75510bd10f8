import { negBinomialPmf, normalCdf } from './countDistributions';
import { dcScoreGrid } from './dixonColes';
import { normalizeGrid, type ScoreGrid } from './scoreGrid';

/**
 * One score-distribution model per sport family, parameterised by expected scores or ratings
 * (which the worker takes from a market inversion or a rating fit). Each returns a ScoreGrid,
 * so pricing.ts prices every catalog market of every sport the same way; each sport's definition
 * (shared/domain/sports/) says which one is its own.
 */

/** Basketball and American football: margin and total as independent normals. */
export interface NormalScoreParams {
  expectedMargin: number; // home minus away
  marginSD: number;
  expectedTotal: number;
  totalSD: number;
  /**
   * Points the overtime winner ends ahead by (the catalog's score includes overtime, so no
   * game ends tied): about 3 in both sports. The winner is home with probability
   * Phi(expectedMargin / marginSD), the regulation strength carried into overtime.
   */
  overtimeMargin?: number;
}

export const BASKETBALL_DEFAULTS = { marginSD: 12, totalSD: 17, overtimeMargin: 3 } as const;
export const AMERICAN_FOOTBALL_DEFAULTS = { marginSD: 13.5, totalSD: 13, overtimeMargin: 3 } as const;

export function normalScoreGrid(x: NormalScoreParams): ScoreGrid {
  if (!(x.marginSD > 0 && x.totalSD > 0)) throw new RangeError('standard deviations must be positive');
  const meanHome = (x.expectedTotal + x.expectedMargin) / 2;
  const meanAway = (x.expectedTotal - x.expectedMargin) / 2;
  const sd = Math.hypot(x.marginSD, x.totalSD) / 2;
  const ot = x.overtimeMargin ?? 3;
  const homeMin = Math.max(0, Math.floor(meanHome - 6 * sd));
  const awayMin = Math.max(0, Math.floor(meanAway - 6 * sd));
  const size = Math.ceil(12 * sd) + ot + 2;
  const p = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const pHomeOt = normalCdf(x.expectedMargin / x.marginSD);
  for (let i = 0; i < size - ot; i++)
    for (let j = 0; j < size - ot; j++) {
      const h = homeMin + i;
      const a = awayMin + j;
      const zm = (h - a - x.expectedMargin) / x.marginSD;
      const zt = (h + a - x.expectedTotal) / x.totalSD;
      const w = Math.exp(-0.5 * (zm * zm + zt * zt));
      if (h !== a) p[i][j] += w;
      else {
        // Overtime: the winner's side moves ahead by the overtime margin.
        p[i + ot][j] += w * pHomeOt;
        if (j + ot < size) p[i][j + ot] += w * (1 - pHomeOt);
      }
    }
  return normalizeGrid({ homeMin, awayMin, p });
}

/** Handball (regulation time, draws possible): Poisson or negative binomial goals per side. */
export interface CountScoreParams {
  home: number;
  away: number;
  /** Negative binomial dispersion; omit for Poisson. */
  dispersion?: number;
}

export function countScoreGrid(x: CountScoreParams): ScoreGrid {
  const r = x.dispersion ?? Infinity;
  const ph = negBinomialPmf(x.home, r);
  const pa = negBinomialPmf(x.away, r);
  return normalizeGrid({ homeMin: 0, awayMin: 0, p: ph.map((a) => pa.map((b) => a * b)) });
}

export const handballGrid = countScoreGrid;

/** First halves carry about 45 % of the goals in European football. */
export const FIRST_HALF_GOAL_SHARE = 0.45;

/** Soccer's first-half score: the full time's Dixon-Coles rates scaled to the half's share of goals. */
export function firstHalfGrid(lambdaHome: number, lambdaAway: number, rho = 0, share = FIRST_HALF_GOAL_SHARE): ScoreGrid {
  return dcScoreGrid(lambdaHome * share, lambdaAway * share, rho);
}

/**
 * A regulation grid whose ties are decided by one extra unit for the winner: the overtime or
 * shootout winning goal in hockey, the deciding run of extra innings in baseball.
 */
function resolveTies(grid: ScoreGrid, pHome: number): ScoreGrid {
  const n = grid.p.length + 1;
  const m = (grid.p[0]?.length ?? 0) + 1;
  const p = Array.from({ length: n }, () => new Array<number>(m).fill(0));
  grid.p.forEach((row, i) =>
    row.forEach((v, j) => {
      if (grid.homeMin + i !== grid.awayMin + j) p[i][j] += v;
      else {
        p[i + 1][j] += v * pHome;
        p[i][j + 1] += v * (1 - pHome);
      }
    }),
  );
  return normalizeGrid({ homeMin: grid.homeMin, awayMin: grid.awayMin, p });
}

export interface HockeyParams {
  /** Expected regulation goals. */
  home: number;
  away: number;
  /** Low-score dependence of regulation goals, as in Dixon-Coles. */
  rho?: number;
  /** P(home wins overtime or the shootout); default from the scoring rates. */
  homeOvertimeWin?: number;
}

export function iceHockeyGrid(x: HockeyParams): ScoreGrid {
  const regulation = dcScoreGrid(x.home, x.away, x.rho ?? 0, Math.ceil(Math.max(x.home, x.away) + 12));
  return resolveTies(regulation, x.homeOvertimeWin ?? x.home / (x.home + x.away));
}

export interface BaseballParams {
  home: number;
  away: number;
  /** Runs are overdispersed (big innings): negative binomial dispersion, about 4 in MLB. */
  dispersion?: number;
  homeExtraInningsWin?: number;
}

export function baseballGrid(x: BaseballParams): ScoreGrid {
  const r = x.dispersion ?? 4;
  const regulation = countScoreGrid({ home: x.home, away: x.away, dispersion: r });
  return resolveTies(regulation, x.homeExtraInningsWin ?? x.home / (x.home + x.away));
}

/** Tennis and volleyball: independent sets won by home with probability p, best of 3 or 5. */
export interface SetsParams {
  setWinProbability: number;
  bestOf: 3 | 5;
  /** Volleyball's short fifth set, or a tennis deciding set, may differ; default p. */
  decidingSetProbability?: number;
}

export function setsGrid(x: SetsParams): ScoreGrid {
  const p = x.setWinProbability;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`set probability ${p} outside [0, 1]`);
  const need = (x.bestOf + 1) / 2;
  const decider = x.decidingSetProbability ?? p;
  const grid = Array.from({ length: need + 1 }, () => new Array<number>(need + 1).fill(0));
  const binom = (n: number, k: number) => {
    let c = 1;
    for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
    return c;
  };
  for (let lost = 0; lost < need; lost++) {
    // The winner takes the last set; the others split (need - 1, lost) in any order.
    const before = binom(need - 1 + lost, lost);
    const last = lost === need - 1 ? decider : p;
    const lastAway = lost === need - 1 ? 1 - decider : 1 - p;
    grid[need][lost] = before * Math.pow(p, need - 1) * Math.pow(1 - p, lost) * last;
    grid[lost][need] = before * Math.pow(1 - p, need - 1) * Math.pow(p, lost) * lastAway;
  }
  return normalizeGrid({ homeMin: 0, awayMin: 0, p: grid });
}

/** The set-win probability that reproduces a (de-vigged) match-win probability. */
export function setProbabilityFromMatch(matchWin: number, bestOf: 3 | 5): number {
  let lo = 0;
  let hi = 1;
  const win = (p: number) => {
    const g = setsGrid({ setWinProbability: p, bestOf });
    const need = (bestOf + 1) / 2;
    return g.p[need].reduce((s, v) => s + v, 0);
  };
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (win(mid) < matchWin) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
