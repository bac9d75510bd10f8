import { isRecord } from '../domain/records';

/*
 * What a thrown value says, read without assuming its class: drivers and libraries throw errors
 * with fields of their own (a code, counts, a response body), and a rejection may be no Error.
 */

/** A field of a thrown value (undefined when it is no object or has no such field). */
export function errorField(err: unknown, name: string): unknown {
  return isRecord(err) ? err[name] : undefined;
}

/** A numeric field of a thrown value (a driver's `code`, `index`, `insertedCount`). */
export function errorNumber(err: unknown, name: string): number | undefined {
  const v = errorField(err, name);
  return typeof v === 'number' ? v : undefined;
}

/** A string field of a thrown value (a `code` like ECONNRESET, a `codeName`). */
export function errorString(err: unknown, name: string): string | undefined {
  const v = errorField(err, name);
  return typeof v === 'string' ? v : undefined;
}

/** The message of a thrown value: an Error's, or the value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
