/**
 * Distributions of a final score and the fair probability of every market kind on them.
 * Low-scoring sports use an exact grid of (home, away) finals; high-scoring ones a normal
 * approximation of the final margin and total (integer-valued, continuity-corrected).
 */

export interface GridDist {
  kind: 'grid';
  /** Side of the square grid: p[h * n + a] = P(final home = h, final away = a). */
  n: number;
  p: Float64Array;
}

export interface NormalDist {
  kind: 'normal';
  diffMean: number;
  diffSd: number;
  totalMean: number;
  totalSd: number;
}

export type ScoreDist = GridDist | NormalDist;

/** Win / push probability of each outcome of a market, in the catalog's outcome order. */
export interface OutcomeProbs {
  win: number[];
  push: number[];
}

export function poissonPmf(lambda: number, max: number): Float64Array {
  const out = new Float64Array(max + 1);
  let p = Math.exp(-lambda);
  let sum = 0;
  for (let k = 0; k <= max; k++) {
    out[k] = p;
    sum += p;
    p = (p * lambda) / (k + 1);
  }
  // The tail beyond max lands on max so the grid sums to 1.
  out[max] = out[max] + Math.max(0, 1 - sum);
  return out;
}

/** Grid of current score plus independent Poisson remainders. */
export function poissonGrid(homeNow: number, awayNow: number, lambdaHome: number, lambdaAway: number, extra = 10): GridDist {
  const maxH = Math.max(extra, Math.ceil(lambdaHome + 6 * Math.sqrt(lambdaHome + 0.1)));
  const maxA = Math.max(extra, Math.ceil(lambdaAway + 6 * Math.sqrt(lambdaAway + 0.1)));
  const ph = poissonPmf(lambdaHome, maxH);
  const pa = poissonPmf(lambdaAway, maxA);
  const n = Math.max(homeNow + maxH, awayNow + maxA) + 2;
  const p = new Float64Array(n * n);
  for (let i = 0; i <= maxH; i++) {
    for (let j = 0; j <= maxA; j++) p[(homeNow + i) * n + (awayNow + j)] = ph[i] * pa[j];
  }
  return { kind: 'grid', n, p };
}

/** Moves the mass of level finals to a one-goal win (overtime / shootout / extra innings). */
export function resolveTies(d: GridDist, homeShare: number): GridDist {
  const { n } = d;
  const p = d.p.slice();
  for (let k = 0; k < n - 1; k++) {
    const tie = p[k * n + k];
    if (!tie) continue;
    p[k * n + k] = 0;
    p[(k + 1) * n + k] = p[(k + 1) * n + k] + tie * homeShare;
    p[k * n + (k + 1)] = p[k * n + (k + 1)] + tie * (1 - homeShare);
  }
  return { kind: 'grid', n, p };
}

function erf(x: number): number {
  // Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7)
  const s = Math.sign(x);
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return s * y;
}

export function normalCdf(x: number, mean = 0, sd = 1): number {
  if (sd <= 1e-9) return x >= mean ? 1 : 0;
  return 0.5 * (1 + erf((x - mean) / (sd * Math.SQRT2)));
}

/** P(an integer-valued normal variable > threshold), and P(= threshold) when it is whole. */
function normalAbove(mean: number, sd: number, threshold: number): { above: number; equal: number } {
  if (Number.isInteger(threshold)) {
    const equal = normalCdf(threshold + 0.5, mean, sd) - normalCdf(threshold - 0.5, mean, sd);
    return { above: 1 - normalCdf(threshold + 0.5, mean, sd), equal };
  }
  return { above: 1 - normalCdf(Math.floor(threshold) + 0.5, mean, sd), equal: 0 };
}

/** Sums the grid over cells where `f(h, a)` is > 0, = 0, < 0. */
function gridSign(d: GridDist, f: (h: number, a: number) => number): { pos: number; zero: number; neg: number } {
  let pos = 0;
  let zero = 0;
  let neg = 0;
  const { n, p } = d;
  for (let h = 0; h < n; h++) {
    for (let a = 0; a < n; a++) {
      const v = p[h * n + a];
      if (!v) continue;
      const s = f(h, a);
      if (s > 1e-9) pos += v;
      else if (s < -1e-9) neg += v;
      else zero += v;
    }
  }
  return { pos, zero, neg };
}

