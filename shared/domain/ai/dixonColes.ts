import { minimizeLbfgs } from './lbfgs';
import { poissonPmf } from './countDistributions';
import { overProbability, resultProbabilities, type ResultProbabilities, type ScoreGrid } from './scoreGrid';
import { valueOf } from '../records';

/**
 * Dixon & Coles (1997): independent Poisson goals with a correction (rho) of the four low
 * scores, per-team attack and defence, one home advantage, and exponentially decaying weights
 * so recent form counts more. log lambdaHome = intercept + home + attack[h] + defence[a];
 * log lambdaAway = intercept + attack[a] + defence[h].
 */
export interface DcMatch {
  home: string;
  away: string;
  /**
   * Goals scored. May also be a market's expected goals (a quasi-Poisson fit of prices):
   * non-integers only enter the Poisson part, never the low-score correction.
   */
  homeGoals: number;
  awayGoals: number;
  /** Days on any fixed axis; only differences to `now` matter. */
  day: number;
}

export interface DcParams {
  teams: string[];
  attack: number[];
  defence: number[];
  intercept: number;
  homeAdvantage: number;
  rho: number;
}

export interface DcFitOptions {
  /** Reference day for the decay weights (the day of the matches being predicted). */
  now: number;
  /** Decay per day; 0.0019 halves a match's weight in about a year (Dixon-Coles' estimate). */
  xi?: number;
  /**
   * L2 penalty on attack and defence. It makes the model identifiable without a sum-to-zero
   * constraint and shrinks teams with few matches (promoted sides) toward the average.
   */
  ridge?: number;
  /** Matches older than this many days are dropped: their weight is negligible anyway. */
  maxAgeDays?: number;
  /** Warm start (e.g. last matchday's fit); teams absent from it start at zero. */
  init?: DcParams;
  maxIterations?: number;
}

export interface DcFit {
  params: DcParams;
  logLikelihood: number;
  iterations: number;
  converged: boolean;
  /**
   * Approximate standard errors of each team's attack and defence from the diagonal of the
   * expected information (weighted goals exposure plus the ridge). Used for confidence only.
   */
  attackSE: number[];
  defenceSE: number[];
  matchesUsed: number;
}

export const DEFAULT_XI = 0.0019;
export const DEFAULT_RIDGE = 2;
export const DEFAULT_MAX_GOALS = 10;

export function dcTau(h: number, a: number, lh: number, la: number, rho: number): number {
  if (h === 0 && a === 0) return 1 - lh * la * rho;
  if (h === 0 && a === 1) return 1 + lh * rho;
  if (h === 1 && a === 0) return 1 + la * rho;
  if (h === 1 && a === 1) return 1 - rho;
  return 1;
}

/** Parameter vector layout: [intercept, home, rho, attack[0..n), defence[0..n)]. */
interface Prepared {
  n: number;
  hi: Int32Array;
  ai: Int32Array;
  /** Goals; fractional values (expected goals from prices) skip the low-score correction. */
  hg: Float64Array;
  ag: Float64Array;
  w: Float64Array;
}

function prepare(matches: readonly DcMatch[], teams: string[], now: number, xi: number, maxAgeDays: number): Prepared {
  const index = new Map(teams.map((t, i) => [t, i]));
  const kept = matches.filter((m) => now - m.day <= maxAgeDays && m.day <= now);
  const k = kept.length;
  const p: Prepared = {
    n: teams.length,
    hi: new Int32Array(k),
    ai: new Int32Array(k),
    hg: new Float64Array(k),
    ag: new Float64Array(k),
    w: new Float64Array(k),
  };
  kept.forEach((m, i) => {
    p.hi[i] = valueOf(index, m.home);
    p.ai[i] = valueOf(index, m.away);
    p.hg[i] = m.homeGoals;
    p.ag[i] = m.awayGoals;
    p.w[i] = Math.exp(-xi * (now - m.day));
  });
  return p;
}

/**
 * Negative penalised weighted log-likelihood (factorials dropped) and its analytic gradient.
 * Returns Infinity where some tau is not positive, which the optimiser treats as infeasible.
 */
