/**
 * Seeded randomness: the same seed always gives the same simulation, so stored match
 * simulations and backtest bootstrap intervals are reproducible.
 */
export type Rng = () => number;

/** mulberry32: 32-bit state, fast, good enough for Monte Carlo of match scores. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Knuth's multiplication method for small means, a normal approximation beyond 50. */
export function samplePoisson(rng: Rng, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * sampleNormal(rng)));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}

export function sampleNormal(rng: Rng): number {
  let u = rng();
  while (u <= 1e-300) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** Index drawn from unnormalised weights by inverse cdf over their running sum. */
export function makeCategorical(weights: readonly number[]): (rng: Rng) => number {
  const cdf = new Float64Array(weights.length);
  let s = 0;
  weights.forEach((w, i) => (cdf[i] = s += w));
  return (rng) => {
    const u = rng() * s;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
