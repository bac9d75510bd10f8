import { getConfig } from '../config';
import { luaScript, replyList } from '../db/luaScript';
import { redis } from '../db/redis';
import { accountRps, blockOfKey, cacheKey } from './access';
import { balancePrefix, chargeStreamKey, holdsKey, meterKey } from './credits';

/**
 * Credit blocks: a web process takes a small block of a live key's requests in one Redis step
 * (rate tokens from the key's and its account's buckets, and their credits from the balance,
 * held like a request in flight) and spends it in memory (api/hot/creditBlocks.ts). What it spent
 * goes back to Redis in batches: one step removes the block's hold, appends the charges and holds
 * what is left; closing a block gives back what it did not spend. A block is never taken below
 * the reserve (BLOCK_RESERVE_CREDITS): near the bottom of a balance every request is debited on
 * its own, so the last credits are served and refused exactly.
 *
 * Every step is the same atomic script whatever the number of processes, so no credit is spent
 * twice: a block's credits left the balance when it was taken. A process that dies with a block
 * leaves its hold, and the sweep gives the hold back like any request in flight (HOLD_STALE_MS):
 * the requests it served since its last spend step are the ones not charged (docs/metering.md).
 */

const rateKey = (hash: string) => meterKey('rate', hash);
const lastUsedKey = (hash: string) => meterKey('apikey-used', hash);

