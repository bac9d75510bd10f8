import { bulkWriteInBatches, type BulkCounts } from '../bulk';
import { PerformanceRollup } from '../models';
import type { PerformanceRollupDoc } from '../models/performanceRollup';

/** A stored rollup (one day and confidence) with its compare-and-set revision. */
export type StoredRollupRow = PerformanceRollupDoc & { _id: string; rev?: number | null; updatedAt?: Date };

/** The stored rollups, of the given days only when `days` is given. */
export async function findRollups<T extends { _id: string } = StoredRollupRow>(filter: { days?: readonly string[] } = {}): Promise<T[]> {
  const query = filter.days ? { day: { $in: [...filter.days] } } : {};
  return PerformanceRollup.find(query).lean<T[]>();
}

/** Rollup writes (compare-and-set upserts), bulk in server-sized batches; a duplicate key throws. */
export async function bulkWriteRollups(ops: readonly unknown[]): Promise<BulkCounts> {
  return bulkWriteInBatches(PerformanceRollup, ops);
}
