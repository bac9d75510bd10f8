import type { AppContext } from '../../shared/app/context';
import { afterDebit } from '../../shared/app/billing/recharge';
import { drainAlso, nextRef } from '../../shared/app/billing/metering';
import type { Priced } from '../../shared/domain/billing/costs';
import { spendBlocks, takeBlock, type BlockCharge, type BlockStep } from '../../shared/platform/billing/blocks';

/**
 * A live key's requests spent from memory: this process holds a block of them (rate tokens and
 * their credits, taken in one Redis step: shared/platform/billing/blocks.ts) and answers from it
 * until it is spent, expires or idles; every FLUSH_MS what was spent is charged in one Redis step
 * for all blocks (one charge per key, endpoint and price), and a block that ends gives back its
 * unspent credits. The first request of a key, and any request the block cannot pay, goes the
 * per-request way (the router's metering), which also asks for the next block.
 *
 * What an answer says: `X-Credits-Remaining` is the account's balance as this process last read it
 * in Redis plus its blocks' unspent credits (on every path: unspentInBlocks, noteBalance), exact
 * with one web process; `X-RateLimit-Remaining` on a block's answer is the key's room after the
 * take plus the block's unspent tokens (docs/metering.md "Credit blocks").
 */

/** A block's tokens are spent within this (a revoke waits it out: access.ts). */
const BLOCK_LIFETIME_MS = 1000;
/** A block holds about this much of the key's rate (never more than MAX_TOKENS requests). */
const BLOCK_SECONDS = 0.25;
const MAX_TOKENS = 2000;
const FLUSH_MS = 20;
/** After a refused take, the key is not asked for a block again for this long. */
const REFUSED_MS = 1000;

interface Block {
  hash: string;
  accountId: string;
  keyId: string;
  ref: string;
  /** The hold in Redis: credits not charged yet (unspent + spent since the last step). */
  member: string;
  held: number;
  credits: number;
  tokens: number;
  until: number;
  balance: number;
  remaining: number;
  spent: number;
  /** By price entry: the route's Priced is one object, so no key is built per request. */
  spends: Map<Priced, BlockCharge>;
  steps: number;
  closing: boolean;
}

/** Counters for tests and benches. */
export const blockStats = { taken: 0, steps: 0 };

const blocks = new Map<string, Block>();
const asking = new Map<string, Promise<void>>();
const refusedUntil = new Map<string, number>();
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> | undefined;

interface Grant {
  balance: number;
  remaining: number;
}

/** Credits of the account this process holds in blocks, unspent: the per-request answers count them in X-Credits-Remaining too. */
export function unspentInBlocks(accountId: string): number {
  let n = givingBack.get(accountId) ?? 0;
  for (const b of blocks.values()) if (b.accountId === accountId) n += b.credits;
  return n;
}

/** The balance a per-request step of the account just read: the blocks' answers count from it on. */
export function noteBalance(accountId: string, balance: number): void {
  for (const b of blocks.values()) if (b.accountId === accountId) b.balance = balance;
}

/** Credits of closing blocks on their way back to the balance (a step in flight). */
const givingBack = new Map<string, number>();
const addGivingBack = (accountId: string, n: number) => {
  const left = (givingBack.get(accountId) ?? 0) + n;
  if (left) givingBack.set(accountId, left);
  else givingBack.delete(accountId);
};

/** Spends one request at `priced` from the key's block; undefined (and a block asked for) when it cannot. */
export function spendFromBlock(ctx: AppContext, hash: string, priced: Priced): Grant | undefined {
  const b = blocks.get(hash);
  const now = Date.now();
  if (!b || b.closing || b.tokens < 1 || b.credits < priced.credits || now >= b.until) {
    askForBlock(ctx, hash, priced, now);
    return undefined;
  }
  b.tokens--;
  b.credits -= priced.credits;
  b.spent += priced.credits;
  const s = b.spends.get(priced);
  if (s) s.requests++;
  else b.spends.set(priced, { keyId: b.keyId, endpoint: priced.id, price: priced.credits, requests: 1, ref: nextRef(), at: now });
  return { balance: b.balance + b.credits, remaining: b.remaining + b.tokens };
}

