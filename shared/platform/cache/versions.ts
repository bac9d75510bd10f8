import { CACHE_SCOPES, type CacheScope } from '../../domain/cacheScopes';
import { luaScript, replyList } from '../db/luaScript';
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
 *
 * Each version carries the time it became current (`version-at:<scope>`, "<version> <epoch ms>",
 * written in the same step as the bump, here and by the listing's script): what a test key may
 * read is measured by it (api/cache/testSnapshots.ts, docs/metering.md).
 */
export { CACHE_SCOPES, type CacheScope } from '../../domain/cacheScopes';

/**
 * Where every bump is announced ("<scope> <version>"), in the step that makes it: a web process
 * keeps the versions it heard (versionFeed.ts) for the reads it answers without asking Redis.
 */
export function cacheVersionChannel(): string {
  return key(tag('cache'), 'versions-changed');
}

const bumpedHere = new Set<(scope: CacheScope, version: string) => void>();

/**
 * Told of every bump this process makes, as it returns (versionFeed.ts): a read this process
 * answers after its own write sees the write, whenever the announcement arrives.
 */
export function onBumpHere(listener: (scope: CacheScope, version: string) => void): void {
  bumpedHere.add(listener);
}

/** A bump this process made: its listeners told. */
export function bumpedInThisProcess(scope: CacheScope, version: string): void {
  for (const l of bumpedHere) l(scope, version);
}

/** One hash tag for every scope (read together, bumped together) and the listing (shared/platform/listing/store.ts). */
export function cacheVersionKey(scope: CacheScope): string {
  return key(tag('cache'), 'version', scope);
}

/** When the scope's current version became current: "<version> <epoch ms>" (same hash tag as the version). */
export function cacheVersionAtKey(scope: CacheScope): string {
  return key(tag('cache'), 'version-at', scope);
}

// KEYS: version, version-at of every scope (CACHE_SCOPES' order). ARGV: now (ms), the channel,
// then per scope: its name and '1' to bump it. Returns each bumped scope and its new version.
const BUMP = luaScript(
  `
local out = {}
for i = 3, #ARGV, 2 do
  if ARGV[i + 1] == '1' then
    local k = i - 2
    local v = redis.call('INCR', KEYS[k])
    redis.call('SET', KEYS[k + 1], v .. ' ' .. ARGV[1])
    redis.call('PUBLISH', ARGV[2], ARGV[i] .. ' ' .. v)
    out[#out + 1] = ARGV[i]
    out[#out + 1] = v
  end
end
return out
`,
  CACHE_SCOPES.length * 2,
);

/** Marks the scopes' data as changed: every cached page rendered from them is stale at once. */
export async function bumpCacheVersion(...scopes: CacheScope[]): Promise<void> {
  if (!scopes.length) return;
  const keys = CACHE_SCOPES.flatMap((s) => [cacheVersionKey(s), cacheVersionAtKey(s)]);
  const bumped = replyList(await BUMP(redis(), ...keys, Date.now(), cacheVersionChannel(), ...CACHE_SCOPES.flatMap((s) => [s, scopes.includes(s) ? '1' : '0'])));
  for (let i = 0; i < bumped.length; i += 2) bumpedInThisProcess(bumped[i] as CacheScope, String(bumped[i + 1]));
}

/**
 * The scopes' versions as of now (the string the page cache tags its pages with) and since when
 * that combination has been current: the latest of the times its versions became current. A
 * version whose time is unknown (bumped by code that did not record it, or Redis lost the key)
 * is taken as current from now on, and that time recorded: never older than it is.
 */
export async function cacheVersionsSince(scopes: readonly CacheScope[], now = Date.now()): Promise<{ versions: string; since: number }> {
  const values = await redis().mget(...scopes.map(cacheVersionKey), ...scopes.map(cacheVersionAtKey));
  let since = 0;
  const versions = scopes.map((scope, i) => {
    const version = values[i] ?? '0';
    const [atVersion, ms] = (values[scopes.length + i] ?? '').split(' ');
    if (atVersion === version && Number(ms) > 0) since = Math.max(since, Number(ms));
    else {
      since = Math.max(since, now);
      // Another reader's or a writer's later time may land after this one: the time only moves later.
      void redis()
        .set(cacheVersionAtKey(scope), `${version} ${now}`)
        .catch(() => undefined);
    }
    return version;
  });
  return { versions: versions.join('.'), since };
}
