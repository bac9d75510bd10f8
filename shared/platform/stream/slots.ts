import { luaScript } from '../db/luaScript';
import { key, redis } from '../db/redis';

/**
 * The stream connections each key holds, across every web process: one sorted set per key, a
 * member per connection scored by when its slot expires (Redis's clock). A live connection
 * refreshes its slot with each heartbeat; a process that dies leaves slots that expire and are
 * dropped by the next acquire, so a crash never locks a key out for longer than the TTL.
 */

const slotsKey = (keyId: string) => key('stream', 'slots', keyId);

// KEYS: the key's slots. ARGV: connection id, limit, ttl ms. 1: taken; 0: the key holds `limit` already.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
return 1
`;
const runAcquire = luaScript(ACQUIRE, 1);

// KEYS: the key's slots. ARGV: connection id, ttl ms. Refreshes an existing slot only.
const REFRESH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2) end
return 1
`;
const runRefresh = luaScript(REFRESH, 1);

/** Takes a slot for the connection unless the key holds `limit` live ones already. */
export async function acquireSlot(keyId: string, connectionId: string, limit: number, ttlMs: number): Promise<boolean> {
  return Number(await runAcquire(redis(), slotsKey(keyId), connectionId, limit, Math.ceil(ttlMs))) === 1;
}

/** Keeps the connection's slot for another `ttlMs`. */
export async function refreshSlot(keyId: string, connectionId: string, ttlMs: number): Promise<void> {
  await runRefresh(redis(), slotsKey(keyId), connectionId, Math.ceil(ttlMs));
}

export async function releaseSlot(keyId: string, connectionId: string): Promise<void> {
  await redis().zrem(slotsKey(keyId), connectionId);
}

/** Slots the key holds now (expired ones not counted). */
export async function slotsHeld(keyId: string): Promise<number> {
  return redis().zcount(slotsKey(keyId), Date.now(), '+inf');
}
