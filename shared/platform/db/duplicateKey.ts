import { isRecord } from '../../domain/records';

/**
 * The one duplicate-key check: true when a write failed only because a unique index already
 * holds the key (MongoDB and FerretDB both answer code 11000). A bulk write's error counts when
 * every one of its write errors is a duplicate key (the driver gives one object or a list).
 * Idempotent writes rely on it: a replayed insert that finds its key is a success, anything
 * else is a failure. A write error carries its code itself (the driver's WriteError) or under
 * `err` (mongoose's Model.insertMany copies each WriteError into a plain object, which drops the
 * class's `code` getter and keeps `{ err: { code }, index }`).
 */
function codeOf(writeError: unknown): unknown {
  if (!isRecord(writeError)) return undefined;
  return writeError.code ?? (isRecord(writeError.err) ? writeError.err.code : undefined);
}

export function isDuplicateKey(err: unknown): boolean {
  if (!isRecord(err)) return false;
  const raw = err.writeErrors;
  const writeErrors: readonly unknown[] = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return writeErrors.length ? writeErrors.every((w) => codeOf(w) === 11000) : err.code === 11000;
}
