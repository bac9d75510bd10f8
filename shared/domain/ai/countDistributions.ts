/**
 * Count distributions shared by the sport models, corners and cards. Pmfs are arrays indexed by
 * count from zero, truncated where the tail is negligible and renormalised.
 */
const TAIL = 1e-12;

/** Poisson pmf up to `max` (default: far enough that the tail beyond it is below 1e-12). */
export function poissonPmf(mean: number, max?: number): number[] {
  if (!(mean >= 0) || !Number.isFinite(mean)) throw new RangeError(`invalid Poisson mean ${mean}`);
  const limit = max ?? Math.ceil(mean + 12 * Math.sqrt(mean) + 12);
  const out = new Array<number>(limit + 1).fill(0);
  if (mean === 0) {
    out[0] = 1;
    return out;
  }
  // Recurrence from the mode outward keeps large means (basketball, handball) from underflowing.
  const mode = Math.min(limit, Math.floor(mean));
  out[mode] = Math.exp(-mean + mode * Math.log(mean) - logFactorial(mode));
  for (let k = mode + 1; k <= limit; k++) out[k] = (out[k - 1] * mean) / k;
  for (let k = mode - 1; k >= 0; k--) out[k] = (out[k + 1] * (k + 1)) / mean;
  return normalize(out);
}

/**
 * Negative binomial with the given mean and dispersion r (variance = mean + mean^2 / r);
 * r = Infinity is Poisson. Used where counts are overdispersed (baseball runs, cards).
 */
export function negBinomialPmf(mean: number, dispersion: number, max?: number): number[] {
  if (!Number.isFinite(dispersion)) return poissonPmf(mean, max);
  if (!(mean > 0) || !(dispersion > 0)) throw new RangeError(`invalid negative binomial (${mean}, ${dispersion})`);
  const variance = mean + (mean * mean) / dispersion;
  const limit = max ?? Math.ceil(mean + 14 * Math.sqrt(variance) + 12);
  const q = dispersion / (dispersion + mean);
  const out = new Array<number>(limit + 1);
  out[0] = Math.pow(q, dispersion);
  for (let k = 1; k <= limit; k++) out[k] = (out[k - 1] * (k - 1 + dispersion) * (1 - q)) / k;
  return normalize(out);
}

export function convolve(a: number[], b: number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  for (let i = 0; i < a.length; i++) {
    if (a[i] < TAIL) continue;
    for (let j = 0; j < b.length; j++) out[i + j] += a[i] * b[j];
  }
  return out;
}

export function normalize(p: number[]): number[] {
  const s = p.reduce((x, y) => x + y, 0);
  return p.map((x) => x / s);
}

const LOG_FACT: number[] = [0];
export function logFactorial(n: number): number {
  for (let k = LOG_FACT.length; k <= n; k++) LOG_FACT[k] = LOG_FACT[k - 1] + Math.log(k);
  return LOG_FACT[n];
}

/** Standard normal cdf (Abramowitz-Stegun 7.1.26 through erf; error below 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}
