import { luaScript, replyNumbers } from '../db/luaScript';
import { getConfig } from '../config';
import { key, redis, tag } from '../db/redis';
import { findLedgerEntryByRef } from '../db/repositories/ledger';
import { apply, findHead, isTopUp, type LedgerOp, type OpResult } from './ledger';
import { ledgerOf } from '../../domain/billing/creditModes';

/**
 * The balance requests are admitted against: one small hash per account in Redis, debited and
 * credited by Lua scripts, so a request's debit is one atomic step whatever the number of web
 * processes. The MongoDB ledger (shared/platform/billing/ledger.ts) stays the record: every kept charge is
 * appended to a Redis stream in the same step that settles it, and the ledger consumer
 * (shared/platform/billing/ledgerConsumer.ts) writes the stream to the ledger in batches.
 *
 *   admission balance = ledger balance - charges still in the stream - requests in flight
 *
 * An account's test credits (bought through the test gateway, shared/domain/billing/creditModes.ts)
 * are a balance of their own under the id of their own ledger (`<account>:test`): never debited
 * (test keys spend nothing), and never under the key the live debit reads (`balance:<account>`).
 *
 * Credits (grants, purchases, recharges, adjustments) go the other way: written to the ledger
 * first (durable before anyone is told), then announced here by their ledger position. A missing
 * balance (new account, Redis lost or flushed) is seeded from the ledger's head plus the credits
 * announced after that head, so a credit racing the seed is counted once, whichever lands first.
 *
 * What a Redis loss costs: the charges in the stream not yet written and the requests in flight.
 * They were served and are never charged (the customer's side of the error); the balance is
 * seeded again from the ledger. docs/metering.md states the bound.
 */

export interface AdmissionHead {
  balance: number;
  /** Ledger position of the latest top-up: names the auto-recharge window. */
  topUpSeq: number;
}

/**
 * A key of the metering, per database (a balance must never describe another database's ledger),
 * all under one hash tag: the key check's script finds the account in the key's cached entry and
 * debits its balance, holds the request in the one holds set and settles it into the one charge
 * stream, in one step, which a Redis Cluster runs only on keys of one slot.
 */
export const meterKey = (...parts: string[]) => key(tag('meter', getConfig().MONGODB_DB), ...parts);
export const balanceKey = (accountId: string) => meterKey('balance', accountId);
const creditsKey = (accountId: string) => meterKey('credits', accountId);
export const holdsKey = () => meterKey('holds');
export const chargeStreamKey = () => meterKey('charges');
export const balancePrefix = () => `${meterKey('balance')}:`;

/** How long an announced credit is remembered for a seed racing it (any seed takes milliseconds). */
const CREDIT_MEMORY_S = 7 * 24 * 3600;

/**
 * The debit, as a Lua fragment shared by DEBIT and the key check's script (shared/platform/billing/access.ts,
 * which debits in the same step as the rate limit). Reads `balKey`, `holdsKey`, `cost`, `member`,
 * `now`; sets `debit` to {-1} no balance (seed it), {0, balance} refused, or {1, balance after,
 * topUpSeq} debited and held.
 */
export const DEBIT_LUA = `
local debit
if redis.call('EXISTS', balKey) == 0 then
  debit = {-1}
else
  local bal = tonumber(redis.call('HGET', balKey, 'bal'))
  if bal < cost then
    debit = {0, bal}
  else
    bal = redis.call('HINCRBY', balKey, 'bal', -cost)
    redis.call('ZADD', holdsKey, now, member)
    debit = {1, bal, tonumber(redis.call('HGET', balKey, 'topUpSeq'))}
  end
end
`;

// KEYS: balance, holds. ARGV: cost, hold member, now ms.
const runDebit = luaScript(
  `local balKey, holdsKey, cost, member, now = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3]
${DEBIT_LUA}
return debit`,
  2,
);

// KEYS: balance, credits. ARGV: ledger seq, delta, top-up (1/0).
// A credit is counted once: remembered by its position, added only to a balance seeded before it.
const CREDIT = `
local fresh = redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
redis.call('EXPIRE', KEYS[2], ${CREDIT_MEMORY_S})
if fresh == 0 or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local seq = tonumber(ARGV[1])
if seq <= tonumber(redis.call('HGET', KEYS[1], 'seedSeq')) then return 0 end
redis.call('HINCRBY', KEYS[1], 'bal', ARGV[2])
if ARGV[3] == '1' and seq > tonumber(redis.call('HGET', KEYS[1], 'topUpSeq')) then redis.call('HSET', KEYS[1], 'topUpSeq', seq) end
return 1
`;
const runCredit = luaScript(CREDIT, 2);

// KEYS: balance, credits. ARGV: ledger head seq, its balance, its topUpSeq.
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local head = tonumber(ARGV[1])
local bal = tonumber(ARGV[2])
local top = tonumber(ARGV[3])
local credits = redis.call('HGETALL', KEYS[2])
for i = 1, #credits, 2 do
  local seq = tonumber(credits[i])
  if seq > head then
    local delta, topUp = string.match(credits[i + 1], '^(-?%d+)|(%d)$')
    bal = bal + tonumber(delta)
    if topUp == '1' and seq > top then top = seq end
  end