function askForBlock(ctx: AppContext, hash: string, priced: Priced, now: number): void {
  if (!ctx.config.CREDIT_BLOCKS || asking.has(hash) || (refusedUntil.get(hash) ?? 0) > now) return;
  const taking = (async () => {
    const old = blocks.get(hash);
    if (old) {
      // Closed (its spending charged, the rest given back) before the next takes its place; a
      // flush already in flight did not see it closing, so it may take a second one.
      old.closing = true;
      while (blocks.get(hash) === old) await flushBlocks();
    }
    const sentAt = Date.now();
    const tokens = Math.max(1, Math.min(MAX_TOKENS, Math.ceil(ctx.config.RATE_LIMIT_LIVE_RPS * BLOCK_SECONDS)));
    const ref = nextRef();
    const r = await takeBlock(hash, { tokens, price: priced.credits, ref, lifetimeMs: BLOCK_LIFETIME_MS });
    if ('refused' in r) {
      // A key not checked yet (or a balance not seeded yet): the router's metering is doing it now.
      if (r.refused === 'unknown' || r.refused === 'unseeded') return;
      refusedUntil.set(hash, Date.now() + REFUSED_MS);
      if (refusedUntil.size > 10_000) refusedUntil.clear();
      return;
    }
    const t = r.taken;
    blockStats.taken++;
    // Its life counted from before the take: the Redis mark a revoke waits on outlives it.
    blocks.set(hash, {
      hash,
      accountId: t.accountId,
      keyId: t.keyId,
      ref,
      member: t.member,
      held: t.credits,
      credits: t.credits,
      tokens: t.tokens,
      until: sentAt + BLOCK_LIFETIME_MS,
      balance: t.balance,
      remaining: t.remaining,
      spent: 0,
      spends: new Map(),
      steps: 0,
      closing: false,
    });
    startTimer();
    void afterDebit(ctx, t.accountId, { balance: t.balance, topUpSeq: t.topUpSeq }).catch(() => undefined);
  })()
    .catch((err: unknown) => ctx.log({ component: 'metering' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'taking a credit block failed'))
    .finally(() => asking.delete(hash));
  asking.set(hash, taking);
}

function startTimer(): void {
  if (timer) return;
  timer = setInterval(() => void flushBlocks(), FLUSH_MS);
  timer.unref();
}

/** One step for every block with something to say: its spending, or its end. */
function flushBlocks(): Promise<void> {
  flushing ??= flushOnce().finally(() => (flushing = undefined));
  return flushing;
}

async function flushOnce(): Promise<void> {
  const now = Date.now();
  const steps: { block: Block; step: BlockStep }[] = [];
  for (const b of blocks.values()) {
    if (now >= b.until || b.tokens < 1) b.closing = true;
    if (!b.spent && !b.closing) continue;
    const left = b.held - b.spent;
    const id = `${b.ref}.${b.steps}`;
    const nextMember = b.closing ? '' : `${b.accountId}|${id}|${left}`;
    steps.push({ block: b, step: { id, member: b.member, nextMember, accountId: b.accountId, spent: b.spent, back: b.closing ? left : 0, charges: [...b.spends.values()] } });
    b.spent = 0;
    b.spends = new Map();
    b.steps++;
    if (b.closing) blocks.delete(b.hash);
  }
  if (!steps.length) {
    if (!blocks.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
    return;
  }
  for (const s of steps) if (s.step.back) addGivingBack(s.step.accountId, s.step.back);
  try {
    await spendBlocks(steps.map((s) => s.step));
  } catch {
    // Not known to be applied: the same steps again next time (applied once: their ids).
    pendingRetries.push(...steps.map((s) => s.step));
    void retryLater();
    return;
  } finally {
    for (const s of steps) if (s.step.back) addGivingBack(s.step.accountId, -s.step.back);
  }
  blockStats.steps += steps.length;
  for (const { block, step } of steps) {
    if (!step.nextMember) continue;
    block.member = step.nextMember;
    block.held -= step.spent;
  }
}

/**
 * Steps whose outcome is unknown (Redis unreachable, a reply lost), sent again as they were until
 * Redis answers: each is applied once (its id), and in whichever order they land the balance comes
 * out the same (a step that finds its hold gone charges the balance; a hold left behind is the sweep's).
 */
const pendingRetries: BlockStep[] = [];

let retrying = false;
async function retryLater(): Promise<void> {
  if (retrying) return;
  retrying = true;
  try {
    while (pendingRetries.length) {
      await new Promise((r) => setTimeout(r, 200).unref());
      const batch = pendingRetries.splice(0);
      try {
        await spendBlocks(batch);
      } catch {
        pendingRetries.unshift(...batch);
      }
    }
  } finally {
    retrying = false;
  }
}

/** Ends every block: what was spent charged, the rest given back (a stopping process, tests). */
export async function closeBlocks(): Promise<void> {
  // A take in flight lands a block: wait for it, then close it with the others.
  while (asking.size) await Promise.all([...asking.values()]);
  for (const b of blocks.values()) b.closing = true;
  // A flush in flight may have begun before they were closing: flush until none is left.
  do await flushBlocks();
  while (blocks.size);
  while (pendingRetries.length || retrying) await new Promise((r) => setTimeout(r, 50));
}

drainAlso(closeBlocks);
