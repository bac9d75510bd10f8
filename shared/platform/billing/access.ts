import { getConfig } from '../config';
import { luaScript, replyList } from '../db/luaScript';
import { balancePrefix, DEBIT_LUA, holdsKey, meterKey } from './credits';
import { redis } from '../db/redis';
import { atTurnEnd } from '../db/turn';
import { findApiKeyForAccess } from '../db/repositories/accounts';
import { hashKey, KEY_MODES, type KeyMode } from '../../domain/billing/keys';

/**
 * Key check and rate limit in one Redis round trip. Key lookups are cached in Redis by hash (a
 * miss reads MongoDB); a revoke writes a tombstone over the cached entry, and the cache is only
 * ever filled with SET NX, so a lookup that raced a revoke cannot put the key back: a revoked key
 * is refused by every process from the moment the revoke returns.
 *
 * The rate limit is a token bucket per key (GCRA): `rps` requests per second sustained, bursts of
 * up to 2 * rps. Test keys get their own, tighter rate. A second bucket holds all keys of one
 * account to ACCOUNT_RATE_LIMIT_RPS together, and the test keys of one account share a daily cap
 * (TEST_KEY_DAILY_REQUESTS): free requests are for building, not for running on.
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

// Under the metering's hash tag (meterKey): the script below uses them with the account's balance.
export const cacheKey = (hash: string) => meterKey('apikey', hash);
const rateKey = (hash: string) => meterKey('rate', hash);
const lastUsedKey = (hash: string) => meterKey('apikey-used', hash);
/** Set while a web process may spend a block of the key's requests from memory (blocks.ts): a revoke waits it out. */
export const blockOfKey = (hash: string) => meterKey('block-of', hash);

// KEYS: holds (the metering's slot). ARGV: live rps, test rps, account rps, key-cache prefix,
// key-bucket prefix, last-used prefix, account-bucket prefix, test-cap prefix, test cap per day,
// the UTC day, seconds to its end, balance key prefix, then per request: its key's hash, the
// debit's cost (0: none) and the request's ref.
// Returns per request: {0} miss, {-1} revoked, {1, value, remaining[, debit...]} allowed (a live
// key's request debited in the same step: shared/platform/billing/credits.ts DEBIT_LUA), {2,
// value, retryAfterMs} limited (the key's bucket or its account's), {3, value, retryAfterS} the
// account's test keys' daily cap. The account's keys are named by the cached value
// (mode|keyId|accountId), so the account's bucket and cap are found in the same step: nothing is
// counted unless everything allows the request. The requests of one turn of the event loop are
// checked by one run, one after the other, as separate runs would check them.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local holdsKey = KEYS[1]
local function gcra(bucket, rps)
  local interval = 1000 / rps
  local tolerance = (rps * 2 - 1) * interval
  local tat = tonumber(redis.call('GET', bucket) or '0')
  if tat < now then tat = now end
  if tat - now > tolerance then return nil, math.ceil(tat - now - tolerance) end
  return tat + interval, tolerance, interval
end
local function check(hash, cost, ref)
  local v = redis.call('GET', ARGV[4] .. hash)
  if not v then return {0} end
  if v == '${REVOKED}' or v == '${UNKNOWN}' then return {-1} end
  local mode = string.sub(v, 1, 4)
  local account = string.match(v, '^[^|]*|[^|]*|(.*)$')
  local keyBucket = ARGV[5] .. hash
  local keyTat, keyTol, keyInterval = gcra(keyBucket, tonumber(mode == 'live' and ARGV[1] or ARGV[2]))
  if not keyTat then return {2, v, keyTol} end
  local accountBucket = ARGV[7] .. account
  local accountTat, accountWait = gcra(accountBucket, tonumber(ARGV[3]))
  if not accountTat then return {2, v, accountWait} end
  if mode == 'test' then
    local capKey = ARGV[8] .. account .. ':' .. ARGV[10]
    local used = tonumber(redis.call('GET', capKey) or '0')
    if used >= tonumber(ARGV[9]) then return {3, v, tonumber(ARGV[11])} end
    redis.call('INCR', capKey)
    redis.call('EXPIRE', capKey, tonumber(ARGV[11]) + 3600)
  end
  redis.call('SET', keyBucket, tostring(keyTat), 'PX', math.ceil(keyTat - now) + 1000)
  redis.call('SET', accountBucket, tostring(accountTat), 'PX', math.ceil(accountTat - now) + 1000)
  redis.call('SET', ARGV[6] .. hash, tostring(now), 'EX', 2592000)
  local remaining = math.floor((keyTol - (keyTat - now)) / keyInterval) + 1
  if mode ~= 'live' or cost == 0 then return {1, v, remaining} end
  local balKey, member = ARGV[12] .. account, account .. '|' .. ref .. '|' .. cost
