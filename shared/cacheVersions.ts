import { key, redis } from './db/redis';

/**
 * The cache-invalidation contract between ingestion (writer) and the read API (reader):
 * every cached page key includes the current version of each collection it reads, and the
 * ingest worker increments a collection's version after writing to it. A bumped version makes
 * every older cached page unreachable at once (they expire on their own TTL). The same
 * collections are announced on a pub/sub channel for in-process caches.
 */
export const CACHE_COLLECTIONS = ['events', 'live', 'competitions', 'regions', 'teams'] as const;
export type CacheCollection = (typeof CACHE_COLLECTIONS)[number];

export function cacheVersionKey(collection: CacheCollection): string {
  return key('cache', 'version', collection);
}

export function cacheInvalidationChannel(): string {
  return key('cache', 'invalidate');
}

/** Current versions (0 when never bumped), for building cache keys. */
export async function cacheVersions(collections: readonly CacheCollection[]): Promise<Record<CacheCollection, number>> {
  const values = await redis().mget(...collections.map(cacheVersionKey));
  const out = {} as Record<CacheCollection, number>;
  collections.forEach((c, i) => (out[c] = Number(values[i] ?? 0)));
  return out;
}

export async function bumpCacheVersions(collections: Iterable<CacheCollection>): Promise<void> {
  const list = [...new Set(collections)];
  if (list.length === 0) return;
  const m = redis().multi();
  for (const c of list) m.incr(cacheVersionKey(c));
  m.publish(cacheInvalidationChannel(), JSON.stringify(list));
  await m.exec();
}
