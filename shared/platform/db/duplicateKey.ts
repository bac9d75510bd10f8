/**
 * The one duplicate-key check: true when a write failed only because a unique index already
 * holds the key (MongoDB and FerretDB both answer code 11000). A bulk write's error counts when
 * every one of its write errors is a duplicate key (the driver gives one object or a list).
 * Idempotent writes rely on it: a replayed insert that finds its key is a success, anything
 * else is a failure.
 */
export function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: unknown; writeErrors?: { code?: unknown } | { code?: unknown }[] } | null | undefined;
  if (!e) return false;
  const writeErrors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
  return writeErrors.length ? writeErrors.every((w) => w.code === 11000) : e.code === 11000;
}
