import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { errorField, errorNumber } from '../errorFields';
import { isDuplicateKey } from './duplicateKey';
import { isFerretDB } from './server';

/**
 * The one way the project sends bulk writes. FerretDB 1.24 holds one pooled SQL connection per
 * update statement of a command until the command ends (each statement's transaction takes a new
 * one), so commands in flight that together hold the whole pool while each waits for one more
 * deadlock, and every later command to that FerretDB waits behind them (one command of 100
 * updates never returns; with batches of 20, `npm start` at demo speed stops answering within
 * minutes of a restart: two 20-update commands hold 19 connections each of the pool's 40, both
 * waiting for a 20th, as FerretDB's goroutine dump shows). A command of b statements holds at most b - 1 while it
 * waits, so the pool (FERRET_POOL_MAX_CONNS, 40) deadlocks only when 40 / (b - 1) commands are in
 * flight at once: with b = 2, forty, against the ten or so a scaled stack sends. FerretDB runs the
 * statements one by one anyway; the cost is a round trip per two updates. MongoDB takes big
 * batches. Inserts do not hold connections that way: they go in batches of INSERT_BATCH on either
 * server.
 */
const MONGODB_BATCH = 2000;
const FERRETDB_BATCH = 2;

/** Statements per bulk command against the connected server (asked once per process). */
export async function bulkBatchSize(): Promise<number> {
  return (await isFerretDB()) ? FERRETDB_BATCH : MONGODB_BATCH;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface BulkCounts {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

/** Driver bulk operations (no mongoose casting), as ingestion builds them. */
export type WriteOps = readonly AnyBulkWriteOperation<Document>[];

/** A mongoose model or a driver collection. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type BulkTarget = { bulkWrite(ops: any[], options: any): Promise<BulkCounts> };

/**
 * Unordered bulk write in server-sized batches, counts summed. Each batch is unordered; batches
 * go one after another. A failing batch throws (its duplicate-key errors included) after the
 * batches before it were written, exactly as one unordered command would have.
 */
export async function bulkWriteInBatches(target: BulkTarget, ops: readonly unknown[], options: Record<string, unknown> = {}): Promise<BulkCounts> {
  const sum: BulkCounts = { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
  if (ops.length === 0) return sum;
  for (const part of chunks(ops, await bulkBatchSize())) {
    const r = await target.bulkWrite(part, { ordered: false, ...options });
    sum.matchedCount += r.matchedCount;
    sum.modifiedCount += r.modifiedCount;
    sum.upsertedCount += r.upsertedCount;
  }
  return sum;
}

/** Documents per insertMany call: bounds one command's size; FerretDB takes inserts of this size. */
export const INSERT_BATCH = 5000;

/** A mongoose model (its documents cast and defaulted) or a driver collection (documents as they are). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InsertTarget = { insertMany(docs: any[], options: any): Promise<unknown> };

/** How many documents an insertMany call wrote: a model answers the documents, a collection a result. */
function insertedBy(result: unknown, sent: number): number {
  if (Array.isArray(result)) return result.length;
  return errorNumber(result, 'insertedCount') ?? sent;
}

/** How many documents a failed unordered insertMany still wrote (the driver and mongoose say it differently). */
function insertedDespite(err: unknown): number {
  const docs = errorField(err, 'insertedDocs');
  return (Array.isArray(docs) ? docs.length : undefined) ?? errorNumber(err, 'insertedCount') ?? errorNumber(errorField(err, 'result'), 'insertedCount') ?? 0;
}

/**
 * Unordered inserts in batches of INSERT_BATCH, one batch at a time; returns how many were
 * written. With `ignoreDuplicates` a document whose key is already stored is skipped, not an
 * error (an append-only or replayed write); any other failure throws after the batches before it
 * were written, as one unordered command would have.
 */
export async function insertInBatches(target: InsertTarget, docs: readonly object[], options: { ignoreDuplicates?: boolean } = {}): Promise<number> {
  let inserted = 0;
  for (const part of chunks(docs, INSERT_BATCH)) {
    try {
      inserted += insertedBy(await target.insertMany(part, { ordered: false }), part.length);
    } catch (err) {
      if (!options.ignoreDuplicates || !isDuplicateKey(err)) throw err;
      inserted += insertedDespite(err);
    }
  }
  return inserted;
}

/**
 * Documents per ordered insertMany call. FerretDB 1.24 splits an insert into chunks of 100 and,
 * after a duplicate key in one chunk, still inserts the following chunks despite `ordered: true`
 * (measured: 300 entries with a conflict at index 150 left entries 200-299 written). Within one
 * chunk it stops at the error like MongoDB, so each call stays well under that size.
 */
const ORDERED_INSERT_BATCH = 50;

function firstFailedIndex(err: unknown): number {
  const writeErrors = errorField(err, 'writeErrors');
  return (Array.isArray(writeErrors) ? errorNumber(writeErrors[0], 'index') : undefined) ?? errorNumber(err, 'index') ?? 0;
}

/**
 * Inserts `docs` in order, in calls of ORDERED_INSERT_BATCH, stopping at the first duplicate key
 * (an append-only sequence whose position or key is taken): returns how many were inserted, the
 * documents before the failed one. Any other error is thrown.
 */
export async function insertInOrderUntilDuplicate(target: InsertTarget, docs: readonly object[]): Promise<number> {
  let inserted = 0;
  while (inserted < docs.length) {
    const chunk = docs.slice(inserted, inserted + ORDERED_INSERT_BATCH);
    try {
      await target.insertMany(chunk, { ordered: true });
      inserted += chunk.length;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      inserted += firstFailedIndex(err);
      break;
    }
  }
  return inserted;
}
