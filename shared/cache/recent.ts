/**
 * A value the store is slow to give, reused for a while in this process: when computing it took
 * `slowMs` or more, the result serves every caller for the next `ttlMs`; a quick answer is not
 * kept, so a fast store (MongoDB, a small database) always answers fresh. Concurrent callers share
 * one computation either way. For figures that inform and may lag by seconds (the count shown
 * beside an event, the health document's overdue settlements): on FerretDB a count reads every
 * matching document whole.
 */
export function recent<K, V>(ttlMs: number, compute: (key: K) => Promise<V>, slowMs = 250, maxKeys = 1000): (key: K) => Promise<V> {
  const entries = new Map<K, { until: number; value: Promise<V> }>();
  return (key: K) => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && now < hit.until) return hit.value;
    if (entries.size >= maxKeys) entries.clear();
    const entry = { until: Infinity, value: compute(key) }; // in flight: shared until it settles
    entries.set(key, entry);
    const forget = () => entries.get(key) === entry && entries.delete(key);
    entry.value.then(
      () => {
        const took = Date.now() - now;
        if (took >= slowMs) entry.until = Date.now() + ttlMs;
        else forget();
      },
      forget, // a failure is not remembered: the next caller tries again
    );
    return entry.value;
  };
}
