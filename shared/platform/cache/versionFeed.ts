import { CACHE_SCOPES, type CacheScope } from '../../domain/cacheScopes';
import { createRedis, redis, type RedisClient } from '../db/redis';
import { cacheVersionChannel, cacheVersionKey } from './versions';

/**
 * The page cache's versions as this process last heard them, for the reads it answers without a
 * Redis round trip (api/hot/frontDoor.ts). Every bump is published in the step that makes it
 * (versions.ts, the listing's script); a subscriber applies each announcement as it comes, in
 * Redis's order. The versions are trusted only while the subscription stands and after a first
 * read of them made once it stood: a lost connection forgets them (whatever was bumped meanwhile
 * was never heard), and the next read asks Redis again.
 *
 * A version changed without an announcement (a flush, a key deleted by hand) is caught by a read
 * of every version each REFRESH_MS; where an announcement for a scope arrived while that read was
 * in flight, the announcement wins (an older reply never undoes a newer bump).
 */

const REFRESH_MS = 1000;

interface Feed {
  client: RedisClient;
  versions: Map<CacheScope, string> | undefined;
  subscribed: boolean;
  /** Announcements heard per scope, and the last one's version. */
  heard: Map<CacheScope, number>;
  lastHeard: Map<CacheScope, string>;
  timer: NodeJS.Timeout;
}

let feed: Feed | undefined;

/** Announcements applied, full reads applied (tests, benches). */
export const versionFeedStats = { announcements: 0, refreshes: 0 };

function isScope(s: string): s is CacheScope {
  return (CACHE_SCOPES as readonly string[]).includes(s);
}

async function refresh(f: Feed): Promise<void> {
  if (!f.subscribed) return;
  const asked = new Map(f.heard);
  const values = await redis().mget(...CACHE_SCOPES.map(cacheVersionKey));
  if (feed !== f || !f.subscribed) return;
  const next = new Map<CacheScope, string>();
  // An announcement heard while the read was in flight is at least as new as what it read.
  CACHE_SCOPES.forEach((scope, i) => next.set(scope, f.heard.get(scope) === asked.get(scope) ? (values[i] ?? '0') : f.lastHeard.get(scope)!));
  f.versions = next;
  versionFeedStats.refreshes++;
}

/** Starts listening (idempotent); the versions are known once the subscription and a first read stand. */
export function startVersionFeed(): void {
  if (feed && feed.client.status !== 'end') return;
  if (feed) clearInterval(feed.timer);
  const client = createRedis('versions', { enableAutoPipelining: false });
  const f: Feed = { client, versions: undefined, subscribed: false, heard: new Map(), lastHeard: new Map(), timer: setInterval(() => void refresh(f).catch(() => undefined), REFRESH_MS) };
  f.timer.unref();
  feed = f;
  const forget = () => {
    f.subscribed = false;
    f.versions = undefined;
  };
  client.on('close', forget);
  client.on('reconnecting', forget);
  client.on('message', (_channel: string, message: string) => {
    const [scope, version] = message.split(' ');
    if (!isScope(scope) || !version) return;
    f.heard.set(scope, (f.heard.get(scope) ?? 0) + 1);
    f.lastHeard.set(scope, version);
    if (!f.versions) return;
    f.versions.set(scope, version);
    versionFeedStats.announcements++;
  });
  client.on('ready', () => {
    client.subscribe(cacheVersionChannel()).then(
      () => {
        f.subscribed = true;
        return refresh(f);
      },
      () => undefined,
    );
  });
}

/** The scopes' versions as the page cache tags its pages, or undefined when this process cannot vouch for them. */
export function heardVersions(scopes: readonly CacheScope[]): string | undefined {
  const versions = feed?.versions;
  if (!versions) return undefined;
  let out = '';
  for (let i = 0; i < scopes.length; i++) out += (i ? '.' : '') + (versions.get(scopes[i]) ?? '0');
  return out;
}

export async function stopVersionFeed(): Promise<void> {
  const f = feed;
  if (!f) return;
  feed = undefined;
  clearInterval(f.timer);
  f.client.disconnect();
  await Promise.resolve();
}
