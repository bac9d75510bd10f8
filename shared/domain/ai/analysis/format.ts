/** Number formatting shared by the analysis' sentences and stored figures. */
export const pct = (x: number, d = 1) => (100 * x).toFixed(d);

/** A formatted number in each locale (a decimal comma in es and pt). */
export const local = (x: string) => ({ en: x, es: x.replace('.', ','), pt: x.replace('.', ',') });

export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
