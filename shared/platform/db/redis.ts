import { Cluster, Redis, type ChainableCommander, type RedisOptions } from 'ioredis';
import { getConfig } from '../config';
import { childLogger } from '../logger';

/**
 * A connection to the one Redis (REDIS_URL) or to a Redis Cluster (REDIS_CLUSTER_NODES): the same
 * commands either way. On a cluster, the keys of one script, MULTI or multi-key command must share
 * a hash slot: `tag()` names the part of a key that picks it (docs/architecture.md, Redis keys).
 */
export type RedisClient = Redis | Cluster;

const clients = new Set<RedisClient>();

/**
 * BullMQ's production guide: a Redis that evicts keys drops queued jobs, so `maxmemory-policy`
 * must be `noeviction`. The policy of the Redis behind `client`, by CONFIG GET, else from INFO
 * (managed Redis often refuses CONFIG); undefined when neither tells.
 */
export async function evictionPolicy(client: RedisClient): Promise<string | undefined> {
  const viaConfig = await client.config('GET', 'maxmemory-policy').then(
    (reply) => (Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined),
    () => undefined,
  );
  if (viaConfig) return viaConfig;
  const info = await client.info('memory').catch(() => '');
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/** The warning line for a Redis whose policy is not noeviction (or could not be read); undefined when it is. */
export async function evictionPolicyWarning(client: RedisClient): Promise<string | undefined> {
  const policy = await evictionPolicy(client);
  if (policy === 'noeviction') return undefined;
  return policy
    ? `Redis maxmemory-policy is ${policy}, not noeviction: under memory pressure Redis may evict queued jobs, locks and balances; set maxmemory-policy noeviction`
    : 'Redis maxmemory-policy could not be checked (CONFIG GET and INFO refused): it must be noeviction, or Redis may evict queued jobs, locks and balances';
}

let policyChecked = false;

/** Once per process, at its first Redis connection: a Redis with another eviction policy gets a warning line. */
function checkPolicyOnce(client: RedisClient): void {
  if (policyChecked) return;
  policyChecked = true;
  client.once('ready', () => {
    void evictionPolicyWarning(client).then((warning) => warning && childLogger({ redis: 'policy' }).warn(warning));
  });
}

/**
 * A client's connection errors, one log line per outage: without a listener ioredis prints
 * "[ioredis] Unhandled error event" with a stack for every reconnect attempt while Redis is down.
 * Commands still fail or wait as their options say; this only reports.
 */
function reportErrors(client: RedisClient, purpose: string): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    childLogger({ redis: purpose }).warn({ err: err.message }, 'Redis connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (down) childLogger({ redis: purpose }).info('Redis connection back');
    down = false;
  });
}

/** `host:port` seed nodes as ioredis takes them. */
export function clusterNodes(list: readonly string[]): { host: string; port: number }[] {
  return list.map((hp) => {
    const at = hp.lastIndexOf(':');
    return { host: hp.slice(0, at), port: Number(hp.slice(at + 1)) };
  });
}

/**
 * A new connection. BullMQ workers block on their connection, so every queue and worker gets its
 * own; `maxRetriesPerRequest: null` is what BullMQ requires for them. With REDIS_CLUSTER_NODES, a
 * cluster client seeded from those nodes (it discovers the rest and follows slot moves), reading
 * and writing on the primaries.
 */
export function createRedis(purpose: string, options: RedisOptions = {}): RedisClient {
  const cfg = getConfig();
  const { enableAutoPipelining, ...rest } = options;
  const redisOptions: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true, connectionName: `${cfg.REDIS_PREFIX}:${purpose}`, ...rest };
  const client: RedisClient = cfg.REDIS_CLUSTER_NODES.length
    ? new Cluster(clusterNodes(cfg.REDIS_CLUSTER_NODES), { redisOptions, enableAutoPipelining, enableReadyCheck: true, scaleReads: 'master' })
    : new Redis(cfg.REDIS_URL, { ...redisOptions, enableAutoPipelining });
  clients.add(client);
  client.once('end', () => clients.delete(client));
  reportErrors(client, purpose);
  checkPolicyOnce(client);
  return client;
}

let shared: RedisClient | undefined;

/** The process's shared command connection (caches, counters, locks). */
export function redis(): RedisClient {
  // Commands on the shared client fail fast instead of queueing forever while Redis is down.
  // Auto-pipelining: the commands of one event-loop turn (many requests' key checks and debits)
  // go out in one socket write; measured, a write per command was the API's largest CPU cost.
  shared ??= createRedis('shared', { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  return shared;
}

/** A key in this deployment's namespace. */
export function key(...parts: (string | number)[]): string {
  return [getConfig().REDIS_PREFIX, ...parts].join(':');
}

/**
 * A key part in braces: a Redis Cluster places a key by the first `{...}` in it, so keys that a
 * script or MULTI uses together carry the same tag (`key(tag('feed'), 'changes')` is
 * `<prefix>:{feed}:changes`). Harmless on a single Redis.
 */
export function tag(...parts: (string | number)[]): string {
  return `{${parts.join(':')}}`;
}

/**
 * GET of many keys in one round trip: MGET on a single Redis; on a cluster, where MGET needs its
 * keys in one slot, a GET each (auto-pipelined per node on the shared client).
 */
export async function getMany(client: RedisClient, keys: readonly string[]): Promise<(string | null)[]> {
  if (keys.length === 0) return [];
  if (client instanceof Cluster) return Promise.all(keys.map((k) => client.get(k)));
  return client.mget(...keys);
}

/** Every key under `pattern` on every primary (SCAN answers for one node only on a cluster). */
export async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  const out: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      out.push(...found);
      cursor = next;
    } while (cursor !== '0');
  }
  return out;
}

export async function closeAllRedis(): Promise<void> {
  const all = [...clients];
  shared = undefined;
  await Promise.all(all.map((c) => c.quit().catch(() => c.disconnect())));
}

/** Runs a MULTI and gives its replies; a command's error rejects instead of hiding in the reply list. */
export async function execAll(multi: ChainableCommander, what = 'redis transaction'): Promise<unknown[]> {
  const replies = await multi.exec();
  if (!replies) throw new Error(`${what} aborted`);
  return replies.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}

/** A reply expected to be a string or nil (GET). */
export function stringReply(v: unknown): string | null {
  if (v === null || typeof v === 'string') return v;
  throw new TypeError(`expected a string reply, got ${typeof v}`);
}

/** A reply expected to be a hash (HGETALL). */
export function hashReply(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError('expected a hash reply');
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** A reply expected to be stream entries (XRANGE, XREVRANGE): [id, [field, value, ...]] each. */
export function streamEntriesReply(v: unknown): [id: string, fields: string[]][] {
  if (!Array.isArray(v)) throw new TypeError('expected stream entries');
  return v.map((e: unknown) => {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || !Array.isArray(e[1])) throw new TypeError('expected a stream entry');
    const fields: unknown[] = e[1];
    return [e[0], fields.map(String)];
  });
}
