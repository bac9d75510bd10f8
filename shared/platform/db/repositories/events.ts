import type { Collection, Document } from 'mongodb';
import type { FilterQuery } from 'mongoose';
import { bulkWriteInBatches, insertInBatches } from '../bulk';
import { packedProjection, packPrices, unpackPrices, type PriceTables } from './pricesPacking';
import { findWhereIn } from '../lookup';
import { driverCollection } from '../collection';
import { Event, EventPrices, LiveEventData, OddsHistory } from '../models';
import type { EventDoc } from '../models/event';
import type { Lean } from '../models/define';
import type { EventPricesDoc } from '../models/eventPrices';
import type { LiveEventDataDoc } from '../models/liveEventData';
import type { StoredEvent } from '../../../domain/ingest/stored';

/**
 * Repository of the event aggregate's stored documents: Event, EventPrices, LiveEventData,
 * OddsHistory (their joined read forms are in eventForms.ts; views in eventViews.ts; the
 * settlement marker in eventSettlements.ts). Each document has one writer: docs/architecture.md.
 */

/**
 * Sets `set` on the event only while its resultVersion is still `resultVersion` (null/undefined:
 * never set). Of two concurrent corrections only one takes the next version. Returns matchedCount.
 */
export async function updateEventIfResultVersion(eventId: string, resultVersion: number | null | undefined, set: Record<string, unknown>): Promise<{ matchedCount: number }> {
  return Event.updateOne({ _id: eventId, resultVersion: resultVersion ?? { $in: [0, null] } }, { $set: set });
}

/** The ids (as strings) of the events of `ids` that were cancelled before they started. */
export async function findCancelledUnstartedEventIds(ids: readonly string[]): Promise<string[]> {
  // By id (lookups FerretDB pushes down), then the condition: `_id $in` alone reads every event there.
  const events = await findWhereIn<{ _id: string; status: string; startedAt?: Date | null }>(Event, '_id', ids, { status: 1, startedAt: 1 });
  return events.filter((e) => e.status === 'cancelled' && !e.startedAt).map((e) => String(e._id));
}

export type LiveEventDataRow = LiveEventDataDoc & { _id: string };

/** The LiveEventData of one event, or null. */
export async function findLiveEventDataOfEvent(eventId: string): Promise<LiveEventDataRow | null> {
  // One document per event, under the event's id.
  return LiveEventData.findById(eventId).lean<LiveEventDataRow>();
}

/** The LiveEventData of the events of `eventIds`. */
export async function findLiveEventDataOfEvents(eventIds: readonly string[]): Promise<LiveEventDataRow[]> {
  return findWhereIn<LiveEventDataRow>(LiveEventData, '_id', eventIds);
}

/** Sets fields of one LiveEventData document. */
export async function setLiveEventDataFields(id: string, set: Record<string, unknown>): Promise<void> {
  await LiveEventData.updateOne({ _id: id }, { $set: set });
}

/** The copy of a competition (name, region, sport) in one of its events; null when it has none. */
export async function findCompetitionCopyInAnEvent(competitionId: number) {
  return Event.findOne({ competitionId }, { competition: 1, regionId: 1, sportId: 1 }).lean();
}

/** The last update time of the most recently updated event; null when there is no event. */
export async function findLatestEventUpdate() {
  return Event.findOne({}, { updatedAt: 1 }).sort({ updatedAt: -1 }).lean<{ updatedAt?: Date }>();
}

export async function countEventsMatching(filter: FilterQuery<EventDoc>): Promise<number> {
  return Event.countDocuments(filter);
}

/** Every event's listing fields (the listing's rebuild, shared/platform/listing/store.ts), streamed. */
export function findListingFieldsOfAllEvents(): AsyncIterable<Pick<EventDoc, '_id' | 'sportId' | 'competitionId' | 'regionId' | 'status' | 'startDateTime' | 'priority' | 'updatedAt'>> {
  return Event.find({}, { sportId: 1, competitionId: 1, regionId: 1, status: 1, startDateTime: 1, priority: 1, updatedAt: 1 })
    .lean<Pick<EventDoc, '_id' | 'sportId' | 'competitionId' | 'regionId' | 'status' | 'startDateTime' | 'priority' | 'updatedAt'>[]>()
    .cursor({ batchSize: 5000 });
}

