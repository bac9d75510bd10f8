import { CreditLedger, MeterHold } from '../models';
import type { LEDGER_KINDS } from '../models/creditLedger';

/**
 * The credit ledger is the balance. Each account's entries form a chain (seq 1, 2, 3, ...) and
 * every entry carries the running balance after it. A change of balance is ONE insert at the next
 * position (`slot` = accountId#seq, unique): it succeeds only if no other writer took that
 * position first and only if the new running balance is not negative. That insert is the atomic
 * conditional debit. It works the same on MongoDB and on FerretDB 1.x, whose updates are not
 * atomic under concurrency (measured: 2,000 concurrent conditional $inc updates against a balance
 * of 500 all "succeeded"; see docs/metering.md).
 *
 * Every operation has a unique `ref`: applying the same ref twice is impossible (unique index),
 * which is what makes refunds, purchases and recharge credits exactly-once across retries.
 *
 * Writes are group-committed per account in this process: requests that arrive while a commit is
 * in flight are appended together by the next one (one probe and one insertMany for the lot).
 */

export type LedgerKind = (typeof LEDGER_KINDS)[number];
const TOP_UPS: ReadonlySet<LedgerKind> = new Set(['grant', 'purchase', 'recharge']);

export interface LedgerOp {
  ref: string;
  kind: LedgerKind;
  delta: number;
  endpoint?: string | null;
  keyId?: string | null;
  /** Written to meterholds before the entry (metered requests whose debit may be refunded). */
  hold?: { cost: number; keyId: string; endpoint: string };
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
  const e = await CreditLedger.findOne({ slot: slotOf(accountId, seq) }, { seq: 1, balance: 1, topUpSeq: 1 }).lean();
  return e ? { seq: e.seq, balance: e.balance, topUpSeq: e.topUpSeq } : null;
}

/** Last known head per account in this process: a hint only, always re-probed forward. */
const knownHeads = new Map<string, Head>();

/**
 * The current head: from the last known one, step forward while the next position exists. With
 * no hint, or far behind, an exponential then binary search by slot (single-key lookups only:
 * FerretDB does not push sorts down, so "sort by seq desc" would scan the account's entries).
 */
export async function findHead(accountId: string): Promise<Head> {
  let head = knownHeads.get(accountId);
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
  knownHeads.set(accountId, head);
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

export async function balanceOf(accountId: string): Promise<number> {
  return (await findHead(accountId)).balance;
}

interface Pending {
  op: LedgerOp;
  resolve: (r: OpResult) => void;
  reject: (e: unknown) => void;
  holdWritten: boolean;
}

const queues = new Map<string, { items: Pending[]; running: Promise<void> | null }>();

/** Appends one operation to the account's chain (group-committed with others in flight). */
export function apply(accountId: string, op: LedgerOp): Promise<OpResult> {
  return new Promise<OpResult>((resolve, reject) => {
    let q = queues.get(accountId);
    if (!q) queues.set(accountId, (q = { items: [], running: null }));
    q.items.push({ op, resolve, reject, holdWritten: false });
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
      knownHeads.delete(accountId);
      for (const p of batch) p.reject(err);
    }
  }
  q.running = null;
  if (q.items.length === 0) queues.delete(accountId);
}

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000 || (err as { writeErrors?: { code?: number }[] })?.writeErrors?.[0]?.code === 11000;

function firstFailedIndex(err: unknown): number {
  const e = err as { writeErrors?: { index: number }[]; index?: number };
  return e.writeErrors?.[0]?.index ?? e.index ?? 0;
}

async function commit(accountId: string, batch: Pending[]): Promise<void> {
  let todo = batch;
  const outcome = new Map<Pending, OpResult>();
  const settle = (p: Pending, r: OpResult) => {
    outcome.set(p, r);
    p.resolve(r);
  };
  for (let pass = 0; todo.length > 0; pass++) {
    if (pass >= MAX_PASSES) throw new Error(`ledger of ${accountId}: gave up after ${MAX_PASSES} conflicting passes`);
    const head = await findHead(accountId);
    let { seq, balance, topUpSeq } = head;
    const at = new Date();
    // The plan: each item in order either takes the next position or is refused on the running balance.
    const plan: { p: Pending; entry?: Record<string, unknown>; head?: Head; refusedAt?: number }[] = [];
    for (const p of todo) {
      if (balance + p.op.delta < 0) {
        plan.push({ p, refusedAt: balance });
        continue;
      }
      seq += 1;
      balance += p.op.delta;
      if (TOP_UPS.has(p.op.kind)) topUpSeq = seq;
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
          at,
          seq,
          slot: slotOf(accountId, seq),
          balance,
          topUpSeq,
        },
      });
    }
    const entries = plan.filter((x) => x.entry);
    // Holds first: a debit that exists always has its hold until its outcome is settled.
    const holds = entries.filter((x) => x.p.op.hold && !x.p.holdWritten);
    if (holds.length) {
      await MeterHold.collection
        .insertMany(
          holds.map((x) => ({ _id: x.p.op.ref as never, accountId, ...x.p.op.hold!, at })),
          { ordered: false },
        )
        .catch((err) => {
          if (!isDuplicateKey(err)) throw err;
        });
      for (const x of holds) x.p.holdWritten = true;
    }

    let inserted = entries.length;
    if (entries.length) {
      try {
        await CreditLedger.collection.insertMany(entries.map((x) => x.entry!), { ordered: true });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        inserted = firstFailedIndex(err);
      }
    }
    const failed = inserted < entries.length ? entries[inserted] : undefined;
    // Everything planned before the failed entry stands: its position and balance were committed.
    const next: Pending[] = [];
    let past = false;
    for (const x of plan) {
      if (x === failed) past = true;
      if (!past) {
        if (x.entry) {
          knownHeads.set(accountId, x.head!);
          settle(x.p, { status: 'applied', head: x.head! });
        } else settle(x.p, { status: 'insufficient', balance: x.refusedAt! });
      } else if (x === failed && (await CreditLedger.exists({ ref: x.p.op.ref }))) {
        settle(x.p, { status: 'duplicate' }); // applied before (a retry) or by another writer
      } else next.push(x.p);
    }
    todo = next;
  }
  // A request refused after its hold was written in an earlier pass has nothing to refund.
  const orphanHolds = batch.filter((p) => p.holdWritten && outcome.get(p)?.status === 'insufficient').map((p) => p.op.ref);
  if (orphanHolds.length) await MeterHold.deleteMany({ _id: { $in: orphanHolds } });
}

/** Resolves when every operation submitted in this process so far is committed (tests, shutdown). */
export async function drainLedgerWrites(): Promise<void> {
  while (queues.size) await Promise.all([...queues.values()].map((q) => q.running));
}

/** Forgets the cached heads (tests that rewrite a ledger behind this process's back). */
export function forgetHeads(): void {
  knownHeads.clear();
}