export function result3(d: ScoreDist): OutcomeProbs {
  if (d.kind === 'grid') {
    const r = gridSign(d, (h, a) => h - a);
    return { win: [r.pos, r.zero, r.neg], push: [0, 0, 0] };
  }
  const home = 1 - normalCdf(0.5, d.diffMean, d.diffSd);
  const away = normalCdf(-0.5, d.diffMean, d.diffSd);
  return { win: [home, 1 - home - away, away], push: [0, 0, 0] };
}

/** Two-way winner: a level final pushes (ties are already resolved where the sport has overtime). */
export function winner2(d: ScoreDist): OutcomeProbs {
  if (d.kind === 'grid') {
    const r = gridSign(d, (h, a) => h - a);
    return { win: [r.pos, r.neg], push: [r.zero, r.zero] };
  }
  const home = normalCdf(0, -d.diffMean, d.diffSd);
  return { win: [home, 1 - home], push: [0, 0] };
}

/** Over / under a total line (whole lines can push). */
export function total(d: ScoreDist, line: number): OutcomeProbs {
  if (d.kind === 'grid') {
    const r = gridSign(d, (h, a) => h + a - line);
    return { win: [r.pos, r.neg], push: [r.zero, r.zero] };
  }
  const { above, equal } = normalAbove(d.totalMean, d.totalSd, line);
  return { win: [above, 1 - above - equal], push: [equal, equal] };
}

/** Handicap on the home side: home wins when home + line > away. */
export function handicap(d: ScoreDist, line: number): OutcomeProbs {
  if (d.kind === 'grid') {
    const r = gridSign(d, (h, a) => h + line - a);
    return { win: [r.pos, r.neg], push: [r.zero, r.zero] };
  }
  // home + line - away > 0  <=>  diff > -line
  const { above, equal } = normalAbove(d.diffMean, d.diffSd, -line);
  return { win: [above, 1 - above - equal], push: [equal, equal] };
}

export function btts(d: GridDist): OutcomeProbs {
  const r = gridSign(d, (h, a) => (h > 0 && a > 0 ? 1 : -1));
  return { win: [r.pos, r.neg], push: [0, 0] };
}

export function doubleChance(d: ScoreDist): OutcomeProbs {
  const [h, x, a] = result3(d).win as [number, number, number];
  return { win: [h + x, h + a, x + a], push: [0, 0, 0] };
}

/** Distribution of a single total count (corners, cards): current + Poisson remainder. */
export function countTotal(now: number, lambda: number, line: number): OutcomeProbs {
  const max = Math.ceil(lambda + 8 * Math.sqrt(lambda + 0.1)) + 2;
  const pmf = poissonPmf(lambda, max);
  let over = 0;
  let push = 0;
  for (let k = 0; k <= max; k++) {
    const t = now + k;
    if (t > line) over += pmf[k];
    else if (t === line) push += pmf[k];
  }
  return { win: [over, 1 - over - push], push: [push, push] };
}

/**
 * The fair probability a bettor needs for each outcome: the chance of winning given no push.
 * A quarter line is two half stakes on its neighbouring lines, so it averages them.
 */
export function effective(o: OutcomeProbs): number[] {
  return o.win.map((w, i) => {
    const np = 1 - o.push[i];
    return np > 1e-12 ? Math.min(1, Math.max(0, w / np)) : 0.5;
  });
}

export function isQuarter(line: number): boolean {
  const frac = Math.abs(line * 4) % 2;
  return Math.abs(frac - 1) < 1e-9;
}

/** Effective probabilities for a line market, splitting quarter lines into their halves. */
export function lineEffective(fn: (line: number) => OutcomeProbs, line: number): number[] {
  if (!isQuarter(line)) return effective(fn(line));
  const lo = effective(fn(line - 0.25));
  const hi = effective(fn(line + 0.25));
  return lo.map((v, i) => (v + hi[i]) / 2);
}
