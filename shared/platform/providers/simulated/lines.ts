/** A market an event carries, with its line fixed from the pre-match truth (ids stay stable all match long). */
export interface MarketSpec {
  sysname: string;
  line: number | null;
}

export const market = (sysname: string, line: number | null = null): MarketSpec => ({ sysname, line });
export const half = (x: number) => Math.floor(x) + 0.5;
export const quarter = (x: number) => Math.round(x * 4) / 4;
export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
