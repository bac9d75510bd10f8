import { marketType } from '../markets/catalog';
import { dcScoreGrid } from './dixonColes';
import { priceFromSummary, summarizeGrid } from './gridPricing';
import { AMERICAN_FOOTBALL_DEFAULTS, BASKETBALL_DEFAULTS, baseballGrid, countScoreGrid, iceHockeyGrid, normalScoreGrid, setsGrid } from './sportModels';
import type { ScoreGrid } from './scoreGrid';

/**
 * Each sport's score model as a small parameter vector x (two numbers, one for set sports), so
 * the market's view (x inverted from de-vigged prices) and the fitted model's view (x from team
 * ratings) live in the same space and give score grids the same way.
 *   soccer, baseball, ice hockey, handball: x = [log expected home score, log expected away score]
 *   basketball, American football:         x = [expected margin (home - away), expected total]
 *   tennis, volleyball:                    x = [logit of the home side's set-win probability]
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
  sportId: number;
  names: readonly string[];
  initial: readonly number[];
  lower: readonly number[];
  upper: readonly number[];
  grid: (x: readonly number[], o: GridOptions) => ScoreGrid;
  /** Readable parameters for the insight (expected goals, set probability, ...). */
  describe: (x: readonly number[]) => Record<string, number>;
}

const exp = Math.exp;
const logistic = (v: number) => 1 / (1 + Math.exp(-v));
const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
const logScores = (initial: [number, number], lo: number, hi: number, grid: SportParamModel['grid'], sportId: number): SportParamModel => ({
  sportId,
  names: ['logHome', 'logAway'],
  initial: initial.map(Math.log),
  lower: [Math.log(lo), Math.log(lo)],
  upper: [Math.log(hi), Math.log(hi)],
  grid,
  describe: (x) => ({ expectedHome: round4(exp(x[0])), expectedAway: round4(exp(x[1])) }),
});
const normal = (
  sportId: number,
  initial: [number, number],
  marginMax: number,
  totalRange: [number, number],
  defaults: { marginSD: number; totalSD: number; overtimeMargin: number },
): SportParamModel => ({
  sportId,
  names: ['margin', 'total'],
  initial,
  lower: [-marginMax, totalRange[0]],
  upper: [marginMax, totalRange[1]],
  grid: (x, o) =>
    normalScoreGrid({ expectedMargin: x[0], expectedTotal: x[1], marginSD: o.marginSD ?? defaults.marginSD, totalSD: o.totalSD ?? defaults.totalSD, overtimeMargin: defaults.overtimeMargin }),
  describe: (x) => ({ expectedMargin: round4(x[0]), expectedTotal: round4(x[1]) }),
});
const sets = (sportId: number, bestOf: 3 | 5): SportParamModel => ({
  sportId,
  names: ['setLogit'],
  initial: [0],
  lower: [-6],
  upper: [6],
  grid: (x, o) => setsGrid({ setWinProbability: logistic(x[0]), bestOf: o.bestOf ?? bestOf }),
  describe: (x) => ({ homeSetWinProbability: round4(logistic(x[0])) }),
});

export const SPORT_PARAM_MODELS: Record<number, SportParamModel> = {
  1: logScores([1.45, 1.15], 0.05, 8, (x, o) => dcScoreGrid(exp(x[0]), exp(x[1]), o.rho ?? -0.05), 1),
  2: normal(2, [3, 220], 60, [100, 330], BASKETBALL_DEFAULTS),
  3: sets(3, 3),
  4: logScores([4.6, 4.3], 0.5, 20, (x, o) => baseballGrid({ home: exp(x[0]), away: exp(x[1]), dispersion: o.dispersion ?? 4 }), 4),
  5: sets(5, 5),
  6: normal(6, [2.5, 45], 50, [10, 100], AMERICAN_FOOTBALL_DEFAULTS),
  7: logScores([3.1, 2.8], 0.3, 10, (x) => iceHockeyGrid({ home: exp(x[0]), away: exp(x[1]) }), 7),
  8: logScores([28, 26], 5, 60, (x) => countScoreGrid({ home: exp(x[0]), away: exp(x[1]) }), 8),
};

export function sportParamModel(sportId: number): SportParamModel {
  const m = SPORT_PARAM_MODELS[sportId];
  if (!m) throw new RangeError(`no score model for sport ${sportId}`);
  return m;
}

/** A de-vigged probability of one full-time score outcome that the grid should reproduce. */
export interface PriceTarget {
  sysname: string;
  code: string;
  line: number | null;
  probability: number;
}

export interface Inversion {
  x: number[];
  /** Root mean square of grid minus target probabilities. */
  residual: number;
  iterations: number;
}

function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[piv][c])) piv = r;
    if (!(Math.abs(m[piv][c]) > 1e-300)) return null;
    [m[c], m[piv]] = [m[piv], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * The x whose grid best reproduces the targets (least squares, Levenberg-Marquardt with a
 * numeric Jacobian, x kept inside the model's bounds). Null without targets.
 */
export function invertMarket(model: SportParamModel, targets: readonly PriceTarget[], options: GridOptions = {}, start?: readonly number[]): Inversion | null {
  const usable = targets.filter((t) => {
    const type = marketType(t.sysname);
    return type && type.sportId === model.sportId && type.stat === 'score' && type.period === 'FT' && t.probability > 0 && t.probability < 1;
  });
  if (usable.length === 0) return null;
  const clamp = (x: number[]) => x.map((v, i) => Math.min(model.upper[i], Math.max(model.lower[i], v)));
  const residuals = (x: number[]) => {
    const s = summarizeGrid(model.grid(x, options));
    return usable.map((t) => priceFromSummary(s, t.sysname, t.code, t.line).probability - t.probability);
  };
  const sq = (r: number[]) => r.reduce((s, v) => s + v * v, 0);
  let x = clamp([...(start ?? model.initial)]);
  let r = residuals(x);
  let cost = sq(r);
  let damping = 1e-3;
  let iter = 0;
  const n = x.length;
  for (; iter < 60 && cost > 1e-18; iter++) {
    const J = x.map((_, k) => {
      const h = 1e-5 * Math.max(1, Math.abs(x[k]));
      const xp = [...x];
      xp[k] += h;
      return residuals(xp).map((v, i) => (v - r[i]) / h);
    });
    const jtj = J.map((a) => J.map((b) => a.reduce((s, v, i) => s + v * b[i], 0)));
    const jtr = J.map((a) => -a.reduce((s, v, i) => s + v * r[i], 0));
    let improved = false;
    for (let tries = 0; tries < 12; tries++) {
      const m = jtj.map((row, i) => row.map((v, j) => (i === j ? v * (1 + damping) + 1e-12 : v)));
      const dx = solve(m, jtr);
      if (!dx) {
        damping *= 10;
        continue;
      }
      const xn = clamp(x.map((v, i) => v + dx[i]));
      const rn = residuals(xn);
      const cn = sq(rn);
      if (cn < cost) {
        const gain = (cost - cn) / Math.max(cost, 1e-300);
        x = xn;
        r = rn;
        cost = cn;
        damping = Math.max(1e-9, damping / 10);
        improved = gain > 1e-10;
        break;
      }
      damping *= 10;
    }
    if (!improved) break;
  }
  return { x: x.slice(0, n), residual: Math.sqrt(cost / r.length), iterations: iter };
}
