/** Nearest-rank percentile; NaN for no samples. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function spread(values: number[]): Spread {
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : NaN };
}

export const ms = (v: number) => (Number.isNaN(v) ? '-' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
export const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
