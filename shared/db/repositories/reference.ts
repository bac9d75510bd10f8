import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { bulkWriteInBatches, type BulkCounts } from '../bulk';
import { Competition, Region, Team } from '../models';

/** Repository of the reference documents: Region, Competition, Team. */

/** Region upserts (ingestion) on the driver collection, in server-sized batches. */
export async function writeRegionOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Region.collection as unknown as Collection<Document>, ops);
}

/** Competition upserts (ingestion) on the driver collection, in server-sized batches. */
export async function writeCompetitionOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Competition.collection as unknown as Collection<Document>, ops);
}

/** Team upserts (ingestion) on the driver collection, in server-sized batches. */
export async function writeTeamOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Team.collection as unknown as Collection<Document>, ops);
}