${DEBIT_LUA}
  return {1, v, remaining, unpack(debit)}
end
local out = {}
for i = 13, #ARGV, 3 do out[#out + 1] = check(ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]) end
return out
`;

const runAccess = luaScript(SCRIPT, 1);

export interface KeyIdentity {
  keyId: string;
  accountId: string;
  mode: KeyMode;
}

/** A live key's debit made with the key check: debited, refused on the balance, or no balance yet (seed it). */
export type AdmissionOutcome = { outcome: 'debited'; balance: number; topUpSeq: number } | { outcome: 'insufficient'; balance: number } | { outcome: 'unseeded' };

export type AccessResult =
  | { outcome: 'invalid' }
  | { outcome: 'limited'; key: KeyIdentity; retryAfterS: number; limit: number }
  | { outcome: 'capped'; key: KeyIdentity; retryAfterS: number; cap: number }
  | { outcome: 'allowed'; key: KeyIdentity; remaining: number; limit: number; admission?: AdmissionOutcome };

const encode = (k: KeyIdentity) => `${k.mode}|${k.keyId}|${k.accountId}`;
/** A cached key's identity; a value of another shape (written by a version before it) is refused. */
function decode(v: string | number | undefined): KeyIdentity | null {
  const [mode, keyId, accountId] = String(v).split('|');
  const known = KEY_MODES.find((m) => m === mode);
  return known && keyId && accountId ? { mode: known, keyId, accountId } : null;
}

/** Requests per second of all keys of one account together. */
export const accountRps = (): number => getConfig().ACCOUNT_RATE_LIMIT_RPS || Math.ceil(getConfig().RATE_LIMIT_LIVE_RPS * 2.5);

/** One request's reply: its outcome, then the cached value and the outcome's figures (SCRIPT above). */
type Reply = (number | string)[];

interface Ask {
  args: [string, number, string];
  answer: (r: Reply) => void;
  fail: (err: unknown) => void;
}

/** The checks asked for in this turn of the event loop, run together once it ends. */
let asked: Ask[] = [];
let scheduled = false;
/** A script's run stays short: a longer turn's checks go in several. */
const BATCH_MAX = 500;

async function runAsked(): Promise<void> {
  scheduled = false;
  const all = asked;
  asked = [];
  const cfg = getConfig();
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  const toDayEnd = Math.max(1, Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000));
  const fixed = [
    cfg.RATE_LIMIT_LIVE_RPS,
    cfg.RATE_LIMIT_TEST_RPS,
    accountRps(),
    `${cacheKey('')}`,
    `${rateKey('')}`,
    `${lastUsedKey('')}`,
    `${meterKey('rate-account')}:`,
    `${meterKey('test-cap')}:`,
    cfg.TEST_KEY_DAILY_REQUESTS,
    day,
    toDayEnd,
    balancePrefix(),
  ];
  for (let from = 0; from < all.length; from += BATCH_MAX) {
    const batch = all.slice(from, from + BATCH_MAX);
    try {
      const replies: unknown = await runAccess(redis(), holdsKey(), ...fixed, ...batch.flatMap((a) => a.args));
      if (!Array.isArray(replies) || replies.length !== batch.length) throw new Error(`unexpected access script reply: ${JSON.stringify(replies)}`);
      batch.forEach((a, i) => a.answer(replyList(replies[i])));
    } catch (err) {
      for (const a of batch) a.fail(err);
    }
  }
}

/** The script's answer for one key (and a live key's debit), run with the other checks of this turn. */
function runScript(hash: string, charge?: { cost: number; ref: string }): Promise<Reply> {
  return new Promise((answer, fail) => {
    asked.push({ args: [hash, charge?.cost ?? 0, charge?.ref ?? ''], answer, fail });
    if (scheduled) return;
    scheduled = true;
    atTurnEnd(() => void runAsked());
  });
}

/**
 * Checks a well-formed plaintext key and takes one token from its bucket; with `charge`, a live
 * key's request is debited in the same step (held under `charge.ref`).
 */
export async function checkAccess(plaintext: string, charge?: { cost: number; ref: string }): Promise<AccessResult> {
  const hash = hashKey(plaintext);
  let r = await runScript(hash, charge);
  if (r[0] === 0) {
    const doc = await findApiKeyForAccess(hash);
    if (!doc) {
      await redis().set(cacheKey(hash), UNKNOWN, 'EX', UNKNOWN_TTL_S, 'NX');
      return { outcome: 'invalid' };
    }
    const value = doc.revokedAt ? REVOKED : encode({ keyId: doc._id, accountId: doc.accountId, mode: doc.mode });
    await redis().set(cacheKey(hash), value, 'EX', doc.revokedAt ? TOMBSTONE_TTL_S : CACHE_TTL_S, 'NX');
    r = await runScript(hash, charge);
    if (r[0] === 0) return { outcome: 'invalid' }; // evicted in between: refuse rather than loop
  }
  if (r[0] === -1) return { outcome: 'invalid' };
  const identity = decode(r[1]);
  if (!identity) return { outcome: 'invalid' };
  const cfg = getConfig();
  const limit = (identity.mode === 'live' ? cfg.RATE_LIMIT_LIVE_RPS : cfg.RATE_LIMIT_TEST_RPS) * 2;
  if (r[0] === 2) return { outcome: 'limited', key: identity, retryAfterS: Math.max(1, Math.ceil(Number(r[2]) / 1000)), limit };
  if (r[0] === 3) return { outcome: 'capped', key: identity, retryAfterS: Number(r[2]), cap: cfg.TEST_KEY_DAILY_REQUESTS };
  return { outcome: 'allowed', key: identity, remaining: Number(r[2]), limit, admission: admissionOf(r[3], r[4], r[5]) };
}

type Field = number | string | undefined;

function admissionOf(status: Field, balance: Field, topUpSeq: Field): AdmissionOutcome | undefined {
  if (status === undefined) return undefined;
  if (status === 1) return { outcome: 'debited', balance: Number(balance), topUpSeq: Number(topUpSeq) };
  if (status === 0) return { outcome: 'insufficient', balance: Number(balance) };
  return { outcome: 'unseeded' };
}

/**
 * Called by revoke after MongoDB says revoked: every process refuses the key from the moment this
 * returns. A block of the key's requests a process holds in memory (blocks.ts) can no longer be
 * renewed once the tombstone is written, and lives at most until its mark expires: that is waited out.
 */
export async function tombstone(hash: string): Promise<void> {
  await redis().set(cacheKey(hash), REVOKED, 'EX', TOMBSTONE_TTL_S);
  const left = await redis().pttl(blockOfKey(hash));
  if (left > 0) await new Promise((r) => setTimeout(r, left + 5));
}

export async function lastUsed(hashes: string[]): Promise<(Date | null)[]> {
  if (hashes.length === 0) return [];
  const values = await redis().mget(...hashes.map(lastUsedKey));
  return values.map((v) => (v ? new Date(Number(v)) : null));
}
