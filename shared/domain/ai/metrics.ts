import { mulberry32 } from './random';

/**
 * Scoring rules for ordered three-way (home, draw, away) forecasts and the resampling used to
 * put intervals on them. `outcome` is 0 home, 1 draw, 2 away.
 */
export type Triple = readonly [number, number, number];

/** Ranked probability score: respects the order home < draw < away, lower is better. */
export function rps(p: Triple, outcome: number): number {
  const o = [0, 0, 0];
  o[outcome] = 1;
  const c1 = p[0] - o[0];
  const c2 = p[0] + p[1] - o[0] - o[1];
  return 0.5 * (c1 * c1 + c2 * c2);
}

export function logLoss(p: Triple, outcome: number): number {
  return -Math.log(Math.max(p[outcome], 1e-15));
}

/** Multi-class Brier score (sum over the three outcomes, 0..2). */
export function brier(p: Triple, outcome: number): number {
  let s = 0;
  for (let k = 0; k < 3; k++) s += (p[k] - (k === outcome ? 1 : 0)) ** 2;
  return s;
}

export function mean(v: readonly number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
}

export function standardError(v: readonly number[]): number {
  if (v.length < 2) return NaN;
  const m = mean(v);
  return Math.sqrt(v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1) / v.length);
}

/**
 * The standard error of the mean when values come in clusters that share their fate (bets on one
 * event share its result): the cluster-robust (sandwich) estimate, sqrt(G / (G - 1) x
 * sum over clusters of (sum of deviations)^2) / n. With one value per cluster it is the plain
 * standard error; NaN under two clusters.
 */
export function clusteredStandardError(v: readonly number[], clusters: readonly string[]): number {
  const sums = new Map<string, number>();
  const m = mean(v);
  v.forEach((x, i) => sums.set(clusters[i], (sums.get(clusters[i]) ?? 0) + (x - m)));
  const g = sums.size;
  if (g < 2) return NaN;
  let ss = 0;
  for (const s of sums.values()) ss += s * s;
  return Math.sqrt((g / (g - 1)) * ss) / v.length;
}

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

/**
 * Percentile bootstrap of a statistic of resampled items (seeded, so reports reproduce).
 * `stat` receives the resampled indices.
 */
export function bootstrap(n: number, stat: (indices: Int32Array) => number, seed: number, resamples = 1000): Interval {
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const point = stat(all);
  if (n === 0) return { mean: NaN, low: NaN, high: NaN };
  const rng = mulberry32(seed);
  const values: number[] = [];
  const idx = new Int32Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
    values.push(stat(idx));
  }
  values.sort((a, b) => a - b);
  return { mean: point, low: values[Math.floor(0.025 * resamples)], high: values[Math.ceil(0.975 * resamples) - 1] };
}

/** Mean of `a - b` over paired per-item scores, with a bootstrap interval. */
export function pairedDifference(a: readonly number[], b: readonly number[], seed: number, resamples = 1000): Interval {
  const d = a.map((x, i) => x - b[i]);
  return bootstrap(
    d.length,
    (idx) => {
      let s = 0;
      for (let i = 0; i < idx.length; i++) s += d[idx[i]];
      return s / idx.length;
    },
    seed,
    resamples,
  );
}

export interface CalibrationBin {
  predicted: number;
  observed: number;
  count: number;
  /** Binomial standard error of `observed` at the predicted rate: noise to judge gaps against. */
  standardError: number;
}

/** Equal-count bins (deciles by default) of (probability, happened) pairs. */
export function calibrationTable(pairs: { p: number; hit: boolean }[], bins = 10): CalibrationBin[] {
  const sorted = [...pairs].sort((x, y) => x.p - y.p);
  const out: CalibrationBin[] = [];
  for (let b = 0; b < bins; b++) {
    const slice = sorted.slice(Math.floor((b * sorted.length) / bins), Math.floor(((b + 1) * sorted.length) / bins));
    if (slice.length === 0) continue;
    const predicted = mean(slice.map((x) => x.p));
    out.push({
      predicted,
      observed: slice.filter((x) => x.hit).length / slice.length,
      count: slice.length,
      standardError: Math.sqrt((predicted * (1 - predicted)) / slice.length),
    });
  }
  return out;
}

/** Largest peak-to-trough fall of a running series (profit in units, or bankroll). */
export function maxDrawdown(series: readonly number[], relative = false): number {
  let peak = -Infinity;
  let worst = 0;
  for (const v of series) {
    peak = Math.max(peak, v);
    const dd = relative ? (peak > 0 ? (peak - v) / peak : 0) : peak - v;
    worst = Math.max(worst, dd);
  }
  return worst;
}
