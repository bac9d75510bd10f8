/** Narrowing for values typed `unknown` (parsed JSON, a stored document's free-form field). Pure. */

/** Whether `v` is a non-null object (an array or a date too): reading any of its properties gives an unknown value. */
export function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null;
}

/** Whether `v` is a finite number (Number.isFinite, narrowing). */
export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
