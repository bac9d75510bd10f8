import { findWhereIn } from '../lookup';
import type { ClosingLine } from '../../ingest/closing';
import { type BulkCounts, bulkWriteInBatches, insertInBatches, type WriteOps } from '../bulk';
import { Event, LiveEventData, LiveOddsSnapshot, OddsHistory } from '../models';
import type { LiveEventDataDoc } from '../models/liveEventData';
import { SETTLEMENT_EVENT_FILTER } from '../../settlement/state';
import type { FilterQuery } from 'mongoose';
import type { EventDoc } from '../models/event';
import type { Collection, Document } from 'mongodb';
import type { OddsHistoryDoc } from '../models/oddsHistory';

/** An event as the result correction reads it. */
export type CorrectionEventRow = Pick<EventDoc, '_id' | 'status' | 'voided' | 'startedAt' | 'resultVersion' | 'settledVersion' | 'stats'>;

/** The event fields a result correction reads, or null. */
export async function findEventForCorrection(eventId: string): Promise<CorrectionEventRow | null> {
  return Event.findById(eventId, { status: 1, voided: 1, startedAt: 1, resultVersion: 1, settledVersion: 1, stats: 1 }).lean<CorrectionEventRow>();
}

/**
 * Sets `set` on the event only while its resultVersion is still `resultVersion` (null/undefined:
 * never set). Of two concurrent corrections only one takes the next version. Returns matchedCount.
 */
export async function updateEventIfResultVersion(eventId: string, resultVersion: number | null | undefined, set: Record<string, unknown>): Promise<{ matchedCount: number }> {
  return Event.updateOne({ _id: eventId, resultVersion: resultVersion ?? { $in: [0, null] } }, { $set: set });
}

/** An event as settlement reads it. */
export interface SettlementEventRow {
  _id: string;
  status: string;
  voided?: boolean | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  resultVersion?: number | null;
  settledVersion?: number | null;
  stats?: Record<string, number | null> | null;
  closingLine?: ClosingLine | null;
}

/** The events of `ids` with the fields settlement reads. */
export async function findEventsForSettlement(ids: readonly string[]): Promise<SettlementEventRow[]> {
  return findWhereIn<SettlementEventRow>(Event, '_id', ids, { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, settledVersion: 1, stats: 1, closingLine: 1 });
}

/** The ids (as strings) of the events of `ids` that were cancelled before they started. */
export async function findCancelledUnstartedEventIds(ids: readonly string[]): Promise<string[]> {
  const others = await Event.find({ _id: { $in: ids }, status: 'cancelled', startedAt: null }, { _id: 1 }).lean();
  return others.map((o) => String(o._id));
}

/**
 * Marks each event settled at its version (Event.settledVersion, the marker the sweeper looks
 * for), only where the stored marker is behind; bulk, in server-sized batches.
 */
export async function markEventsSettledAtVersions(versions: readonly { eventId: string; version: number }[], now: Date): Promise<BulkCounts> {
  const markers = versions.map(({ eventId, version: v }) => ({
    updateOne: {
      filter: { _id: eventId, $or: [{ settledVersion: null }, { settledVersion: { $lt: v } }] },
      update: { $set: { settledVersion: v, settledAt: now } },
    },
  }));
  return bulkWriteInBatches(Event, markers);
}

/** An event as the settlement sweep reads it (no stats). */
export type SweepEventRow = Omit<SettlementEventRow, 'stats'>;

const SWEEP_FIELDS = { status: 1, voided: 1, startedAt: 1, endedAt: 1, resultVersion: 1, settledVersion: 1 } as const;

/** Settlement-relevant events updated since `since`. */
export async function findSettlementEventsUpdatedSince(since: Date): Promise<SweepEventRow[]> {
  return Event.find({ ...SETTLEMENT_EVENT_FILTER, updatedAt: { $gte: since } }, SWEEP_FIELDS).lean<SweepEventRow[]>();
}

/** Settlement-relevant events among `ids`. */
export async function findSettlementEventsByIds(ids: readonly string[]): Promise<SweepEventRow[]> {
  return Event.find({ _id: { $in: ids }, ...SETTLEMENT_EVENT_FILTER }, SWEEP_FIELDS).lean<SweepEventRow[]>();
}

export type LiveEventDataRow = LiveEventDataDoc & { _id: string };

/** The LiveEventData of one event, or null. */
export async function findLiveEventDataOfEvent(eventId: string): Promise<LiveEventDataRow | null> {
  return LiveEventData.findOne({ eventId }).lean<LiveEventDataRow>();
}

