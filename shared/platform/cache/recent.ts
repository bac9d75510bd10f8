import { processMemo } from '../processScope';

/**
 * A value the store is slow to give, reused for a while in this process: when computing it took
 * `slowMs` or more, the result serves every caller for the next `ttlMs`, and after that it is
 * still served while one recomputation runs (so a store slower than the caller's patience still
 * gets its figure shown, one computation late). A quick answer is not kept, so a fast store
 * (MongoDB, a small database) always answers fresh. Concurrent callers share one computation.
 * For figures that inform and may lag by seconds (the count shown beside an event, the health
 * document's overdue settlements): on FerretDB a count reads every matching document whole.
 */
interface Entry<V> {
  value: Promise<V>;
  /** Fresh until then; Infinity while the first computation runs. */
  until: number;
  refreshing: boolean;
}

export function recent<K, V>(ttlMs: number, compute: (key: K) => Promise<V>, slowMs = 250, maxKeys = 1000): (key: K) => Promise<V> {
  // In the process scope: a test or bench that wipes the store renews it (shared/platform/processScope.ts).
  const kept = processMemo(() => new Map<K, Entry<V>>());

  /** Runs one computation; keeps its result in `entry` when it was slow, else forgets the key. */
  const run = (key: K, entry: Entry<V>, onFailure: () => void): Promise<V> => {
    const started = Date.now();
    const value = compute(key);
    value.then(
      () => {
        entry.refreshing = false;
        if (Date.now() - started >= slowMs) {
          entry.value = value;
          entry.until = Date.now() + ttlMs;
        } else if (kept().get(key) === entry) kept().delete(key);
      },
      () => {
        entry.refreshing = false;
        onFailure();
      },
    );
    return value;
  };

  return (key: K) => {
    const entries = kept();
    const hit = entries.get(key);
    if (hit && Date.now() < hit.until) return hit.value;
    if (hit) {
      // Expired: the kept value answers while one refresh runs (a failed refresh keeps it).
      if (!hit.refreshing) {
        hit.refreshing = true;
        void run(key, hit, () => undefined).catch(() => undefined);
      }
      return hit.value;
    }
    if (entries.size >= maxKeys) entries.clear();
    const entry: Entry<V> = { value: Promise.resolve(undefined as V), until: Infinity, refreshing: true };
    entries.set(key, entry);
    entry.value = run(key, entry, () => entries.get(key) === entry && entries.delete(key)); // a failure is not remembered
    return entry.value;
  };
}
