import type { FilterQuery } from 'mongoose';
import { CreditLedger, MeterHold } from '../models';
import type { CreditLedgerDoc } from '../models/creditLedger';
import type { HeldDebit } from '../models/meterHold';
import { chunks, insertInOrderUntilDuplicate } from '../bulk';
import { findWhereIn } from '../lookup';

/*
 * The credit ledger (CreditLedger, one chain of positions per account) and the in-flight debits
 * (MeterHold). The exactly-once guarantees of shared/platform/billing/ledger.ts rest on the unique indexes
 * on `ref` and `slot`: these functions are its queries and hold none of its rules.
 */

/** A position of an account's chain: what the head search reads. */
export type LedgerPositionRow = Pick<CreditLedgerDoc, 'seq' | 'balance' | 'topUpSeq'>;

/**
 * The entry at one position (`slot` = accountId#seq), or null. A single-key lookup: FerretDB 1.x
 * (SQLite) does not push sorts down, so the head is searched slot by slot rather than sorted.
 */
export async function findLedgerEntryAtSlot(slot: string): Promise<LedgerPositionRow | null> {
  return CreditLedger.findOne({ slot }, { seq: 1, balance: 1, topUpSeq: 1 }).lean();
}

/** The running balance stored at one position, or null when the position is free. */
export async function findLedgerBalanceAtSlot(slot: string): Promise<{ balance: number } | null> {
  return CreditLedger.findOne({ slot }, { balance: 1 }).lean();
}

/** Whether an entry with this ref exists (the ref's unique index: applied once). */
export async function ledgerEntryExistsByRef(ref: string): Promise<boolean> {
  return (await CreditLedger.exists({ ref })) !== null;
}

/** The entry applied under `ref` (a credit announced again after a retry), or null. */
export async function findLedgerEntryByRef(ref: string): Promise<{ accountId: string; seq: number; delta: number; kind: string } | null> {
  return CreditLedger.findOne({ ref }, { _id: 0, accountId: 1, seq: 1, delta: 1, kind: 1 }).lean();
}

/**
 * Which of `refs` the ledger holds (a replayed batch: most are usually in). Looked up a hundred at
 * a time, so FerretDB answers each by the ref's index rather than scanning the ledger.
 */
export async function findLedgerRefsPresent(refs: readonly string[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (const part of chunks(refs, 100)) {
    for (const e of await findWhereIn<{ ref: string }>(CreditLedger, 'ref', part, { _id: 1, ref: 1 })) present.add(e.ref);
  }
  return present;
}

/**
 * Inserts `entries` in order, stopping at the first duplicate key (a position or a ref taken):
 * returns how many were inserted, the entries before the failed one. Any other error is thrown.
 */
export function insertLedgerEntriesInOrder(entries: readonly Record<string, unknown>[]): Promise<number> {
  return insertInOrderUntilDuplicate(CreditLedger.collection, entries);
}

/**
 * The entries matching `match` with the fields the ledger check sums, streamed (the sums are made
 * by the caller: FerretDB 1.x implements neither $max nor $min in $group, and counts with $sum: 1
 * unreliably).
 */
export function streamLedgerBalanceEntries(match: FilterQuery<CreditLedgerDoc>): AsyncIterable<{ accountId: string; delta: number; seq: number; balance: number }> {
  return CreditLedger.find(match, { accountId: 1, delta: 1, seq: 1, balance: 1 }).lean().cursor({ batchSize: 5000 });
}

/**
 * An account's debits and refunds since `since`, streamed, for its usage per endpoint (summed by
 * the caller rather than with $group: FerretDB 1.x counts with $sum: 1 unreliably).
 */
export function streamUsageEntriesOfAccount(accountId: string, since: Date): AsyncIterable<{ endpoint?: string | null; kind: string; delta: number; requests?: number | null; at: Date }> {
  return CreditLedger.find({ accountId, at: { $gte: since }, kind: { $in: ['debit', 'refund'] } }, { endpoint: 1, kind: 1, delta: 1, requests: 1, at: 1 })
    .lean()
    .cursor({ batchSize: 5000 });
}

/** One debit of a hold: its ledger ref and what refunding it takes. */
export type HeldDebitRow = HeldDebit;

/** Removes one hold. */
export async function deleteMeterHold(id: string): Promise<void> {
  await MeterHold.deleteOne({ _id: id });
}

/** The holds written before `before` (left by a process that died). */
export async function findMeterHoldsOlderThan(before: Date): Promise<{ _id: string; accountId: string; items: HeldDebitRow[] }[]> {
  return MeterHold.find({ at: { $lt: before } }).lean<{ _id: string; accountId: string; items: HeldDebitRow[] }[]>();
}