/** The LiveEventData of the events of `eventIds`. */
export async function findLiveEventDataOfEvents(eventIds: readonly string[]): Promise<LiveEventDataRow[]> {
  return findWhereIn<LiveEventDataRow>(LiveEventData, 'eventId', eventIds);
}

/** Sets fields of one LiveEventData document. */
export async function setLiveEventDataFields(id: string, set: Record<string, unknown>): Promise<void> {
  await LiveEventData.updateOne({ _id: id }, { $set: set });
}

/** Events and what hangs off them: live event data, live odds snapshots, odds history. */

/** Fields a list page needs from MongoDB (nothing else is read). */
const EVENT_LIST_PROJECTION = {
  sportId: 1,
  competitionId: 1,
  regionId: 1,
  homeTeam: 1,
  awayTeam: 1,
  competition: 1,
  region: 1,
  startDateTime: 1,
  status: 1,
  views: 1,
  markets: 1,
  stats: 1,
} as const;

/** A list page's fields plus the live stats (the live list). */
const EVENT_LIVE_PROJECTION = { ...EVENT_LIST_PROJECTION, liveStats: 1 } as const;

const BY_START = { startDateTime: 1, _id: 1 } as const;

/** The fields of EVENT_LIST_PROJECTION (EVENT_LIVE_PROJECTION adds liveStats). */
export type EventListRow = Pick<EventDoc, '_id' | keyof typeof EVENT_LIST_PROJECTION>;
export type EventLiveRow = Pick<EventDoc, '_id' | keyof typeof EVENT_LIVE_PROJECTION>;

