import { luaScript, replyNumbers } from '../db/luaScript';
import { createHash } from 'node:crypto';
import { key, redis } from '../db/redis';

/**
 * Fixed-window counters in Redis, shared by every web process. `take` counts the attempt and
 * answers in one atomic step (INCR, then the window's expiry on the first), so a burst of any size
 * lets exactly `limit` attempts through per window: no check-then-count race. `release` gives an
 * attempt back (a login that succeeded is not a failure).
 */

// KEYS[1] counter. ARGV: limit, window seconds. Returns {count, ttl seconds}.
const TAKE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {n, ttl}
`;
const runTake = luaScript(TAKE, 1);

// Decrements while above zero (a release never makes room that was not taken).
const RELEASE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return n
`;
const runRelease = luaScript(RELEASE, 1);

/** An e-mail or address as it may appear in Redis: hashed, so none appears in key names or sets. */
export const hashIdentity = (identity: string): string => createHash('sha256').update(identity).digest('hex').slice(0, 32);

/** A counter's key. */
export const limitKey = (name: string, identity: string) => key('limit', name, hashIdentity(identity));

export interface Taken {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends (the Retry-After of a refusal). */
  retryAfterS: number;
}

/** Counts one attempt of `identity` against `limit` per `windowS`; allowed while the count is within it. */
export async function take(name: string, identity: string, limit: number, windowS: number): Promise<Taken> {
  const [count, ttl] = replyNumbers(await runTake(redis(), limitKey(name, identity), limit, windowS));
  return { allowed: count <= limit, count, retryAfterS: Math.max(1, ttl) };
}

/** Gives back one attempt taken (it turned out not to count). */
export async function release(name: string, identity: string): Promise<void> {
  await runRelease(redis(), limitKey(name, identity));
}

/** Forgets a counter (tests and operators). */
export async function resetLimit(name: string, identity: string): Promise<void> {
  await redis().del(limitKey(name, identity));
}
