/**
 * The canonical serialization of a committed record (docs/track-record.md, "Canonical form"):
 * the one string that is hashed, stored and served, so a verifier never re-serializes anything.
 *
 * - objects: keys sorted by UTF-16 code unit (plain `sort()`), members with `undefined` left out;
 * - arrays: in order;
 * - numbers: finite, rounded to 6 decimals (half away from zero), shortest form, -0 as 0, never an
 *   exponent (|x| < 1e15 is enforced, and anything below 1e-6 rounds to 0);
 * - strings: JSON string escaping (quote, backslash, control characters), everything else as UTF-8;
 * - dates: ISO 8601 UTC with milliseconds, as a string; booleans and null as in JSON;
 * - no whitespace. The hash input is the UTF-8 encoding of the result.
 */
export type CanonicalInput = null | boolean | number | string | Date | readonly CanonicalInput[] | { readonly [k: string]: CanonicalInput | undefined };

export class CanonicalError extends Error {
  override name = 'CanonicalError';
}

const MAX_ABS = 1e15;

export function canonicalNumber(x: number): string {
  if (!Number.isFinite(x)) throw new CanonicalError(`not a finite number: ${x}`);
  if (Math.abs(x) >= MAX_ABS) throw new CanonicalError(`number too large for the canonical form: ${x}`);
  const rounded = Math.sign(x) * Math.round(Math.abs(x) * 1e6);
  const n = rounded / 1e6;
  return Object.is(n, -0) || n === 0 ? '0' : String(n);
}

export function canonicalize(value: CanonicalInput): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return canonicalNumber(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new CanonicalError('invalid date');
    return JSON.stringify(value.toISOString());
  }
  if (isList(value)) return `[${value.map(canonicalize).join(',')}]`;
  const members = Object.entries(value)
    .filter((m): m is [string, CanonicalInput] => m[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${canonicalize(v)}`);
  return `{${members.join(',')}}`;
}

/** Array.isArray, narrowing to the readonly list of the union (the built-in narrows to any[] and leaves the list in the else branch). */
function isList(value: CanonicalInput): value is readonly CanonicalInput[] {
  return Array.isArray(value);
}
