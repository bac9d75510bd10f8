/**
 * Axis ticks a reader can count with: steps of 1, 2 or 5 times a power of ten, the axis widened to
 * whole steps around the data, and whole steps for what comes in wholes (a count of bets has no
 * 3.8). A chart draws its values against `min`..`max`, so every tick sits on a gridline.
 */

export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
  /** Decimals that write every tick exactly (0 for a whole step). */
  decimals: number;
}

/** The smallest 1, 2 or 5 x 10^k at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  // Floating error (0.30000000000000004 / 0.1) must not push 3 to the next step.
  const m = raw / p;
  const mult = [1, 2, 5, 10].find((x) => x >= m - 1e-9) ?? 10;
  return mult * p;
}

const decimalsOf = (step: number) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

/**
 * Ticks covering `lo`..`hi` in at most `maxTicks` intervals. `whole`: counts, so the step is a
 * whole number. An empty span (lo = hi) is widened to one step around it.
 */
export function niceTicks(lo: number, hi: number, opts: { maxTicks?: number; whole?: boolean } = {}): Ticks {
  const maxTicks = Math.max(1, Math.floor(opts.maxTicks ?? 5));
  let a = Number.isFinite(lo) ? lo : 0;
  let b = Number.isFinite(hi) ? hi : 0;
  if (a > b) [a, b] = [b, a];
  if (a === b) {
    const pad = a === 0 ? 1 : niceStep(Math.abs(a) / maxTicks);
    a -= a === 0 ? 0 : pad;
    b += pad;
  }
  let step = niceStep((b - a) / maxTicks);
  if (opts.whole) step = Math.max(1, Math.round(step));
  // Widening to whole steps can need one interval more than asked: take the next step then.
  for (;;) {
    const min = Math.floor(a / step + 1e-9) * step;
    const max = Math.ceil(b / step - 1e-9) * step;
    if (Math.round((max - min) / step) <= maxTicks) {
      const decimals = decimalsOf(step);
      const n = Math.round((max - min) / step);
      const values = Array.from({ length: n + 1 }, (_, i) => Number((min + i * step).toFixed(decimals)));
      return { min: values[0], max: values[n], step, values, decimals };
    }
    step = niceStep(step * 1.5);
  }
}

/** A tick's label: as many decimals as the step needs, no more ("0.2", "10", "-2.5"). */
export const tickLabel = (v: number, t: Pick<Ticks, 'decimals'>): string => (Object.is(v, -0) ? 0 : v).toFixed(t.decimals);