/** The event document alone (no prices, views or live data); null when it does not exist. */
export async function findEventWithoutMarketsById(eventId: string) {
  return Event.findById(eventId).lean<EventDoc & { _id: string }>();
}

/** The provider an event comes from; null when it does not exist. */
export async function findEventProvider(eventId: string): Promise<string | null> {
  const e = await Event.findById(eventId, { dataSource: 1 }).lean<{ dataSource?: string }>();
  return e ? (e.dataSource ?? null) : null;
}

export async function eventExists(eventId: string) {
  return Event.exists({ _id: eventId });
}

/** Status of each of these events (absent ones are left out). */
export async function findEventStatusesByIds(ids: string[]) {
  return findWhereIn<{ _id: string; status: string }>(Event, '_id', ids, { status: 1 });
}

/** A stored price of a bet item: its consensus at one source time. */
export interface PricePoint {
  eventId: string;
  dataSource: string;
  price: number;
  at: Date;
}

/**
 * Every stored price of a bet item, oldest first. The history is kept one document per event per
 * reprice, so it is read through the item's event (its id starts with the event id: shared/domain/markets).
 */
export async function findPriceHistoryOfItem(betItemId: string): Promise<PricePoint[]> {
  const eventId = /^[0-9]+/.exec(betItemId)?.[0];
  if (!eventId) return [];
  const docs = await OddsHistory.find({ eventId }).lean<OddsHistoryRow[]>();
  const out: PricePoint[] = [];
  for (const d of docs) {
    const item = d.items.find((i) => i.id === betItemId);
    if (item) out.push({ eventId: d.eventId, dataSource: d.dataSource, price: item.price, at: d.at });
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

export const countAllEvents = (): Promise<number> => Event.countDocuments().exec();
export const countAllEventPrices = (): Promise<number> => EventPrices.countDocuments().exec();
export const countAllOddsHistory = (): Promise<number> => OddsHistory.countDocuments().exec();

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

/** The stored documents ingestion compares a poll against, by event id. */
export interface IngestStateRows {
  events: Map<string, IngestEventRow>;
  prices: Map<string, IngestPricesRow>;
  live: Map<string, IngestLiveRow>;
}

/** An event's live data as ingestion reads it back: all of it. */
export type IngestLiveRow = Lean<LiveEventDataDoc>;

/** An event as ingestion reads it back: all of it but its timestamps. */
export type IngestEventRow = Omit<StoredEvent, 'createdAt' | 'updatedAt'>;

/** The prices ingestion compares against: the markets, and its bookkeeping of the AI's inputs. */
export type IngestPricesRow = Pick<Lean<EventPricesDoc>, '_id' | 'liveFrom' | 'analysisVersion' | 'analysisRequestedVersion' | 'analysisRequestedAt'> & Pick<PriceTables, 'markets'>;

const INGEST_PRICES_FIELDS = { markets: 1, liveFrom: 1, analysisVersion: 1, analysisRequestedVersion: 1, analysisRequestedAt: 1 } as const;

/**
 * The stored state of these events (event, prices, live data), read back when ingestion's memory
 * of it is lost (a restart, another worker's poll). A store without events answers at once (the
 * first poll of a new deployment reads nothing); otherwise each collection is read by id
 * (lookups FerretDB pushes down for a short list: shared/platform/db/lookup.ts).
 */
export async function findIngestStateRows(ids: readonly string[]): Promise<IngestStateRows> {
  const empty: IngestStateRows = { events: new Map(), prices: new Map(), live: new Map() };
  if (ids.length === 0 || !(await Event.findOne({}, { _id: 1 }).lean())) return empty;
  const byId = <T extends { _id?: unknown }>(rows: T[]) => new Map(rows.map((r) => [String(r._id), r]));
  const [events, prices, live] = await Promise.all([
    findWhereIn<IngestEventRow>(Event, '_id', ids, { createdAt: 0, updatedAt: 0 }),
    findWhereIn<Pick<Lean<EventPricesDoc>, '_id' | 'marketsJson' | Exclude<keyof typeof INGEST_PRICES_FIELDS, 'markets'>>>(EventPrices, '_id', ids, packedProjection(INGEST_PRICES_FIELDS)),
    findWhereIn<Lean<LiveEventDataDoc>>(LiveEventData, '_id', ids),
  ]);
  return { events: byId(events), prices: byId(prices.map((p) => unpackPrices(p))), live: byId(live) };
}

/** A write of one document by id: inserted whole when new, else its fields set. */
export interface WriteById {
  id: string;
  insert: boolean;
  set: Record<string, unknown>;
}

/**
 * Inserts (in batches: one multi-row INSERT per 100 on FerretDB) then updates by id (in
 * server-sized batches). A new document already stored is an error: the caller's idea of the
 * store was wrong, and it must read it again rather than overwrite it.
 */
async function writeById(collection: Collection<Document>, writes: readonly WriteById[], pack: (set: Record<string, unknown>) => Record<string, unknown> = (set) => set): Promise<number> {
  const inserts = writes.filter((w) => w.insert).map((w) => ({ _id: w.id, ...pack(w.set) }));
  const updates = writes.filter((w) => !w.insert).map((w) => ({ updateOne: { filter: { _id: w.id }, update: { $set: pack(w.set) } } }));
  const inserted = inserts.length ? await insertInBatches(collection, inserts) : 0;
  const updated = await bulkWriteInBatches(collection, updates);
  return inserted + updated.modifiedCount;
}

/** Ingestion's event writes. */
export const writeEvents = (writes: readonly WriteById[]): Promise<number> => writeById(driverCollection(Event), writes);
/** Ingestion's price writes (their tables packed: pricesPacking.ts). */
export const writeEventPrices = (writes: readonly WriteById[]): Promise<number> => writeById(driverCollection(EventPrices), writes, packPrices);
/** Ingestion's live-data writes. */
export const writeLiveEventData = (writes: readonly WriteById[]): Promise<number> => writeById(driverCollection(LiveEventData), writes);

/** One reprice of one event (OddsHistory). */
export interface OddsHistoryRow {
  _id: string;
  eventId: string;
  dataSource: string;
  at: Date;
  items: { id: string; price: number }[];
}

/**
 * Append-only: a reprice already stored (same event, source and source timestamp) is a
 * duplicate, not an error. Inserts in batches, unordered; returns the documents inserted.
 */
export async function appendOddsHistoryIgnoringDuplicates(rows: readonly OddsHistoryRow[]): Promise<number> {
  return insertInBatches(
    driverCollection(OddsHistory),
    rows.map((x) => ({ ...x })),
    { ignoreDuplicates: true },
  );
}

/** Ids of the events a provider last stored live (ingestion asks about the ones its listing no longer names); at most `limit`. */
export async function findLiveEventIdsOfProvider(provider: string, limit = 500): Promise<string[]> {
  const docs = await Event.find({ dataSource: provider, status: 'live' }, { _id: 1 }).limit(limit).lean<{ _id: string }[]>();
  return docs.map((d) => String(d._id));
}

/** Events by id without their stats (the picks rebuild's view of them). */
export async function findEventsWithoutMarketsAndStatsByIds(ids: readonly string[]) {
  return findWhereIn<Omit<EventDoc, 'stats'> & { _id: string }>(Event, '_id', ids, { stats: 0 });
}

/** A sport's completed, not voided events that started in [since, until]: teams, start and stats. */
export async function findCompletedEventScoresOfSport(sportId: number, since: Date, until: Date) {
  return Event.find({ sportId, status: 'completed', voided: { $ne: true }, startDateTime: { $gte: since, $lte: until } }, { homeTeam: 1, awayTeam: 1, startDateTime: 1, stats: 1 }).lean<
    Pick<StoredEvent, '_id' | 'homeTeam' | 'awayTeam' | 'startDateTime' | 'stats'>[]
  >();
}
