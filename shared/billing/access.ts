import { getConfig } from '../config';
import { key, redis } from '../db/redis';
import { findApiKeyForAccess } from '../db/repositories/accounts';
import { hashKey, type KeyMode } from './keys';

/**
 * Key check and rate limit in one Redis round trip. Key lookups are cached in Redis by hash (a
 * miss reads MongoDB); a revoke writes a tombstone over the cached entry, and the cache is only
 * ever filled with SET NX, so a lookup that raced a revoke cannot put the key back: a revoked key
 * is refused by every process from the moment the revoke returns.
 *
 * The rate limit is a token bucket per key (GCRA): `rps` requests per second sustained, bursts of
 * up to 2 * rps. Test keys get their own, tighter rate.
 */

const CACHE_TTL_S = 300;
/** Outlives any positive entry written before the revoke (CACHE_TTL_S), so none can resurface. */
const TOMBSTONE_TTL_S = 3600;
const REVOKED = 'revoked';
/**
 * A well-formed key no account holds. Remembered briefly so a stream of made-up keys costs one
 * MongoDB read per key a minute, not one per request. Safe: a key's hash can only be asked for
 * once its plaintext exists, and a new key's plaintext is random and unseen before it is stored.
 */
const UNKNOWN = 'unknown';
const UNKNOWN_TTL_S = 60;

const cacheKey = (hash: string) => key('apikey', hash);
const rateKey = (hash: string) => key('rate', hash);
const lastUsedKey = (hash: string) => key('apikey-used', hash);

// KEYS: cache, bucket, last-used. ARGV: live rps, test rps.
// Returns {0} miss, {-1} revoked, {1, value, remaining} allowed, {2, value, retryAfterMs} limited.
const SCRIPT = `
local v = redis.call('GET', KEYS[1])
if not v then return {0} end
if v == '${REVOKED}' or v == '${UNKNOWN}' then return {-1} end
local rps = tonumber(string.sub(v, 1, 4) == 'live' and ARGV[1] or ARGV[2])
local burst = rps * 2
local interval = 1000 / rps
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[2]) or '0')
if tat < now then tat = now end
local tolerance = (burst - 1) * interval
if tat - now > tolerance then
  return {2, v, math.ceil(tat - now - tolerance)}
end
local newTat = tat + interval
redis.call('SET', KEYS[2], tostring(newTat), 'PX', math.ceil(newTat - now) + 1000)
redis.call('SET', KEYS[3], tostring(now), 'EX', 2592000)
return {1, v, math.floor((tolerance - (newTat - now)) / interval) + 1}
`;

export interface KeyIdentity {
  keyId: string;
  accountId: string;
  mode: KeyMode;
}

export type AccessResult =
  { outcome: 'invalid' } | { outcome: 'limited'; key: KeyIdentity; retryAfterS: number; limit: number } | { outcome: 'allowed'; key: KeyIdentity; remaining: number; limit: number };

const encode = (k: KeyIdentity) => `${k.mode}|${k.keyId}|${k.accountId}`;
function decode(v: string): KeyIdentity {
  const [mode, keyId, accountId] = v.split('|');
  return { mode: mode as KeyMode, keyId, accountId };
}

function runScript(hash: string): Promise<[number, string?, number?]> {
  const cfg = getConfig();
  return redis().eval(SCRIPT, 3, cacheKey(hash), rateKey(hash), lastUsedKey(hash), cfg.RATE_LIMIT_LIVE_RPS, cfg.RATE_LIMIT_TEST_RPS) as Promise<[number, string?, number?]>;
}

/** Checks a well-formed plaintext key and takes one token from its bucket. */
export async function checkAccess(plaintext: string): Promise<AccessResult> {
  const hash = hashKey(plaintext);
  let r = await runScript(hash);
  if (r[0] === 0) {
    const doc = await findApiKeyForAccess(hash);
    if (!doc) {
      await redis().set(cacheKey(hash), UNKNOWN, 'EX', UNKNOWN_TTL_S, 'NX');
      return { outcome: 'invalid' };
    }
    const value = doc.revokedAt ? REVOKED : encode({ keyId: doc._id, accountId: doc.accountId, mode: doc.mode });
    await redis().set(cacheKey(hash), value, 'EX', doc.revokedAt ? TOMBSTONE_TTL_S : CACHE_TTL_S, 'NX');
    r = await runScript(hash);
    if (r[0] === 0) return { outcome: 'invalid' }; // evicted in between: refuse rather than loop
  }
  if (r[0] === -1) return { outcome: 'invalid' };
  const identity = decode(r[1]!);
  const cfg = getConfig();
  const limit = (identity.mode === 'live' ? cfg.RATE_LIMIT_LIVE_RPS : cfg.RATE_LIMIT_TEST_RPS) * 2;
  if (r[0] === 2) return { outcome: 'limited', key: identity, retryAfterS: Math.max(1, Math.ceil(Number(r[2]) / 1000)), limit };
  return { outcome: 'allowed', key: identity, remaining: Number(r[2]), limit };
}

/** Called by revoke after MongoDB says revoked: every process refuses the key from now on. */
export async function tombstone(hash: string): Promise<void> {
  await redis().set(cacheKey(hash), REVOKED, 'EX', TOMBSTONE_TTL_S);
}

export async function lastUsed(hashes: string[]): Promise<(Date | null)[]> {
  if (hashes.length === 0) return [];
  const values = await redis().mget(...hashes.map(lastUsedKey));
  return values.map((v) => (v ? new Date(Number(v)) : null));
}
