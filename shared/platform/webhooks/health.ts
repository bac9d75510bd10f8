import { execAll, hashReply, key, redis, stringReply } from '../db/redis';

/**
 * Each endpoint's run of failed attempts and whether it is turned off, in Redis: the delivery
 * worker counts (every process's attempts, atomically), the account API reads and turns it back
 * on. Kept apart from the endpoint's document so that the worker never rewrites it (docs/webhooks.md).
 * A Redis that lost its data forgets runs and turns endpoints back on; the next failures count again.
 */

const healthKey = (endpointId: string) => key('webhooks', 'health', endpointId);

export interface EndpointHealth {
  run: number;
  sinceMs: number | null;
  lastError: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

function healthOf(h: Record<string, string>): EndpointHealth {
  const disabledAt = num(h.disabledAt);
  return {
    run: num(h.run) ?? 0,
    sinceMs: num(h.since),
    lastError: h.lastError ?? null,
    disabledAt: disabledAt === null ? null : new Date(disabledAt),
    disabledReason: h.disabledReason ?? null,
  };
}

export async function healthOfEndpoints(ids: readonly string[]): Promise<Map<string, EndpointHealth>> {
  if (ids.length === 0) return new Map();
  const multi = redis().multi();
  for (const id of ids) multi.hgetall(healthKey(id));
  const replies = await execAll(multi, 'webhook health');
  return new Map(ids.map((id, i) => [id, healthOf(hashReply(replies[i]))]));
}

/** One more failed attempt in a row; the run as it is now. */
export async function recordEndpointFailure(id: string, nowMs: number, error: string): Promise<{ run: number; sinceMs: number | null }> {
  const k = healthKey(id);
  const [run, , , since] = await execAll(redis().multi().hincrby(k, 'run', 1).hsetnx(k, 'since', String(nowMs)).hset(k, 'lastError', error.slice(0, 300)).hget(k, 'since'), 'webhook health');
  return { run: Number(run), sinceMs: num(stringReply(since) ?? undefined) };
}

/** A delivered attempt ends the run. */
export async function recordEndpointSuccess(id: string): Promise<void> {
  await redis().hdel(healthKey(id), 'run', 'since', 'lastError');
}

export async function disableEndpoint(id: string, nowMs: number, reason: string): Promise<void> {
  await redis().hset(healthKey(id), 'disabledAt', String(nowMs), 'disabledReason', reason.slice(0, 500));
}

/** Turned back on, its run forgotten. */
export async function enableEndpoint(id: string): Promise<void> {
  await redis().del(healthKey(id));
}

const cursorKey = () => key('webhooks', 'feed-cursor');

/** The last change feed entry the webhook fan-out handled. */
export async function feedCursor(): Promise<string | null> {
  return redis().get(cursorKey());
}

export async function setFeedCursor(id: string): Promise<void> {
  await redis().set(cursorKey(), id);
}
