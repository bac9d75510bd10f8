import { normalScoreGrid, setsGrid } from './sportModels';
import type { ScoreGrid } from './scoreGrid';

/**
 * Each sport's score model as a small parameter vector x (two numbers, one for set sports), so
 * the market's view (x inverted from de-vigged prices) and the fitted model's view (x from team
 * ratings) live in the same space and give score grids the same way.
 *   soccer, baseball, ice hockey, handball: x = [log expected home score, log expected away score]
 *   basketball, American football:         x = [expected margin (home - away), expected total]
 *   tennis, volleyball:                    x = [logit of the home side's set-win probability]
 * Each sport's definition (shared/domain/sports/) builds its model with one of the builders below.
 */
export interface GridOptions {
  /** Dixon-Coles low-score dependence (soccer). */
  rho?: number;
  marginSD?: number;
  totalSD?: number;
  bestOf?: 3 | 5;
  /** Negative binomial dispersion of runs (baseball). */
  dispersion?: number;
}

export interface SportParamModel {
  names: readonly string[];
  initial: readonly number[];
  lower: readonly number[];
  upper: readonly number[];
  grid: (x: readonly number[], o: GridOptions) => ScoreGrid;
  /** Readable parameters for the insight (expected goals, set probability, ...). */
  describe: (x: readonly number[]) => Record<string, number>;
}

const logistic = (v: number) => 1 / (1 + Math.exp(-v));
const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

/** Expected home and away scores on a log scale, within [lo, hi]: goals, runs. */
export const logScoresModel = (initial: [number, number], lo: number, hi: number, grid: SportParamModel['grid']): SportParamModel => ({
  names: ['logHome', 'logAway'],
  initial: initial.map(Math.log),
  lower: [Math.log(lo), Math.log(lo)],
  upper: [Math.log(hi), Math.log(hi)],
  grid,
  describe: (x) => ({ expectedHome: round4(Math.exp(x[0])), expectedAway: round4(Math.exp(x[1])) }),
});

/** Expected margin and total of points, normal around them (overtime decides ties). */
export const normalModel = (initial: [number, number], marginMax: number, totalRange: [number, number], defaults: { marginSD: number; totalSD: number; overtimeMargin: number }): SportParamModel => ({
  names: ['margin', 'total'],
  initial,
  lower: [-marginMax, totalRange[0]],
  upper: [marginMax, totalRange[1]],
  grid: (x, o) =>
    normalScoreGrid({ expectedMargin: x[0], expectedTotal: x[1], marginSD: o.marginSD ?? defaults.marginSD, totalSD: o.totalSD ?? defaults.totalSD, overtimeMargin: defaults.overtimeMargin }),
  describe: (x) => ({ expectedMargin: round4(x[0]), expectedTotal: round4(x[1]) }),
});

/** Independent sets, best of `bestOf`, won by home with one probability. */
export const setsModel = (bestOf: 3 | 5): SportParamModel => ({
  names: ['setLogit'],
  initial: [0],
  lower: [-6],
  upper: [6],
  grid: (x, o) => setsGrid({ setWinProbability: logistic(x[0]), bestOf: o.bestOf ?? bestOf }),
  describe: (x) => ({ homeSetWinProbability: round4(logistic(x[0])) }),
});