function objective(data: Prepared, ridge: number, x: Float64Array, grad: Float64Array): number {
  const n = data.n;
  const intercept = x[0];
  const home = x[1];
  const rho = x[2];
  grad.fill(0);
  let ll = 0;
  for (let i = 0; i < data.w.length; i++) {
    const h = data.hi[i];
    const a = data.ai[i];
    const yh = data.hg[i];
    const ya = data.ag[i];
    const w = data.w[i];
    const etaH = intercept + home + x[3 + h] + x[3 + n + a];
    const etaA = intercept + x[3 + a] + x[3 + n + h];
    const lh = Math.exp(etaH);
    const la = Math.exp(etaA);
    // d log L / d eta for the Poisson part.
    let gH = yh - lh;
    let gA = ya - la;
    let gRho = 0;
    let logTau = 0;
    // Every match's low-score cells must keep a positive probability, observed or not,
    // otherwise rho can run away on data that happens to lack 0-0 or 1-1 draws.
    if (!(rho < 1 && lh * la * rho < 1 && 1 + lh * rho > 0 && 1 + la * rho > 0)) return Infinity;
    if ((yh === 0 || yh === 1) && (ya === 0 || ya === 1)) {
      const tau = dcTau(yh, ya, lh, la, rho);
      logTau = Math.log(tau);
      if (yh === 0 && ya === 0) {
        gH += (-lh * la * rho) / tau;
        gA += (-lh * la * rho) / tau;
        gRho = (-lh * la) / tau;
      } else if (yh === 0 && ya === 1) {
        gH += (lh * rho) / tau;
        gRho = lh / tau;
      } else if (yh === 1 && ya === 0) {
        gA += (la * rho) / tau;
        gRho = la / tau;
      } else {
        gRho = -1 / tau;
      }
    }
    ll += w * (logTau + yh * etaH - lh + ya * etaA - la);
    gH *= w;
    gA *= w;
    grad[0] -= gH + gA;
    grad[1] -= gH;
    grad[2] -= w * gRho;
    grad[3 + h] -= gH;
    grad[3 + n + a] -= gH;
    grad[3 + a] -= gA;
    grad[3 + n + h] -= gA;
  }
  let penalty = 0;
  for (let j = 3; j < 3 + 2 * n; j++) {
    penalty += x[j] * x[j];
    grad[j] += ridge * x[j];
  }
  return -ll + 0.5 * ridge * penalty;
}

export interface DcObjective {
  teams: string[];
  evaluate: (x: Float64Array, grad: Float64Array) => number;
  pack: (params: DcParams) => Float64Array;
  unpack: (x: ArrayLike<number>) => DcParams;
}

/** The fitting objective, exposed so tests can check the analytic gradient. */
export function dcObjective(matches: readonly DcMatch[], options: DcFitOptions): DcObjective {
  const teams = [...new Set(matches.flatMap((m) => [m.home, m.away]))].sort();
  const data = prepare(matches, teams, options.now, options.xi ?? DEFAULT_XI, options.maxAgeDays ?? Infinity);
  const ridge = options.ridge ?? DEFAULT_RIDGE;
  const n = teams.length;
  return {
    teams,
    evaluate: (x, grad) => objective(data, ridge, x, grad),
    pack: (p) => {
      const x = new Float64Array(3 + 2 * n);
      x[0] = p.intercept;
      x[1] = p.homeAdvantage;
      x[2] = p.rho;
      const idx = new Map(p.teams.map((t, i) => [t, i]));
      teams.forEach((t, i) => {
        const j = idx.get(t);
        x[3 + i] = j === undefined ? 0 : p.attack[j];
        x[3 + n + i] = j === undefined ? 0 : p.defence[j];
      });
      return x;
    },
    unpack: (x) => ({
      teams,
      intercept: x[0],
      homeAdvantage: x[1],
      rho: x[2],
      attack: Array.from({ length: n }, (_, i) => x[3 + i]),
      defence: Array.from({ length: n }, (_, i) => x[3 + n + i]),
    }),
  };
}

export function fitDixonColes(matches: readonly DcMatch[], options: DcFitOptions): DcFit {
  const maxAgeDays = options.maxAgeDays ?? Infinity;
  const used = matches.filter((m) => options.now - m.day <= maxAgeDays && m.day <= options.now);
  if (used.length === 0) throw new RangeError('Dixon-Coles fit needs at least one match');
  const obj = dcObjective(used, { ...options, maxAgeDays: Infinity });
  const init: DcParams = options.init ?? { teams: [], attack: [], defence: [], intercept: 0.2, homeAdvantage: 0.25, rho: -0.05 };
  let start = obj.pack(init);
  const g = new Float64Array(start.length);
  if (!Number.isFinite(obj.evaluate(start, g))) start = obj.pack({ ...init, rho: 0 });
  const res = minimizeLbfgs(obj.evaluate, start, { maxIterations: options.maxIterations ?? 300, gradientTolerance: 1e-5 });
  const params = obj.unpack(res.x);
  // Information of attack[i]: weighted expected goals team i scores; of defence[i]: goals it concedes.
  const ridge = options.ridge ?? DEFAULT_RIDGE;
  const xi = options.xi ?? DEFAULT_XI;
  const infoAtt = new Array<number>(obj.teams.length).fill(ridge);
  const infoDef = new Array<number>(obj.teams.length).fill(ridge);
  const idx = new Map(obj.teams.map((t, i) => [t, i]));
  for (const m of used) {
    const w = Math.exp(-xi * (options.now - m.day));
    const { lambdaHome, lambdaAway } = dcLambdas(params, m.home, m.away);
    const h = valueOf(idx, m.home);
    const a = valueOf(idx, m.away);
    infoAtt[h] += w * lambdaHome;
    infoDef[a] += w * lambdaHome;
    infoAtt[a] += w * lambdaAway;
    infoDef[h] += w * lambdaAway;
  }
  return {
    params,
    logLikelihood: -res.value,
    iterations: res.iterations,
    converged: res.converged,
    attackSE: infoAtt.map((v) => 1 / Math.sqrt(v)),
    defenceSE: infoDef.map((v) => 1 / Math.sqrt(v)),
    matchesUsed: used.length,
  };
}

