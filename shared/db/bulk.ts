import mongoose from 'mongoose';
import type { AnyBulkWriteOperation, Document } from 'mongodb';

/**
 * The one way the project sends bulk writes. FerretDB 1.24 deadlocks on a bulk write of about
 * 100 updates or more in one command, with either backend: each update statement keeps a pooled
 * SQL connection until the command ends, the pool runs dry and the command waits forever (seen
 * here: 50 updates in 130 ms, 100 never return; every later write to that database then waits
 * too). It runs the statements one by one anyway, so against FerretDB the writes go in batches
 * of 20, one batch at a time; MongoDB takes big batches.
 */
const MONGODB_BATCH = 2000;
const FERRETDB_BATCH = 20;

let batchSize: Promise<number> | undefined;

/** Statements per bulk command against the connected server (asked once per process). */
export function bulkBatchSize(): Promise<number> {
  batchSize ??= mongoose.connection
    .db!.admin()
    .command({ buildInfo: 1 })
    .then((info) => (info.ferretdbVersion ? FERRETDB_BATCH : MONGODB_BATCH))
    .catch((err) => {
      batchSize = undefined;
      throw err;
    });
  return batchSize;
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
