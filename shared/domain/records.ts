/** Narrowing for values typed `unknown` (parsed JSON, a stored document's free-form field). Pure. */

/** Whether `v` is a non-null object (an array or a date too): reading any of its properties gives an unknown value. */
export function isRecord(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null;
}

/** Whether `v` is a finite number (Number.isFinite, narrowing). */
export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** The value `map` holds for `key`, where the caller built the map to hold every key it asks: a missing one is a bug, and throws. */
export function valueOf<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const v = map.get(key);
  if (v === undefined) throw new Error(`no entry for ${String(key)}`);
  return v;
}
