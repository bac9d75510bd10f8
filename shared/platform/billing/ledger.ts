import { processMemo } from '../processScope';
import { luaScript } from '../db/luaScript';
import { getConfig } from '../config';
import { key, redis } from '../db/redis';
import { findLedgerEntryAtSlot, insertLedgerEntriesInOrder, ledgerEntryExistsByRef } from '../db/repositories/ledger';
import type { LEDGER_KINDS } from '../../domain/billing/ledgerKinds';

/**
 * The credit ledger is the record of every change of balance (requests are admitted against the
 * balance in Redis, shared/platform/billing/credits.ts; served requests' charges reach the ledger through
 * the ledger consumer). Each account's entries form a chain (seq 1, 2, 3, ...) and every entry
 * carries the running balance after it. A change of balance is ONE insert at the next position
 * (`slot` = accountId#seq, unique): it succeeds only if no other writer took that position first
 * and only if the new running balance is not negative. That insert is the atomic conditional
 * change. It works the same on MongoDB and on FerretDB 1.x, whose updates are not
 * atomic under concurrency (measured: 2,000 concurrent conditional $inc updates against a balance
 * of 500 all "succeeded"; see docs/metering.md).
 *
 * Every operation has a unique `ref`: applying the same ref twice is impossible (unique index),
 * which is what makes refunds, purchases and recharge credits exactly-once across retries.
 *
 * Writes are group-committed per account in this process: operations that arrive while a commit
 * is in flight are appended together by the next one (one insertMany for the lot).
 *
 * The head is not read from MongoDB on the hot path: FerretDB 1.x (SQLite) uses no index for
 * lookups, so a read by slot scans the whole ledger. The insert itself is the probe: positions
 * are gap-free, so if position head+1 is free the assumed head IS the head, and the unique index
 * (which SQLite does enforce with its index) says so atomically. The assumed head comes from this
 * process's last commit or from a hint in Redis (raised only upward, after each commit); only when
 * both are stale does a writer read the ledger.
 */

export type LedgerKind = (typeof LEDGER_KINDS)[number];
const TOP_UPS: ReadonlySet<string> = new Set<LedgerKind>(['grant', 'purchase', 'recharge']);

/** Grants, purchases and recharges: a top-up opens a new auto-recharge window. */
export const isTopUp = (kind: string): boolean => TOP_UPS.has(kind);

export interface LedgerOp {
  ref: string;
  kind: LedgerKind;
  delta: number;
  endpoint?: string | null;
  keyId?: string | null;
  /** A debit's requests (a batch of like requests settled together); default 1. */
  requests?: number;
  /** When it happened (a charge: when its request was debited); default now. */
  at?: Date;
}

export interface Head {
  seq: number;
  balance: number;
  topUpSeq: number;
}

export type OpResult = { status: 'applied'; head: Head } | { status: 'insufficient'; balance: number } | { status: 'duplicate' };

const EMPTY: Head = { seq: 0, balance: 0, topUpSeq: 0 };
const MAX_BATCH = 500;
const MAX_PASSES = 200;

export const slotOf = (accountId: string, seq: number) => `${accountId}#${seq}`;

async function entryAt(accountId: string, seq: number): Promise<Head | null> {
  const e = await findLedgerEntryAtSlot(slotOf(accountId, seq));
  return e ? { seq: e.seq, balance: e.balance, topUpSeq: e.topUpSeq } : null;
}

/** Last known head per account in this process: a hint only (the next insert checks it). */
// In the process scope (shared/platform/processScope.ts): a test that rewrites a ledger renews it.
const heads = processMemo(() => new Map<string, Head>());

// Per database: a hint must never describe another database's ledger.
const hintKey = (accountId: string) => key('ledger-head', getConfig().MONGODB_DB, accountId);

/** A new account has no ledger: drop any hint left under its id (a reused id such as the demo account's). */
export async function resetHint(accountId: string): Promise<void> {
  heads().delete(accountId);
  await redis().del(hintKey(accountId));
}
// Raises the hint, never lowers it: a slow writer cannot move it back.
const RAISE = `local cur = redis.call('GET', KEYS[1])
if cur and tonumber(string.match(cur, '^(%d+)')) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', 2592000)
return 1`;
const runRaise = luaScript(RAISE, 1);

async function raiseHint(accountId: string, head: Head): Promise<void> {
  await runRaise(redis(), hintKey(accountId), head.seq, `${head.seq}|${head.balance}|${head.topUpSeq}`).catch(() => undefined); // only a hint: a writer without it reads the ledger instead
}

async function readHint(accountId: string): Promise<Head | undefined> {
  const v = await redis()
    .get(hintKey(accountId))
    .catch(() => null);
  if (!v) return undefined;
  const [seq, balance, topUpSeq] = v.split('|').map(Number);
  return { seq, balance, topUpSeq };
}

const later = (a: Head | undefined, b: Head | undefined) => (!a ? b : !b ? a : b.seq > a.seq ? b : a);

/**
 * The head to try the next insert on: the latest of this process's and Redis's hints. `after`
 * is a head known to be stale (its next position is taken); when no hint is newer, the ledger is read.
 */
async function assumedHead(accountId: string, after?: Head): Promise<Head> {
  for (let tries = 0; ; tries++) {
    const hint = later(heads().get(accountId), await readHint(accountId));
    if (hint && (!after || hint.seq > after.seq)) return hint;
    if (!hint && !after) break;
    // The other writer raises the hint right after its insert; give it a moment before scanning.
    if (tries >= 3) break;
    await new Promise((r) => setTimeout(r, 1 + tries));
  }
  return findHead(accountId);
}