// KEYS: holds. ARGV: live rps, account rps, key-cache prefix, key-bucket prefix, last-used
// prefix, account-bucket prefix, balance prefix, block-of prefix, key hash, tokens wanted, price
// of one request, reserve, block ref, block lifetime (ms).
// Returns {0, why} or {1, cached key value, tokens, credits, balance after, rate remaining after,
// topUpSeq, hold member}. Only a live key's block; the account's bucket limits it like the key's.
const TAKE = luaScript(
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local hash = ARGV[9]
local v = redis.call('GET', ARGV[3] .. hash)
if not v then return {0, 'unknown'} end
if string.sub(v, 1, 5) ~= 'live|' then return {0, 'not live'} end
local account = string.match(v, '^[^|]*|[^|]*|(.*)$')
local function room(bucket, rps)
  local interval = 1000 / rps
  local tolerance = (rps * 2 - 1) * interval
  local tat = tonumber(redis.call('GET', bucket) or '0')
  if tat < now then tat = now end
  if tat - now > tolerance then return 0, tat, interval, tolerance end
  return math.floor((tolerance - (tat - now)) / interval) + 1, tat, interval, tolerance
end
local keyBucket, accountBucket = ARGV[4] .. hash, ARGV[6] .. account
local keyRoom, keyTat, keyInterval, keyTol = room(keyBucket, tonumber(ARGV[1]))
local accountRoom, accountTat, accountInterval = room(accountBucket, tonumber(ARGV[2]))
local tokens = math.min(tonumber(ARGV[10]), keyRoom, accountRoom)
if tokens < 1 then return {0, 'limited'} end
local balKey = ARGV[7] .. account
if redis.call('EXISTS', balKey) == 0 then return {0, 'unseeded'} end
local bal = tonumber(redis.call('HGET', balKey, 'bal'))
local price = tonumber(ARGV[11])
tokens = math.min(tokens, math.floor((bal - tonumber(ARGV[12])) / price))
if tokens < 1 then return {0, 'low'} end
local credits = tokens * price
keyTat = keyTat + tokens * keyInterval
accountTat = accountTat + tokens * accountInterval
redis.call('SET', keyBucket, tostring(keyTat), 'PX', math.ceil(keyTat - now) + 1000)
redis.call('SET', accountBucket, tostring(accountTat), 'PX', math.ceil(accountTat - now) + 1000)
redis.call('SET', ARGV[5] .. hash, tostring(now), 'EX', 2592000)
bal = redis.call('HINCRBY', balKey, 'bal', -credits)
local member = account .. '|' .. ARGV[13] .. '|' .. credits
redis.call('ZADD', KEYS[1], now, member)
redis.call('SET', ARGV[8] .. hash, '1', 'PX', tonumber(ARGV[14]))
local remaining = math.max(0, math.floor((keyTol - (keyTat - now)) / keyInterval) + 1)
return {1, v, tokens, credits, bal, remaining, tonumber(redis.call('HGET', balKey, 'topUpSeq')), member}
`,
  1,
);

interface TakenBlock {
  keyId: string;
  accountId: string;
  tokens: number;
  credits: number;
  /** The balance after the take: the account's credits not in any block nor in flight. */
  balance: number;
  /** The key's rate-limit room after the block's tokens were taken. */
  remaining: number;
  topUpSeq: number;
  member: string;
}

type TakeOutcome = { taken: TakenBlock } | { refused: string };

/** Takes a block of up to `tokens` requests at `price` for the live key `hash`. */
export async function takeBlock(hash: string, want: { tokens: number; price: number; ref: string; lifetimeMs: number }): Promise<TakeOutcome> {
  const cfg = getConfig();
  const r = replyList(
    await TAKE(
      redis(),
      holdsKey(),
      cfg.RATE_LIMIT_LIVE_RPS,
      accountRps(),
      cacheKey(''),
      rateKey(''),
      lastUsedKey(''),
      `${meterKey('rate-account')}:`,
      balancePrefix(),
      blockOfKey(''),
      hash,
      want.tokens,
      want.price,
      cfg.BLOCK_RESERVE_CREDITS,
      want.ref,
      want.lifetimeMs,
    ),
  );
  if (r[0] !== 1) return { refused: String(r[1]) };
  const [, keyId, accountId] = String(r[1]).split('|');
  return { taken: { keyId, accountId, tokens: Number(r[2]), credits: Number(r[3]), balance: Number(r[4]), remaining: Number(r[5]), topUpSeq: Number(r[6]), member: String(r[7]) } };
}

// KEYS: holds, charges stream. ARGV: balance prefix, then per block: the step's id, its hold
// member, the member to hold instead ('' closes the block), the account, credits spent, credits
// given back (closing), how many charges, then per charge: key id, endpoint, price, requests, ref,
// at. A step is applied once (its id is remembered): a retry after a lost reply changes nothing.
// When the hold is gone (the sweep gave it back: the process stalled past HOLD_STALE_MS) the
// spent credits are taken from the balance instead: what was served is charged either way.
// Returns per block: 1 applied, 2 applied before, 3 applied on the balance (hold gone).
const SPEND = luaScript(
  `
local out = {}
local i = 2
while i <= #ARGV do
  local id, member, nextMember, account = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local spent, back, n = tonumber(ARGV[i + 4]), tonumber(ARGV[i + 5]), tonumber(ARGV[i + 6])
  local first = i + 7
  i = first + 6 * n
  if redis.call('SET', id, '1', 'NX', 'EX', 86400) == false then
    out[#out + 1] = 2
  else
    local bal = ARGV[1] .. account
    local held = redis.call('ZREM', KEYS[1], member) == 1
    if held then
      if nextMember ~= '' then redis.call('ZADD', KEYS[1], tonumber(redis.call('TIME')[1]) * 1000, nextMember) end
      if back > 0 and redis.call('EXISTS', bal) == 1 then redis.call('HINCRBY', bal, 'bal', back) end
      out[#out + 1] = 1
    else
      if spent > 0 and redis.call('EXISTS', bal) == 1 then redis.call('HINCRBY', bal, 'bal', -spent) end
      out[#out + 1] = 3
    end
    for j = first, first + 6 * (n - 1), 6 do
      local requests = tonumber(ARGV[j + 3])
      redis.call('XADD', KEYS[2], '*', 'ref', ARGV[j + 4], 'account', account, 'cost', string.format('%d', tonumber(ARGV[j + 2]) * requests), 'endpoint', ARGV[j + 1], 'key', ARGV[j], 'at', ARGV[j + 5], 'requests', string.format('%d', requests))
    end
  end
end
return out
`,
  2,
);

export interface BlockCharge {
  keyId: string;
  endpoint: string;
  price: number;
  requests: number;
  ref: string;
  at: number;
}

export interface BlockStep {
  /** Unique per step: a retry of the same step is applied once. */
  id: string;
  member: string;
  /** The hold left after the step ('' when the block closes). */
  nextMember: string;
  accountId: string;
  spent: number;
  /** Credits given back to the balance (a closing block's unspent credits). */
  back: number;
  charges: BlockCharge[];
}

/** Applies the steps in one script; per step: 'applied', 'repeated' (applied before) or 'on-balance' (its hold was gone). */
export async function spendBlocks(steps: BlockStep[]): Promise<('applied' | 'repeated' | 'on-balance')[]> {
  const args: (string | number)[] = [];
  for (const s of steps) {
    args.push(meterKey('block-step', s.id), s.member, s.nextMember, s.accountId, s.spent, s.back, s.charges.length);
    for (const c of s.charges) args.push(c.keyId, c.endpoint, c.price, c.requests, c.ref, c.at);
  }
  const r = replyList(await SPEND(redis(), holdsKey(), chargeStreamKey(), balancePrefix(), args));
  return r.map((x) => (x === 1 ? 'applied' : x === 2 ? 'repeated' : 'on-balance'));
}