end
redis.call('HSET', KEYS[1], 'bal', bal, 'seedSeq', head, 'topUpSeq', top)
return 1
`;
const runSeed = luaScript(SEED, 2);

// KEYS: holds. ARGV: older than (ms), balance key prefix, max. Refunds each stale hold once.
const SWEEP = `
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local refunded = 0
for _, member in ipairs(stale) do
  if redis.call('ZREM', KEYS[1], member) == 1 then
    local account, cost = string.match(member, '^(.*)|[^|]*|(%d+)$')
    local bal = ARGV[2] .. account
    if redis.call('EXISTS', bal) == 1 then redis.call('HINCRBY', bal, 'bal', cost) end
    refunded = refunded + 1
  end
end
return refunded
`;
const runSweep = luaScript(SWEEP, 1);

const seeding = new Map<string, Promise<void>>();

/** Seeds a missing balance from the ledger's head (one seed per account at a time in this process). */
function seed(accountId: string): Promise<void> {
  let p = seeding.get(accountId);
  if (!p) {
    p = (async () => {
      const head = await findHead(accountId);
      await runSeed(redis(), balanceKey(accountId), creditsKey(accountId), head.seq, head.balance, head.topUpSeq);
    })().finally(() => seeding.delete(accountId));
    seeding.set(accountId, p);
  }
  return p;
}

export type Admission = { ok: true; hold: string; head: AdmissionHead } | { ok: false; balance: number };

/** A held request's member of the holds set: the account, the request's ref, its cost. */
export const holdOf = (accountId: string, ref: string, cost: number) => `${accountId}|${ref}|${cost}`;

/** Takes `cost` credits if the balance holds them, and holds them until they are settled (settlements.ts). */
export async function admit(accountId: string, ref: string, cost: number): Promise<Admission> {
  const hold = holdOf(accountId, ref, cost);
  for (let tries = 0; ; tries++) {
    const r = replyNumbers(await runDebit(redis(), balanceKey(accountId), holdsKey(), cost, hold, Date.now()));
    if (r[0] === 1) return { ok: true, hold, head: { balance: r[1], topUpSeq: r[2] } };
    if (r[0] === 0) return { ok: false, balance: r[1] };
    if (tries >= 2) throw new Error(`the balance of ${accountId} could not be seeded`);
    await seed(accountId);
  }
}

export interface Charge {
  ref: string;
  accountId: string;
  cost: number;
  endpoint: string;
  keyId: string;
  at: number;
}

/** Holds older than `olderThanMs` belong to a web process that died: refunded, each once. */
export async function refundStaleHolds(olderThanMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = Number(await runSweep(redis(), holdsKey(), Date.now() - olderThanMs, balancePrefix(), 500));
    total += n;
    if (n < 500) return total;
  }
}

/** Tells the admission balance about a credit the ledger holds at `seq` (idempotent). */
async function announceCredit(accountId: string, seq: number, delta: number, topUp: boolean): Promise<void> {
  await runCredit(redis(), balanceKey(accountId), creditsKey(accountId), seq, delta, topUp ? 1 : 0);
}

/**
 * Applies a credit (or an adjustment) to the ledger, then to the admission balance. A retry of
 * the same ref finds the entry and announces it again, which counts it once: a credit whose
 * announcement failed (Redis unreachable) is repaired by retrying the operation.
 */
export async function applyCredit(accountId: string, op: LedgerOp): Promise<OpResult> {
  const r = await apply(accountId, op);
  if (r.status === 'applied') await announceCredit(accountId, r.head.seq, op.delta, isTopUp(op.kind));
  else if (r.status === 'duplicate') {
    const e = await findLedgerEntryByRef(op.ref);
    if (e && e.accountId === accountId) await announceCredit(accountId, e.seq, e.delta, isTopUp(e.kind));
  }
  return r;
}

/** The balance requests are admitted against, and the latest top-up's position. */
export async function admissionHead(accountId: string): Promise<AdmissionHead> {
  for (let tries = 0; ; tries++) {
    const [bal, top] = await redis().hmget(balanceKey(accountId), 'bal', 'topUpSeq');
    if (bal !== null) return { balance: Number(bal), topUpSeq: Number(top) };
    if (tries >= 2) throw new Error(`the balance of ${accountId} could not be seeded`);
    await seed(accountId);
  }
}

/** The live balance: what live keys are admitted against and see. */
export async function balanceOf(accountId: string): Promise<number> {
  return (await admissionHead(accountId)).balance;
}

/** The account's test credits (bought through the test gateway): what test keys see; nothing spends them. */
export async function testBalanceOf(accountId: string): Promise<number> {
  return (await admissionHead(ledgerOf(accountId, 'test'))).balance;
}

/** A new account has no ledger: forget any balance left under its id (a reused id such as the demo account's), test credits included. */
export async function forgetBalance(accountId: string): Promise<void> {
  const test = ledgerOf(accountId, 'test');
  await redis().del(balanceKey(accountId), creditsKey(accountId), balanceKey(test), creditsKey(test));
}

/** Charges written by web processes and not yet in the ledger. */
export async function chargesNotYetInLedger(): Promise<number> {
  return redis().xlen(chargeStreamKey());
}

/** Requests of the account debited and not yet settled, in every web process. */
export async function heldRequestsOf(accountId: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis().zscan(holdsKey(), cursor, 'MATCH', `${accountId}|*`, 'COUNT', 1000);
    n += found.length / 2;
    cursor = next;
  } while (cursor !== '0');
  return n;
}
