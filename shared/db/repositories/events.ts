import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { bulkWriteInBatches, chunks, type BulkCounts } from '../bulk';
import { Event, LiveEventData, LiveOddsSnapshot, OddsHistory } from '../models';
import type { EventDoc } from '../models/event';
import type { OddsHistoryDoc } from '../models/oddsHistory';

/** Repository of the event aggregate: Event, LiveEventData, LiveOddsSnapshot, OddsHistory. */

/** An event as ingestion reads it back: every stored field but liveStats and views. */
export type EventForIngest = Omit<EventDoc, 'liveStats' | 'views'>;

/** Stored events by id in one query (driver collection, no casting), without liveStats and views. */
export async function findEventsForIngestByIds(ids: readonly string[]): Promise<EventForIngest[]> {
  const coll = Event.collection as unknown as Collection<Document>;
  const docs = await coll.find({ _id: { $in: ids } } as Document, { projection: { liveStats: 0, views: 0 } }).toArray();
  return docs as unknown as EventForIngest[];
}

/** Ingestion's event writes (upserts keyed by event id) on the driver collection, in server-sized batches. */
export async function writeEventOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Event.collection as unknown as Collection<Document>, ops);
}

/** Ingestion's live-data writes on the driver collection, in server-sized batches. */
export async function writeLiveEventDataOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(LiveEventData.collection as unknown as Collection<Document>, ops);
}

/** Ingestion's odds-snapshot writes on the driver collection, in server-sized batches. */
export async function writeLiveOddsSnapshotOpsInBatches(ops: readonly AnyBulkWriteOperation<Document>[]): Promise<BulkCounts> {
  return bulkWriteInBatches(LiveOddsSnapshot.collection as unknown as Collection<Document>, ops);
}

/** A price of one bet item from one source at one source time. */
export type OddsHistoryRow = Pick<OddsHistoryDoc, 'betItemId' | 'eventId' | 'dataSource' | 'price' | 'at'>;

/**
 * Append-only: a row already stored (same item, source and source timestamp) is a duplicate, not
 * an error. Inserts in chunks of 5000, unordered; returns the rows inserted.
 */
export async function appendOddsHistoryIgnoringDuplicates(rows: readonly OddsHistoryRow[]): Promise<number> {
  let n = 0;
  for (const part of chunks(rows, 5000)) {
    try {
      const r = await OddsHistory.collection.insertMany(part.map((x) => ({ ...x })), { ordered: false });
      n += r.insertedCount;
    } catch (err) {
      const e = err as { code?: number; writeErrors?: { code: number }[] | { code: number }; result?: { insertedCount?: number }; insertedCount?: number };
      const writeErrors = Array.isArray(e.writeErrors) ? e.writeErrors : e.writeErrors ? [e.writeErrors] : [];
      const onlyDuplicates = (e.code === 11000 || writeErrors.length > 0) && writeErrors.every((w) => w.code === 11000);
      if (!onlyDuplicates) throw err;
      n += e.insertedCount ?? e.result?.insertedCount ?? 0;
    }
  }
  return n;
}

/**
 * Marks a provider's fresh snapshots stale (served as the fallback of a failed poll); with
 * `before`, only those captured before it (the ones a poll did not refresh).
 */
export async function markProviderSnapshotsStale(provider: string, before?: Date): Promise<void> {
  await LiveOddsSnapshot.collection.updateMany(before ? { provider, stale: false, capturedAt: { $lt: before } } : { provider, stale: false }, { $set: { stale: true } });
}

/** One event, whole, as a plain object (null when missing). */
export async function findEventByIdLean(id: string) {
  return Event.findById(id).lean();
}

/** A whole stored event as `findEventByIdLean` returns it. */
export type EventLean = NonNullable<Awaited<ReturnType<typeof findEventByIdLean>>>;

/** Events by id without their markets, liveStats and stats (the picks rebuild's view of them). */
export async function findEventsWithoutMarketsAndStatsByIds(ids: readonly string[]) {
  return Event.find({ _id: { $in: ids } }, { markets: 0, liveStats: 0, stats: 0 }).lean();
}

/** A sport's completed, not voided events that started in [since, until]: teams, start and stats. */
export async function findCompletedEventScoresOfSport(sportId: number, since: Date, until: Date) {
  return Event.find(
    { sportId, status: 'completed', voided: { $ne: true }, startDateTime: { $gte: since, $lte: until } },
    { homeTeam: 1, awayTeam: 1, startDateTime: 1, stats: 1 },
  ).lean();
}

/** Markets and dataSource of at most `limit` events of a sport starting from `since` on. */
export async function findEventMarketsOfSportSince(sportId: number, since: Date, limit: number) {
  return Event.find({ sportId, startDateTime: { $gte: since } }, { markets: 1, dataSource: 1 }).limit(limit).lean();
}
