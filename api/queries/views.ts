import { getMany, key, redis } from '../../shared/platform/db/redis';
import { findViewsOfEvents, incrementEventViews, raiseEventViewsTo } from '../../shared/platform/db/repositories/eventViews';
import { tryWithLock } from '../../shared/platform/locks';
import { childLogger } from '../../shared/platform/logger';

/** How long a view counter lives in Redis before it is seeded again from MongoDB. */
const COUNTER_TTL_S = 7 * 24 * 3600;
const FLUSH_LOCK_MS = 5000;

export const viewCounterKey = (eventId: string) => key('views', eventId);
const flushLockKey = (eventId: string) => key('views', 'flush', eventId);

/**
 * Raises the stored count to the counter, one writer per event at a time. FerretDB 1.x applies
 * every update (even $inc and $max) as an unlocked read-modify-write, so two concurrent writes to
 * one document can lose one; serializing our writes and re-reading the counter after each keeps the
 * stored count exact. A view whose flush finds the lock taken leaves it to the holder, which
 * re-reads the counter after releasing.
 */
async function flushViews(eventId: string): Promise<void> {
  const r = redis();
  let written = -1;
  for (;;) {
    const held = await tryWithLock(r, flushLockKey(eventId), FLUSH_LOCK_MS, async () => {
      for (;;) {
        const current = Number(await r.get(viewCounterKey(eventId)));
        if (!(current > written)) break;
        await raiseEventViewsTo(eventId, current);
        written = current;
      }
    });
    if (!held.held) return;
    // A view counted while the lock was held relies on this check.
    if (!(Number(await r.get(viewCounterKey(eventId))) > written)) return;
  }
}

const flushing = new Set<Promise<void>>();

/** Resolves when every flush started by this process has written (graceful stop, tests). */
export async function drainViewFlushes(): Promise<void> {
  while (flushing.size) await Promise.all([...flushing]);
}

/**
 * Counts one view of an event and returns the count including it. The sequence comes from Redis
 * (SET NX seeded from the stored count, then INCR, in one MULTI), so concurrent views in any number
 * of processes each get their own number; the stored count (the event's own document in
 * eventviews, never the event, so that no write of ingest's is lost to it on FerretDB) is raised to
 * it with $max, which never lowers the count, after the answer: the writes of one event are
 * serialized, and under a burst of views on FerretDB they queued for seconds (up to 12 s in
 * bench:hostile when they rewrote the whole event), time no reader should wait for a counter. When
 * Redis is unreachable, MongoDB's $inc counts alone.
 */
export async function countView(eventId: string, storedViews: number): Promise<number> {
  const k = viewCounterKey(eventId);
  let n: number;
  try {
    const res = await redis().multi().set(k, String(storedViews), 'EX', COUNTER_TTL_S, 'NX').incr(k).exec();
    // The INCR's reply: [error, count] (no replies at all when the transaction was discarded).
    const [err, value] = res?.[1] ?? [new Error('the view counter transaction was discarded'), null];
    if (err) throw err;
    if (typeof value !== 'number') throw new Error('the view counter is not a number');
    n = value;
  } catch (err) {
    childLogger({ component: 'views' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'view counter unavailable: counting in MongoDB only');
    return incrementEventViews(eventId);
  }
  const flush: Promise<void> = flushViews(eventId)
    .catch((err: Error) => childLogger({ component: 'views' }).warn({ err: err.message, eventId }, 'view count not stored yet: the next view retries'))
    .finally(() => flushing.delete(flush));
  flushing.add(flush);
  return n;
}

/**
 * The view counts of these events as the detail view counts them: an event's counter in Redis
 * when it has one (the stored count follows it), else its stored count, which then seeds the
 * counter as a view would (SET NX: a view counted meanwhile wins). So a list reads the store only
 * for events it never showed since their counter expired, and shows the count a view just made.
 * Redis unreachable: the stored counts.
 */
export async function viewCountsOf(ids: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let counters: (string | null)[];
  try {
    counters = await getMany(redis(), ids.map(viewCounterKey));
  } catch {
    return findViewsOfEvents(ids);
  }
  const unknown: string[] = [];
  ids.forEach((id, i) => {
    const n = Number(counters[i]);
    if (counters[i] !== null && Number.isFinite(n)) out.set(id, n);
    else unknown.push(id);
  });
  if (unknown.length === 0) return out;
  const stored = await findViewsOfEvents(unknown);
  for (const id of unknown) out.set(id, stored.get(id) ?? 0);
  await Promise.all(unknown.map((id) => redis().set(viewCounterKey(id), String(out.get(id)), 'EX', COUNTER_TTL_S, 'NX'))).catch(() => undefined);
  return out;
}
