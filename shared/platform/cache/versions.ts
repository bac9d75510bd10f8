import type { CacheScope } from '../../domain/cacheScopes';
import { key, redis, tag } from '../db/redis';

/**
 * The invalidation contract between writers (ingest, CLI corrections) and the API's page cache.
 * A cached page records the versions of the scopes it was rendered from; a writer INCRs a scope's
 * version AFTER its write is acknowledged, so the next request renders afresh (docs/read-api.md).
 *
 * - `events`: events (status, markets, prices, stats, liveStats, views excepted), LiveEventData
 *   and LiveOddsSnapshot documents.
 * - `competitions`: the reference documents: competitions, regions and teams.
 * - `ai`: what the AI worker and settlement write: recommendations (and their results),
 *   insights, featured picks.
 */
export { CACHE_SCOPES, type CacheScope } from '../../domain/cacheScopes';

/** One hash tag for every scope (read together, bumped together) and the listing (shared/platform/listing/store.ts). */
export function cacheVersionKey(scope: CacheScope): string {
  return key(tag('cache'), 'version', scope);
}

/** Marks the scopes' data as changed: every cached page rendered from them is stale at once. */
export async function bumpCacheVersion(...scopes: CacheScope[]): Promise<void> {
  if (!scopes.length) return;
  const multi = redis().multi();
  for (const scope of scopes) multi.incr(cacheVersionKey(scope));
  await multi.exec();
}