/** Events matching the filter per value of a field: field value -> count. */
export async function countEventsPerField(field: 'competitionId' | 'regionId' | 'sportId', filter: FilterQuery<EventDoc>): Promise<Map<number, number>> {
  const rows = await Event.aggregate<{ _id: number; n: number }>([{ $match: filter }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** The copy of a competition (name, region, sport) in one of its events; null when it has none. */
export async function findCompetitionCopyInAnEvent(competitionId: number) {
  return Event.findOne({ competitionId }, { competition: 1, regionId: 1, sportId: 1 }).lean();
}

/** Events per status (statuses without events are absent). */
export async function countEventsPerStatus() {
  return Event.aggregate<{ _id: string; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }]);
}

/** Events per sport and status. */
export async function countEventsPerSportAndStatus() {
  return Event.aggregate<{ _id: { sportId: number; status: string }; n: number }>([{ $group: { _id: { sportId: '$sportId', status: '$status' }, n: { $sum: 1 } } }]);
}

/** Markets of the upcoming and live events. */
export async function countMarketsOfOpenEvents(): Promise<number> {
  const open = { status: { $in: ['upcoming', 'live'] } };
  const rows = await Event.aggregate<{ n: number }>([{ $match: open }, { $unwind: '$markets' }, { $count: 'n' }]);
  return rows[0]?.n ?? 0;
}

/** The last update time of the most recently updated event; null when there is no event. */
export async function findLatestEventUpdate() {
  return Event.findOne({}, { updatedAt: 1 }).sort({ updatedAt: -1 }).lean<{ updatedAt?: Date }>();
}

export async function countEventsMatching(filter: FilterQuery<EventDoc>): Promise<number> {
  return Event.countDocuments(filter);
}

/** One page of the events matching the filter with a list page's fields, soonest first. */
export async function findEventsListPageByStart(filter: FilterQuery<EventDoc>, page: number, limit: number) {
  return Event.find(filter, EVENT_LIST_PROJECTION)
    .sort(BY_START)
    .skip((page - 1) * limit)
    .limit(limit)
    .lean<EventListRow[]>();
}

/** The most viewed events matching the filter with a list page's fields (then soonest first). */
export async function findMostViewedEvents(filter: FilterQuery<EventDoc>, limit: number) {
  return Event.find(filter, EVENT_LIST_PROJECTION).sort({ views: -1, startDateTime: 1, _id: 1 }).limit(limit).lean<EventListRow[]>();
}

/** One page of the events matching the filter with the live list's fields: soonest first, or most popular competition first when prioritized. */
export async function findEventsLivePage(filter: FilterQuery<EventDoc>, opts: { prioritize: boolean; page: number; limit: number }) {
  const sort = opts.prioritize ? ({ priority: -1, startDateTime: 1, _id: 1 } as const) : BY_START;
  return Event.find(filter, EVENT_LIVE_PROJECTION)
    .sort(sort)
    .skip((opts.page - 1) * opts.limit)
    .limit(opts.limit)
    .lean<EventLiveRow[]>();
}

/** Upcoming and live events of a region. */
export async function countOpenEventsInRegion(regionId: number): Promise<number> {
  return Event.countDocuments({ regionId, status: { $in: ['upcoming', 'live'] } });
}

/** The whole event; null when it does not exist. */
export async function findEventById(eventId: string) {
  return Event.findById(eventId).lean<EventDoc>();
}

/** The event without its markets and live stats; null when it does not exist. */
export async function findEventWithoutMarketsById(eventId: string) {
  return Event.findById(eventId, { markets: 0, liveStats: 0 }).lean<Omit<EventDoc, 'markets' | 'liveStats'>>();
}

export async function eventExists(eventId: string) {
  return Event.exists({ _id: eventId });
}

/** Status of each of these events (absent ones are left out). */
export async function findEventStatusesByIds(ids: string[]) {
  return Event.find({ _id: { $in: ids } }, { status: 1 }).lean();
}

/**
 * Raises the stored view count of an event to `views` ($max never lowers it). FerretDB 1.x
 * applies every update (even $inc and $max) as an unlocked read-modify-write, so two concurrent
 * calls for one event can lose one: callers serialize them per event (api/queries/views.ts holds
 * a Redis lock per event while it calls this).
 */
export async function raiseEventViewsTo(eventId: string, views: number): Promise<void> {
  await Event.updateOne({ _id: eventId }, { $max: { views } });
}

/** Adds one view to the stored count and returns the event as updated; null when it does not exist. */
export async function incrementEventViews(eventId: string) {
  return Event.findOneAndUpdate({ _id: eventId }, { $inc: { views: 1 } }, { new: true }).lean();
}

/** The live odds snapshot of an event from one dataSource; null when there is none. */
export async function findLiveOddsSnapshot(eventId: string, dataSource: string) {
  return LiveOddsSnapshot.findById(`${eventId}|${dataSource}`).lean();
}

/** The dataSource of each live odds snapshot of an event. */
export async function findLiveOddsDataSourcesOfEvent(eventId: string) {
  return LiveOddsSnapshot.find({ eventId }, { dataSource: 1 }).lean();
}

/** The newest `limit` prices of a bet item at one dataSource (price, time, event), newest first. */
export async function findNewestOddsHistory(betItemId: string, dataSource: string, limit: number) {
  return OddsHistory.find({ betItemId, dataSource }, { price: 1, at: 1, eventId: 1 }).sort({ at: -1 }).limit(limit).lean();
}

/** The first price of a bet item at one dataSource; null when it has none. */
export async function findOpeningOddsHistory(betItemId: string, dataSource: string) {
  return OddsHistory.findOne({ betItemId, dataSource }, { price: 1, at: 1 }).sort({ at: 1 }).lean();
}

/** The dataSources with a price history for a bet item (as stored, unsorted). */
export async function findOddsHistoryDataSources(betItemId: string) {
  return OddsHistory.distinct('dataSource', { betItemId });
}

export async function countOddsHistoryOf(betItemId: string, dataSource: string): Promise<number> {
  return OddsHistory.countDocuments({ betItemId, dataSource });
}

export const countAllEvents = (): Promise<number> => Event.countDocuments().exec();
export const countAllLiveOddsSnapshots = (): Promise<number> => LiveOddsSnapshot.countDocuments().exec();
export const countAllOddsHistory = (): Promise<number> => OddsHistory.countDocuments().exec();
/** Upcoming events with stored prices: when their prices last changed. */
export async function findUpcomingEventsOddsUpdatedAt() {
  return Event.find({ status: 'upcoming', oddsUpdatedAt: { $ne: null } }, { oddsUpdatedAt: 1 }).lean();
}

/** Events starting in [from, to]: start, kickoff and status. */
export async function findEventsStartingBetween(from: Date, to: Date) {
  return Event.find({ startDateTime: { $gte: from, $lte: to } }, { startDateTime: 1, startedAt: 1, status: 1 }).lean();
}

/** Events that ended at or after `since`: when they ended. */
export async function findEventsEndedSince(since: Date) {
  return Event.find({ endedAt: { $gte: since } }, { endedAt: 1 }).lean();
}

/** Inserts events (ordered: false, every valid one is written). */
export async function insertEventsUnordered(docs: Partial<EventDoc>[]): Promise<void> {
  await insertInBatches(Event, docs);
}

/** Inserts LiveEventData documents (ordered: false, every valid one is written). */
export async function insertLiveEventDataUnordered(docs: Partial<LiveEventDataDoc>[]): Promise<void> {
  await insertInBatches(LiveEventData, docs);
}

/** Repository of the event aggregate: Event, LiveEventData, LiveOddsSnapshot, OddsHistory. */

/** An event as ingestion reads it back: every stored field but liveStats and views. */
export type EventForIngest = Omit<EventDoc, 'liveStats' | 'views'>;

/** Stored events by id in one query (driver collection, no casting), without liveStats and views. */
export async function findEventsForIngestByIds(ids: readonly string[]): Promise<EventForIngest[]> {
  const coll = Event.collection as unknown as Collection<Document>;
  const docs = await coll.find({ _id: { $in: ids } } as Document, { projection: { liveStats: 0, views: 0, closingLine: 0 } }).toArray();
  return docs as unknown as EventForIngest[];
}

/** Ingestion's event writes (upserts keyed by event id) on the driver collection, in server-sized batches. */
export const writeEventOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(Event.collection, ops);

/** Ingestion's live-data writes on the driver collection, in server-sized batches. */
export const writeLiveEventDataOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(LiveEventData.collection, ops);

/** Ingestion's odds-snapshot writes on the driver collection, in server-sized batches. */
export const writeLiveOddsSnapshotOpsInBatches = (ops: WriteOps): Promise<BulkCounts> => bulkWriteInBatches(LiveOddsSnapshot.collection, ops);

/** A price of one bet item from one source at one source time. */
export type OddsHistoryRow = Pick<OddsHistoryDoc, 'betItemId' | 'eventId' | 'dataSource' | 'price' | 'at'>;

/**
 * Append-only: a row already stored (same item, source and source timestamp) is a duplicate, not
 * an error. Inserts in batches, unordered; returns the rows inserted.
 */
export async function appendOddsHistoryIgnoringDuplicates(rows: readonly OddsHistoryRow[]): Promise<number> {
  return insertInBatches(
    OddsHistory.collection,
    rows.map((x) => ({ ...x })),
    { ignoreDuplicates: true },
  );
}

/** Ids of the events a provider last stored live (ingestion asks about the ones its listing no longer names); at most `limit`. */
export async function findLiveEventIdsOfProvider(provider: string, limit = 500): Promise<string[]> {
  const docs = await Event.find({ dataSource: provider, status: 'live' }, { _id: 1 }).limit(limit).lean<{ _id: string }[]>();
  return docs.map((d) => String(d._id));
}

/**
 * Marks a provider's fresh snapshots stale (served as the fallback of a failed poll); with
 * `before`, only those captured before it (the ones a poll did not refresh).
 */
export async function markProviderSnapshotsStale(provider: string, before?: Date): Promise<void> {
  await LiveOddsSnapshot.collection.updateMany(before ? { provider, stale: false, capturedAt: { $lt: before } } : { provider, stale: false }, { $set: { stale: true } });
}

/** A whole stored event as `findEventById` returns it. */
export type EventLean = NonNullable<Awaited<ReturnType<typeof findEventById>>>;

/** Events by id without their markets, liveStats and stats (the picks rebuild's view of them). */
export async function findEventsWithoutMarketsAndStatsByIds(ids: readonly string[]) {
  return findWhereIn<Omit<EventDoc, 'markets' | 'liveStats' | 'stats'> & { _id: string }>(Event, '_id', ids, { markets: 0, liveStats: 0, stats: 0 });
}

/** A sport's completed, not voided events that started in [since, until]: teams, start and stats. */
export async function findCompletedEventScoresOfSport(sportId: number, since: Date, until: Date) {
  return Event.find({ sportId, status: 'completed', voided: { $ne: true }, startDateTime: { $gte: since, $lte: until } }, { homeTeam: 1, awayTeam: 1, startDateTime: 1, stats: 1 }).lean();
}

/** Markets and dataSource of at most `limit` events of a sport starting from `since` on. */
export async function findEventMarketsOfSportSince(sportId: number, since: Date, limit: number) {
  return Event.find({ sportId, startDateTime: { $gte: since } }, { markets: 1, dataSource: 1, closingLine: 1 })
    .limit(limit)
    .lean();
}
