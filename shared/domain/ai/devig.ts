/**
 * Removing the bookmaker's margin from a set of decimal odds covering one market's outcomes.
 * Proportional is the textbook baseline; power and Shin correct the favourite-longshot bias
 * (books load more margin onto longshots), which matters most for three-way soccer markets.
 */
export const DEVIG_METHODS = ['shin', 'proportional', 'power'] as const;
export type DevigMethod = (typeof DEVIG_METHODS)[number];

export interface DevigResult {
  probabilities: number[];
  /** The method that actually produced the probabilities (Shin may fall back). */
  method: DevigMethod;
  /** Booksum minus one: 0.025 is a 2.5 % overround. */
  margin: number;
  /** Shin's insider share z, or the power exponent k; absent for proportional. */
  parameter?: number;
}

function implied(odds: readonly number[]): number[] {
  if (odds.length < 2) throw new RangeError('devig needs at least two outcomes');
  for (const o of odds) {
    if (!Number.isFinite(o) || o <= 1) throw new RangeError(`invalid decimal odds ${o}`);
  }
  return odds.map((o) => 1 / o);
}

export function devigProportional(odds: readonly number[]): DevigResult {
  const q = implied(odds);
  const booksum = q.reduce((s, x) => s + x, 0);
  return { probabilities: q.map((x) => x / booksum), method: 'proportional', margin: booksum - 1 };
}

/** p_i = q_i^k with k chosen so the probabilities sum to one (k > 1 when there is a margin). */
export function devigPower(odds: readonly number[]): DevigResult | null {
  const q = implied(odds);
  const booksum = q.reduce((s, x) => s + x, 0);
  const sumPow = (k: number) => q.reduce((s, x) => s + Math.pow(x, k), 0);
  // sumPow is decreasing in k because every q_i < 1; bracket the root before bisecting.
  let lo = 0.2;
  let hi = 5;
  if (sumPow(lo) < 1 || sumPow(hi) > 1) return null;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (sumPow(mid) > 1) lo = mid;
    else hi = mid;
  }
  const k = (lo + hi) / 2;
  const p = q.map((x) => Math.pow(x, k));
  const s = p.reduce((a, b) => a + b, 0);
  return { probabilities: p.map((x) => x / s), method: 'power', margin: booksum - 1, parameter: k };
}

function shinProbabilities(q: readonly number[], booksum: number, z: number): number[] {
  return q.map((x) => (Math.sqrt(z * z + (4 * (1 - z) * x * x) / booksum) - z) / (2 * (1 - z)));
}

/**
 * Shin (1993): the margin protects the book against a share z of insiders. Solved by bisection
 * on z, which works for two-way markets too (the usual fixed-point iteration divides by n - 2).
 * Returns null when there is no root in (0, 0.5): no margin, or odds no insider model explains.
 */
export function devigShinStrict(odds: readonly number[]): DevigResult | null {
  const q = implied(odds);
  const booksum = q.reduce((s, x) => s + x, 0);
  if (booksum <= 1) return null;
  const excess = (z: number) => shinProbabilities(q, booksum, z).reduce((s, x) => s + x, 0) - 1;
  let lo = 0;
  let hi = 0.5;
  if (!(excess(lo) > 0) || !(excess(hi) < 0)) return null;
  for (let i = 0; i < 200 && hi - lo > 1e-14; i++) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) lo = mid;
    else hi = mid;
  }
  const z = (lo + hi) / 2;
  if (Math.abs(excess(z)) > 1e-9) return null;
  const p = shinProbabilities(q, booksum, z);
  const s = p.reduce((a, b) => a + b, 0);
  return { probabilities: p.map((x) => x / s), method: 'shin', margin: booksum - 1, parameter: z };
}

/** Shin, falling back to power and then proportional; `method` says which one answered. */
export function devigShin(odds: readonly number[]): DevigResult {
  return devigShinStrict(odds) ?? devigPower(odds) ?? devigProportional(odds);
}

/**
 * The fair probabilities by `method` (the model's setting, AI_DEVIG), each falling back as far as
 * proportional; odds without a margin have no bias to correct and are only rescaled.
 */
export function devig(odds: readonly number[], method: DevigMethod = 'shin'): DevigResult {
  if (method === 'proportional' || implied(odds).reduce((s, x) => s + x, 0) <= 1) return devigProportional(odds);
  if (method === 'power') return devigPower(odds) ?? devigProportional(odds);
  return devigShin(odds);
}
