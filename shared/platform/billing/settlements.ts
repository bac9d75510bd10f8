import { luaScript } from '../db/luaScript';
import { redis } from '../db/redis';
import { atTurnEnd } from '../db/turn';
import { balancePrefix, chargeStreamKey, holdsKey, type Charge } from './credits';

/**
 * Settling held requests (credits.ts holds them), in batches: every request that closed in one
 * turn of the event loop is settled by one script, sent with the turn's other Redis work
 * (shared/platform/db/turn.ts). Each in turn: its hold removed, then kept or its credits given
 * back; a hold already gone (refunded by the sweep, or lost with Redis) settles nothing, so a
 * request is never both refunded and charged. The kept requests of one run are appended to the
 * stream the ledger consumer writes as one charge per account, key, endpoint and price, carrying
 * how many requests it is (`requests`) under the ref of its first request: the ledger gets one
 * entry per batch of like requests, not one per request (one per request was most of the CPU a
 * metered request cost the machine, in the store). A charge is made in the same step that removes
 * its holds, so each request is in exactly one charge, and the charge's ref is unique.
 * A request's answer never waits for its settlement; the hold stands until its batch lands, and
 * one a crash leaves is the sweep's.
 */

// KEYS: holds, stream. ARGV: the balance key prefix, then per request: its hold, charged (1/0),
// cost, account, ref, endpoint, key, at. Returns 1 (settled now) or 0 (no such hold) per request.
const SETTLE_MANY = luaScript(
  `
local out = {}
local charges, order = {}, {}
for i = 2, #ARGV, 8 do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 0 then
    out[#out + 1] = 0
  else
    if ARGV[i + 1] == '1' then
      local like = ARGV[i + 3] .. '|' .. ARGV[i + 6] .. '|' .. ARGV[i + 5] .. '|' .. ARGV[i + 2]
      local c = charges[like]
      if not c then
        c = {ref = ARGV[i + 4], account = ARGV[i + 3], endpoint = ARGV[i + 5], key = ARGV[i + 6], at = ARGV[i + 7], cost = 0, n = 0}
        charges[like] = c
        order[#order + 1] = like
      end
      c.cost = c.cost + tonumber(ARGV[i + 2])
      c.n = c.n + 1
    else
      local bal = ARGV[1] .. ARGV[i + 3]
      if redis.call('EXISTS', bal) == 1 then redis.call('HINCRBY', bal, 'bal', ARGV[i + 2]) end
    end
    out[#out + 1] = 1
  end
end
for _, like in ipairs(order) do
  local c = charges[like]
  redis.call('XADD', KEYS[2], '*', 'ref', c.ref, 'account', c.account, 'cost', string.format('%d', c.cost), 'endpoint', c.endpoint, 'key', c.key, 'at', c.at, 'requests', string.format('%d', c.n))
end
return out
`,
  2,
);

/** A script's run stays short: a longer turn's settlements go in several. */
const BATCH_MAX = 500;

interface Pending {
  args: (string | number)[];
  settled: (done: boolean) => void;
  failed: (err: unknown) => void;
}

let pending: Pending[] = [];
let scheduled = false;

async function flush(): Promise<void> {
  scheduled = false;
  const all = pending;
  pending = [];
  for (let from = 0; from < all.length; from += BATCH_MAX) {
    const batch = all.slice(from, from + BATCH_MAX);
    try {
      const reply = await SETTLE_MANY(redis(), holdsKey(), chargeStreamKey(), balancePrefix(), ...batch.flatMap((p) => p.args));
      const done = Array.isArray(reply) ? reply : [];
      batch.forEach((p, i) => p.settled(done[i] === 1));
    } catch (err) {
      for (const p of batch) p.failed(err);
    }
  }
}

/**
 * Settles a held request with the others of this turn: kept (its charge appended to the stream
 * for the ledger) or given back. Resolves false when the hold was already gone (refunded by the
 * sweep, or lost with Redis); rejects when Redis could not be reached (the sweep refunds the hold).
 */
export function settleChargeInBatch(hold: string, charged: boolean, c: Charge): Promise<boolean> {
  return new Promise((settled, failed) => {
    pending.push({ args: [hold, charged ? 1 : 0, c.cost, c.accountId, c.ref, c.endpoint, c.keyId, c.at], settled, failed });
    if (scheduled) return;
    scheduled = true;
    atTurnEnd(() => void flush());
  });
}