/** Expected goals for a fixture; an unknown team (newly promoted) is rated average. */
export function dcLambdas(params: DcParams, home: string, away: string): { lambdaHome: number; lambdaAway: number } {
  const h = params.teams.indexOf(home);
  const a = params.teams.indexOf(away);
  const attH = h < 0 ? 0 : params.attack[h];
  const defH = h < 0 ? 0 : params.defence[h];
  const attA = a < 0 ? 0 : params.attack[a];
  const defA = a < 0 ? 0 : params.defence[a];
  return {
    lambdaHome: Math.exp(params.intercept + params.homeAdvantage + attH + defA),
    lambdaAway: Math.exp(params.intercept + attA + defH),
  };
}

/** The Dixon-Coles score grid 0..maxGoals for each side, renormalised over the truncation. */
export function dcScoreGrid(lambdaHome: number, lambdaAway: number, rho: number, maxGoals = DEFAULT_MAX_GOALS): ScoreGrid {
  const ph = poissonPmf(lambdaHome, maxGoals);
  const pa = poissonPmf(lambdaAway, maxGoals);
  const p = ph.map((x, i) => pa.map((y, j) => x * y * (i <= 1 && j <= 1 ? Math.max(0, dcTau(i, j, lambdaHome, lambdaAway, rho)) : 1)));
  let total = 0;
  for (const row of p) for (const v of row) total += v;
  return { homeMin: 0, awayMin: 0, p: p.map((row) => row.map((v) => v / total)) };
}

export interface MarketTargets extends ResultProbabilities {
  /** De-vigged P(total goals > 2.5), when an over/under price exists. */
  over25?: number;
}

export interface MarketInversion {
  lambdaHome: number;
  lambdaAway: number;
  /** Root mean square difference between the grid's and the market's probabilities. */
  residual: number;
  iterations: number;
}

/**
 * The (lambdaHome, lambdaAway) whose Dixon-Coles grid reproduces the market's de-vigged 1X2
 * (and over 2.5 when given): the model's starting point is the market's own view.
 * Levenberg-Marquardt on log lambdas with a numeric Jacobian; a grid costs about 121 cells.
 */
export function lambdasFromMarket(target: MarketTargets, rho: number, maxGoals = DEFAULT_MAX_GOALS): MarketInversion {
  const residuals = (x: number[]): number[] => {
    const grid = dcScoreGrid(Math.exp(x[0]), Math.exp(x[1]), rho, maxGoals);
    const r = resultProbabilities(grid);
    const out = [r.home - target.home, r.draw - target.draw, r.away - target.away];
    if (target.over25 !== undefined) out.push(overProbability(grid, 2.5) - target.over25);
    return out;
  };
  const sq = (r: number[]) => r.reduce((s, v) => s + v * v, 0);
  // Start near a typical 2.7-goal match, tilted by how much the market favours one side.
  const ratio = Math.max(0.05, Math.min(20, (target.home + 0.5 * target.draw) / (target.away + 0.5 * target.draw)));
  let x = [Math.log(1.35) + 0.3 * Math.log(ratio), Math.log(1.35) - 0.3 * Math.log(ratio)];
  let r = residuals(x);
  let cost = sq(r);
  let damping = 1e-3;
  let iter = 0;
  for (; iter < 100 && cost > 1e-20; iter++) {
    const eps = 1e-6;
    const J = [0, 1].map((k) => {
      const xp = [...x];
      xp[k] += eps;
      return residuals(xp).map((v, i) => (v - r[i]) / eps);
    });
    const a11 = J[0].reduce((s, v) => s + v * v, 0);
    const a22 = J[1].reduce((s, v) => s + v * v, 0);
    const a12 = J[0].reduce((s, v, i) => s + v * J[1][i], 0);
    const b1 = -J[0].reduce((s, v, i) => s + v * r[i], 0);
    const b2 = -J[1].reduce((s, v, i) => s + v * r[i], 0);
    let improved = false;
    for (let tries = 0; tries < 20; tries++) {
      const m11 = a11 * (1 + damping);
      const m22 = a22 * (1 + damping);
      const det = m11 * m22 - a12 * a12;
      if (!(Math.abs(det) > 0)) {
        damping *= 10;
        continue;
      }
      const dx = [(b1 * m22 - b2 * a12) / det, (m11 * b2 - a12 * b1) / det];
      const xn = [x[0] + dx[0], x[1] + dx[1]].map((v) => Math.max(-4, Math.min(2.5, v)));
      const rn = residuals(xn);
      const cn = sq(rn);
      if (cn < cost) {
        x = xn;
        r = rn;
        const rel = (cost - cn) / Math.max(cost, 1e-300);
        cost = cn;
        damping = Math.max(1e-9, damping / 10);
        improved = true;
        if (rel < 1e-10) iter = 1e9;
        break;
      }
      damping *= 10;
    }
    if (!improved) break;
  }
  return { lambdaHome: Math.exp(x[0]), lambdaAway: Math.exp(x[1]), residual: Math.sqrt(cost / r.length), iterations: Math.min(iter, 100) };
}