/**
 * The current head: from the last known one, step forward while the next position exists. With
 * no hint, or far behind, an exponential then binary search by slot (single-key lookups only:
 * FerretDB does not push sorts down, so "sort by seq desc" would scan the account's entries).
 */
export async function findHead(accountId: string): Promise<Head> {
  let head = later(heads().get(accountId), await readHint(accountId));
  if (!head) {
    head = await searchHead(accountId, EMPTY);
  } else {
    for (let steps = 0; ; steps++) {
      const next = await entryAt(accountId, head.seq + 1);
      if (!next) break;
      head = next;
      if (steps >= 8) {
        head = await searchHead(accountId, head);
        break;
      }
    }
  }
  heads().set(accountId, head);
  await raiseHint(accountId, head);
  return head;
}

async function searchHead(accountId: string, from: Head): Promise<Head> {
  let lo = from; // exists (or is the empty head)
  let step = 1;
  let hi: number;
  for (;;) {
    const probe = await entryAt(accountId, lo.seq + step);
    if (!probe) {
      hi = lo.seq + step;
      break;
    }
    lo = probe;
    step *= 2;
  }
  // lo exists, hi does not: the head is in [lo.seq, hi).
  let loSeq = lo.seq;
  while (hi - loSeq > 1) {
    const mid = Math.floor((loSeq + hi) / 2);
    const e = await entryAt(accountId, mid);
    if (e) {
      lo = e;
      loSeq = mid;
    } else hi = mid;
  }
  return lo;
}

interface Pending {
  op: LedgerOp;
  resolve: (r: OpResult) => void;
  reject: (e: unknown) => void;
}

const queues = new Map<string, { items: Pending[]; running: Promise<void> | null }>();

/** Appends one operation to the account's chain (group-committed with others in flight). */
export function apply(accountId: string, op: LedgerOp): Promise<OpResult> {
  return new Promise<OpResult>((resolve, reject) => {
    let q = queues.get(accountId);
    if (!q) queues.set(accountId, (q = { items: [], running: null }));
    q.items.push({ op, resolve, reject });
    if (!q.running) q.running = drain(accountId, q);
  });
}

async function drain(accountId: string, q: { items: Pending[]; running: Promise<void> | null }): Promise<void> {
  // Let the requests that arrived in the same tick join the first batch.
  await new Promise<void>((r) => setImmediate(r));
  while (q.items.length) {
    const batch = q.items.splice(0, MAX_BATCH);
    try {
      await commit(accountId, batch);
    } catch (err) {
      heads().delete(accountId);
      for (const p of batch) p.reject(err);
    }
  }
  q.running = null;
  if (q.items.length === 0) queues.delete(accountId);
}

async function commit(accountId: string, batch: Pending[]): Promise<void> {
  let todo = batch;
  let stale: Head | undefined;
  const settle = (p: Pending, r: OpResult) => p.resolve(r);
  for (let pass = 0; todo.length > 0; pass++) {
    if (pass >= MAX_PASSES) throw new Error(`ledger of ${accountId}: gave up after ${MAX_PASSES} conflicting passes`);
    const head = await assumedHead(accountId, stale);
    let { seq, balance, topUpSeq } = head;
    const at = new Date();
    // The plan: each item in order either takes the next position or is refused on the running balance.
    type Written = { p: Pending; entry: Record<string, unknown>; head: Head };
    const plan: (Written | { p: Pending; refusedAt: number })[] = [];
    for (const p of todo) {
      if (balance + p.op.delta < 0) {
        plan.push({ p, refusedAt: balance });
        continue;
      }
      seq += 1;
      balance += p.op.delta;
      if (isTopUp(p.op.kind)) topUpSeq = seq;
      plan.push({
        p,
        head: { seq, balance, topUpSeq },
        entry: {
          accountId,
          kind: p.op.kind,
          delta: p.op.delta,
          ref: p.op.ref,
          endpoint: p.op.endpoint ?? null,
          keyId: p.op.keyId ?? null,
          ...(p.op.requests !== undefined && p.op.requests !== 1 ? { requests: p.op.requests } : {}),
          at: p.op.at ?? at,
          seq,
          slot: slotOf(accountId, seq),
          balance,
          topUpSeq,
        },
      });
    }
    const entries = plan.filter((x): x is Written => 'entry' in x);

    // In order, stopping at the first duplicate key (a position or a ref taken); see the repository.
    const inserted = await insertLedgerEntriesInOrder(entries.map((x) => x.entry));
    const failed = inserted < entries.length ? entries[inserted] : undefined;
    const committed = inserted > 0 ? entries[inserted - 1].head : head;
    heads().set(accountId, committed);
    if (inserted > 0) await raiseHint(accountId, committed);
    // The conflict is the position or the ref (a replay: a charge written before its consumer died).
    const duplicate = failed !== undefined && (await ledgerEntryExistsByRef(failed.p.op.ref));
    stale = failed && !duplicate ? committed : undefined;
    // Everything planned before the failed entry stands: its position and balance were committed.
    const next: Pending[] = [];
    let past = false;
    for (const x of plan) {
      if (x === failed) past = true;
      if (!past) {
        if ('entry' in x) settle(x.p, { status: 'applied', head: x.head });
        else settle(x.p, { status: 'insufficient', balance: x.refusedAt });
      } else if (x === failed && duplicate) {
        settle(x.p, { status: 'duplicate' }); // applied before (a retry, a replay) or by another writer
      } else next.push(x.p);
    }
    todo = next;
  }
}

/** Resolves when every operation submitted in this process so far is committed (tests, shutdown). */
export async function drainLedgerWrites(): Promise<void> {
  while (queues.size) await Promise.all([...queues.values()].map((q) => q.running));
}
