import { CACHE_SCOPES, type CacheScope } from '../../domain/cacheScopes';
import { createRedis, type RedisClient } from '../db/redis';
import { cacheVersionChannel, cacheVersionKey, onBumpHere } from './versions';

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
  /** The channel it listens on: another deployment prefix (a test file of its own) is another feed. */
  channel: string;
  client: RedisClient;
  /** Its own connection for the periodic read: closed with the others (closeAllRedis), which ends the feed. */
  reader: RedisClient;
  versions: Map<CacheScope, string> | undefined;
  subscribed: boolean;
  /** Announcements heard per scope, and the last one's version. */
  heard: Map<CacheScope, number>;
  lastHeard: Map<CacheScope, string>;
  timer: NodeJS.Timeout;
}

let feed: Feed | undefined;

function isScope(s: string): s is CacheScope {
  return (CACHE_SCOPES as readonly string[]).includes(s);
}

async function refresh(f: Feed): Promise<void> {
  if (f.reader.status === 'end' || f.client.status === 'end') {
    clearInterval(f.timer);
    f.versions = undefined;
    return;
  }
  if (!f.subscribed) return;
  const asked = new Map(f.heard);
  const values = await f.reader.mget(...CACHE_SCOPES.map(cacheVersionKey));
  if (feed !== f || !f.subscribed) return;
  const next = new Map<CacheScope, string>();
  // An announcement heard while the read was in flight is at least as new as what it read.
  CACHE_SCOPES.forEach((scope, i) => next.set(scope, f.heard.get(scope) === asked.get(scope) ? (values[i] ?? '0') : f.lastHeard.get(scope)!));
  f.versions = next;
}

/** Starts listening (idempotent); the versions are known once the subscription and a first read stand. */
export function startVersionFeed(): void {
  const channel = cacheVersionChannel();
  if (feed && feed.channel === channel && feed.client.status !== 'end' && feed.reader.status !== 'end') return;
  if (feed) {
    clearInterval(feed.timer);
    feed.client.disconnect();
    feed.reader.disconnect();
  }
  const client = createRedis('versions', { enableAutoPipelining: false });
  const reader = createRedis('versions-read', { enableAutoPipelining: false });
  const f: Feed = {
    channel,
    client,
    reader,
    versions: undefined,
    subscribed: false,
    heard: new Map(),
    lastHeard: new Map(),
    timer: setInterval(() => void refresh(f).catch(() => undefined), REFRESH_MS),
  };
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
    if (isScope(scope) && version) hear(f, scope, version);
  });
  client.on('ready', () => {
    client.subscribe(channel).then(
      () => {
        f.subscribed = true;
        return refresh(f);
      },
      () => undefined,
    );
  });
}

function hear(f: Feed, scope: CacheScope, version: string): void {
  // A version is a counter: an announcement older than one already heard (this process's own
  // bump, applied as it returned) changes nothing. A reset (Redis flushed) comes from the refresh.
  const known = f.versions?.get(scope);
  if (known !== undefined && Number(version) <= Number(known)) return;
  f.heard.set(scope, (f.heard.get(scope) ?? 0) + 1);
  f.lastHeard.set(scope, version);
  if (!f.versions) return;
  f.versions.set(scope, version);
}

// This process's own bumps are known as they return, before their announcement comes back.
onBumpHere((scope, version) => {
  if (feed && feed.channel === cacheVersionChannel()) hear(feed, scope, version);
});

/** The scopes' versions as the page cache tags its pages, or undefined when this process cannot vouch for them. */
export function heardVersions(scopes: readonly CacheScope[]): string | undefined {
  const f = feed;
  const versions = f?.versions;
  if (!f || !versions) return undefined;
  if (f.channel !== cacheVersionChannel()) {
    startVersionFeed();
    return undefined;
  }
  let out = '';
  for (let i = 0; i < scopes.length; i++) out += (i ? '.' : '') + (versions.get(scopes[i]) ?? '0');
  return out;
}
