import {
  Account,
  Competition,
  CreditLedger,
  Event,
  EventPrices,
  EventSettlement,
  EventView,
  Insight,
  LiveEventData,
  MeterHold,
  OddsHistory,
  PerformanceRollup,
  Pick,
  ProviderState,
  RechargeAttempt,
  Recommendation,
  Region,
  Session,
  Team,
} from '../models';
import { bulkWriteInBatches } from '../bulk';
import { driverCollection } from '../collection';
import { isRecord } from '../../../domain/records';
import { findLiveOddsDataSourcesOfEvent, findLiveOddsSnapshot, findPricesOfEvent } from './eventForms';
import { packPrices } from './pricesPacking';
import type { CompetitionDoc } from '../models/competition';
import type { RegionDoc } from '../models/region';
import type { TeamDoc } from '../models/team';

/*
 * Stored state written or wiped whole, as tests and benchmarks set the scene: documents go in as
 * given (validated by their schemas), with none of the conditions the services' own writes keep.
 * No service code calls these.
 */

type WithId<T, Id> = Partial<T> & { _id: Id };

/** Regions, competitions and teams written as given (upserts by id: seeding twice is harmless). */
export async function upsertReferenceDocuments(docs: {
  regions?: readonly WithId<RegionDoc, number>[];
  competitions?: readonly WithId<CompetitionDoc, number>[];
  teams?: readonly WithId<TeamDoc, number>[];
}): Promise<void> {
  await Promise.all([
    ...(docs.regions ?? []).map((r) => Region.updateOne({ _id: r._id }, { $set: r }, { upsert: true })),
    ...(docs.competitions ?? []).map((c) => Competition.updateOne({ _id: c._id }, { $set: c }, { upsert: true })),
    ...(docs.teams ?? []).map((t) => Team.updateOne({ _id: t._id }, { $set: t }, { upsert: true })),
  ]);
}

/** A document as a test writes it: plain values, checked by the collection's schema on insert. */
export type SeedDocument = { _id: string } & Record<string, unknown>;

/** Each collection a test seeds, and how its documents go in as given (through its model: validated, defaulted). */
const SEEDED = {
  events: (docs: SeedDocument[]) => Event.insertMany(docs),
  liveEventData: (docs: SeedDocument[]) => LiveEventData.insertMany(docs),
  liveOddsSnapshots: (docs: SeedDocument[]) => EventPrices.insertMany(docs),
  recommendations: (docs: SeedDocument[]) => Recommendation.insertMany(docs),
  picks: (docs: SeedDocument[]) => Pick.insertMany(docs),
  insights: (docs: SeedDocument[]) => Insight.insertMany(docs),
  providerStates: (docs: SeedDocument[]) => ProviderState.insertMany(docs),
};

/*
 * An event's fields kept in documents of their own (one writer each), as a test may still seed or
 * set them on the event: `views` goes to eventviews, `settledVersion` and `settledAt` to
 * eventsettlements (settledAt defaults to now: a stored marker always has one). A null removes the
 * side document, as never viewed or never settled.
 */
const EVENT_SIDE_FIELDS = ['views', 'settledVersion', 'settledAt'] as const;
const given = (v: unknown) => v !== undefined && v !== null;

function eventSideWrites(eventId: string, fields: Record<string, unknown>): { viewOps: unknown[]; markerOps: unknown[] } {
  const { views, settledVersion, settledAt } = fields;
  const viewOps = given(views) ? [{ updateOne: { filter: { _id: eventId }, update: { $set: { views } }, upsert: true } }] : 'views' in fields ? [{ deleteOne: { filter: { _id: eventId } } }] : [];
  const markerOps = given(settledVersion)
    ? [{ updateOne: { filter: { _id: eventId }, update: { $set: { settledVersion, settledAt: settledAt ?? new Date() } }, upsert: true } }]
    : 'settledVersion' in fields
      ? [{ deleteOne: { filter: { _id: eventId } } }]
      : [];
  return { viewOps, markerOps };
}

async function writeEventSideFields(docs: readonly (Record<string, unknown> & { _id: string })[]): Promise<void> {
  const writes = docs.map((d) => eventSideWrites(d._id, d));
  await Promise.all([
    bulkWriteInBatches(
      EventView,
      writes.flatMap((w) => w.viewOps),
    ),
    bulkWriteInBatches(
      EventSettlement,
      writes.flatMap((w) => w.markerOps),
    ),
  ]);
}

function withoutEventSideFields<T extends Record<string, unknown>>(doc: T): T {
  const rest = { ...doc };
  for (const f of EVENT_SIDE_FIELDS) delete rest[f];
  return rest;
}

/*
 * A test seeds an event as the read API serves it: with its `markets`, and while live its flat
 * `liveStats` (the contract's live form). Ingest stores those apart, so they are written as
 * ingest would have left them for the served forms to be these: the markets as the event's
 * prices, the live stats as its live data (counts, phase, clock at referenceTime) and, when they
 * list live bet items, as the prices those items show (moved at their timestamp by priceChange).
 */
/** A seeded market: what is read of it (its id, its items' ids); the rest is stored as given. */
type SeedMarket = { id: string; betTypeSysname?: unknown; line?: unknown; betItems: { id: string; code?: unknown; price?: unknown; isAvailable?: unknown; bookPrices?: unknown }[] };
type SeedBetItem = { betItemId: string; marketId?: string; marketSysname: string; code: string; price: number; priceChange?: number | null; isAvailable?: boolean; timestamp?: string };
/** A seeded snapshot's market (`liveMarkets` of a live-odds snapshot). */
type SnapshotMarket = { marketId: string; marketSysname: string; line?: number | null; betItems: { code: string; price: number; priceChange?: number | null; isAvailable?: boolean }[] };

const optional = <T>(v: unknown, is: (x: unknown) => x is T): v is T | undefined => v === undefined || is(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isNumberOrNull = (v: unknown): v is number | null => v === null || typeof v === 'number';

/** A list of seeded values, each checked (none: empty); a value of another shape is a mistake of the test, named. */
function seededList<T>(v: unknown, is: (x: unknown) => x is T, what: string): T[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new TypeError(`seeded ${what}: not a list`);
  const items: unknown[] = v;
  const out: T[] = [];
  for (const x of items) {
    if (!is(x)) throw new TypeError(`seeded ${what}: unexpected item ${JSON.stringify(x)}`);
    out.push(x);
  }
  return out;
}

const isSeedMarket = (m: unknown): m is SeedMarket => isRecord(m) && typeof m.id === 'string' && Array.isArray(m.betItems) && m.betItems.every((b: unknown) => isRecord(b) && typeof b.id === 'string');

const isSeedBetItem = (b: unknown): b is SeedBetItem =>
  isRecord(b) &&
  typeof b.betItemId === 'string' &&
  optional(b.marketId, isString) &&
  typeof b.marketSysname === 'string' &&
  typeof b.code === 'string' &&
  typeof b.price === 'number' &&
  (b.priceChange === null || optional(b.priceChange, isNumber)) &&
  optional(b.isAvailable, isBoolean) &&
  optional(b.timestamp, isString);

const isSnapshotItem = (b: unknown): b is SnapshotMarket['betItems'][number] =>
  isRecord(b) && typeof b.code === 'string' && typeof b.price === 'number' && (b.priceChange === null || optional(b.priceChange, isNumber)) && optional(b.isAvailable, isBoolean);

const isSnapshotMarket = (m: unknown): m is SnapshotMarket =>
  isRecord(m) &&
  typeof m.marketId === 'string' &&
  typeof m.marketSysname === 'string' &&
  (m.line === undefined || isNumberOrNull(m.line)) &&
  Array.isArray(m.betItems) &&
  m.betItems.every(isSnapshotItem);

function lineOfMarketId(marketId: string): number | null {
  const m = /@(-?\d+(?:\.\d+)?)$/.exec(marketId);
  return m ? Number(m[1]) : null;
}

/** The event's markets with the live bet items' prices in them (moved at the items' timestamp by their priceChange). */
function pricesWithLiveBetItems(seeded: readonly SeedMarket[], items: readonly SeedBetItem[]) {
  const markets = new Map(seeded.map((m) => [m.id, { ...m, betItems: m.betItems.map((b) => ({ ...b })) }]));
  const previous: { id: string; price: number | null }[] = [];
  for (const it of items) {
    // A bet item's id is its market's id and its code.
    const marketId = it.marketId ?? it.betItemId.slice(0, it.betItemId.lastIndexOf('-'));
    const m = markets.get(marketId) ?? { id: marketId, betTypeSysname: it.marketSysname, line: lineOfMarketId(marketId), betItems: [] };
    markets.set(marketId, m);
    const item = m.betItems.find((b) => b.id === it.betItemId);
    if (item) Object.assign(item, { price: it.price, isAvailable: it.isAvailable !== false });
    else m.betItems.push({ id: it.betItemId, code: it.code, price: it.price, isAvailable: it.isAvailable !== false, bookPrices: {} });
    previous.push({ id: it.betItemId, price: typeof it.priceChange === 'number' ? Math.round((it.price - it.priceChange) * 100) / 100 : null });
  }
  const ts = Number(items[0]?.timestamp);
  return { markets: [...markets.values()], previous, movedAt: Number.isFinite(ts) ? new Date(ts) : new Date(0) };
}

async function writeEventParts(docs: readonly SeedDocument[]): Promise<void> {
  const prices: Record<string, unknown>[] = [];
  const live: Record<string, unknown>[] = [];
  for (const d of docs) {
    const liveStats = isRecord(d.liveStats) ? d.liveStats : null;
    const liveBetItems = seededList(liveStats?.liveBetItems, isSeedBetItem, 'live bet items');
    const base = { _id: d._id, dataSource: d.dataSource ?? 'simulated', previous: [], movedAt: d.oddsUpdatedAt ?? new Date(0), oddsUpdatedAt: d.oddsUpdatedAt ?? null };
    const markets = seededList(d.markets, isSeedMarket, 'markets');
    const liveFrom = liveStats ? (d.startDateTime ?? new Date(0)) : null;
    if (liveBetItems.length) prices.push({ ...base, liveFrom, ...pricesWithLiveBetItems(markets, liveBetItems) });
    else if (d.markets !== undefined || liveStats) prices.push({ ...base, liveFrom, markets });
    if (liveStats) {
      const stats = isRecord(d.stats) ? d.stats : {};
      const count = (k: string) => (liveStats[k] !== undefined ? liveStats[k] : (stats[k] ?? null));
      const at = liveStats.referenceTime;
      const reference = at && (at instanceof Date || typeof at === 'string' || typeof at === 'number') ? new Date(at) : null;
      live.push({
        _id: d._id,
        eventId: d._id,
        ...Object.fromEntries(
          ['homeGoals', 'awayGoals', 'homeGoalsFirstHalf', 'awayGoalsFirstHalf', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards', 'homeRedCards', 'awayRedCards'].map((k) => [
            k,
            count(k),
          ]),
        ),
        phaseSysname: liveStats.phaseSysname ?? null,
        isLive: true,
        isInPlay: liveStats.isInPlay !== false,
        elapsedSeconds: liveStats.elapsedSeconds ?? null,
        elapsedAt: reference,
        clockRate: null,
        liveDataJson: {},
        dataSource: d.dataSource ?? 'simulated',
      });
    }
  }
  await bulkWriteInBatches(
    EventPrices,
    prices.map((p) => ({ replaceOne: { filter: { _id: p._id }, replacement: packPrices(p), upsert: true } })),
    { throwOnValidationError: true },
  );
  await bulkWriteInBatches(
    LiveEventData,
    live.map(({ _id, ...l }) => ({ updateOne: { filter: { _id }, update: { $set: l }, upsert: true } })),
    { throwOnValidationError: true },
  );
}

const EVENT_PART_FIELDS = ['markets', 'liveStats', 'oddsUpdatedAt'] as const;

/**
 * One provider's live-odds snapshot as a test seeds it, written into the event's prices: the
 * provider's own (the consensus) sets each item's price, a bookmaker's its book price; each item
 * moved at `capturedAt` by its priceChange (none given: the price before is unknown).
 */
async function writeSnapshotSeed(doc: SeedDocument): Promise<void> {
  const eventId = String(doc.eventId);
  const ds = String(doc.dataSource);
  const stored = await findPricesOfEvent(eventId);
  const provider = stored?.dataSource ?? 'simulated';
  const liveMarkets = seededList(doc.liveMarkets, isSnapshotMarket, 'live markets');
  const fromSnapshot = new Map(liveMarkets.map((m) => [m.marketId, m]));
  // The snapshots of one event describe the same markets: the first one seeded replaces the event's.
  const kept = (stored?.markets ?? []).filter((m) => fromSnapshot.has(m.id));
  const markets = new Map(kept.map((m) => [m.id, m]));
  const previous = new Map((fromSnapshot.size && kept.length ? (stored?.previous ?? []) : []).map((p) => [p.id, { ...p }]));
  for (const lm of liveMarkets) {
    const m = markets.get(lm.marketId) ?? { id: lm.marketId, betTypeSysname: lm.marketSysname, line: lm.line ?? lineOfMarketId(lm.marketId), betItems: [] };
    markets.set(lm.marketId, m);
    for (const b of lm.betItems) {
      const id = `${lm.marketId}-${b.code}`;
      let item = m.betItems.find((x) => x.code === b.code);
      if (!item) {
        item = { id, code: b.code, price: b.price, isAvailable: b.isAvailable !== false, bookPrices: {} };
        m.betItems.push(item);
      }
      const before = typeof b.priceChange === 'number' ? Math.round((b.price - b.priceChange) * 100) / 100 : null;
      const prev = previous.get(item.id) ?? { id: item.id };
      previous.set(item.id, prev);
      if (ds === provider) {
        item.price = b.price;
        item.isAvailable = b.isAvailable !== false;
        prev.price = before;
      } else {
        item.bookPrices = { ...(item.bookPrices ?? {}), [ds]: b.price };
        prev.bookPrices = { ...(prev.bookPrices ?? {}), [ds]: before };
      }
    }
  }
  const movedAt = doc.capturedAt ?? new Date();
  const set = { dataSource: provider, markets: [...markets.values()], previous: [...previous.values()], movedAt, liveFrom: movedAt };
  await EventPrices.updateOne({ _id: eventId }, { $set: packPrices(set) }, { upsert: true });
}

/** Documents of one collection written as given, in order; the schema's validation still applies. */
export async function insertSeedDocuments(collection: keyof typeof SEEDED, docs: readonly SeedDocument[]): Promise<void> {
  const insert = SEEDED[collection];
  if (collection === 'liveOddsSnapshots') {
    for (const d of docs) await writeSnapshotSeed(d);
    return;
  }
  if (collection === 'liveEventData') {
    // Merged into what an event's seeded live stats already wrote.
    await bulkWriteInBatches(
      LiveEventData,
      docs.map(({ _id, ...d }) => ({ updateOne: { filter: { _id }, update: { $set: d }, upsert: true } })),
    );
    return;
  }
  if (collection !== 'events') {
    await insert([...docs]);
    return;
  }
  await insert(
    docs.map((d) => {
      const rest = withoutEventSideFields(d);
      for (const f of EVENT_PART_FIELDS) delete rest[f];
      return rest;
    }),
  );
  await writeEventParts(docs);
  // A new event's 0 views is no document at all, as for an event never viewed.
  await writeEventSideFields(docs.map(({ views, ...d }) => (views === 0 ? d : { ...d, views })));
}

/** Empties what the read API serves: events, their live data and odds, AI output and references. */
export async function deleteAllReadData(): Promise<void> {
  await Promise.all([Event, EventPrices, EventView, EventSettlement, LiveEventData, Recommendation, Pick, Insight, Competition, Region, Team].map((m) => m.collection.deleteMany({})));
}

/** Empties what ingestion writes: events, live data and odds, odds history, references, provider state. */
export async function deleteAllIngested(): Promise<void> {
  await Promise.all([Event, EventPrices, EventView, EventSettlement, LiveEventData, OddsHistory, Competition, Region, Team, ProviderState].map((m) => m.collection.deleteMany({})));
}

/** An account's ledger entries (of these kinds, or all), in chain order: what a test checks was charged. */
export async function findLedgerEntriesOfAccount(accountId: string, kinds?: readonly string[]) {
  return CreditLedger.find(kinds ? { accountId, kind: { $in: kinds } } : { accountId })
    .sort({ seq: 1 })
    .lean();
}

/** How many ledger entries of one kind an account has (a count, not the documents). */
/** Counted by reading the ids, as the ledger check reads the entries it sums (the repository avoids `$sum: 1` groups on FerretDB 1.x). */
export async function countLedgerEntriesOfAccount(accountId: string, kind: string): Promise<number> {
  let n = 0;
  for await (const _ of CreditLedger.find({ accountId, kind }, { _id: 1 }).lean().cursor({ batchSize: 5000 })) n++;
  return n;
}

/** How many requests an account's debits charge (a debit of a batch of like requests counts each). */
export async function countChargedRequestsOfAccount(accountId: string): Promise<number> {
  let n = 0;
  for await (const e of CreditLedger.find({ accountId, kind: 'debit' }, { requests: 1 }).lean().cursor({ batchSize: 5000 })) n += e.requests ?? 1;
  return n;
}

/** A ledger entry written raw, past every check of the chain: the forgery a ledger check must catch. */
export async function insertForgedLedgerEntry(entry: Record<string, unknown>): Promise<void> {
  await CreditLedger.collection.insertOne(entry);
}

export async function deleteLedgerEntryByRef(ref: string): Promise<void> {
  await CreditLedger.deleteOne({ ref });
}

/** A hold as a version before the Redis debit wrote it to MongoDB (its debit already in the ledger). */
export async function insertLegacyMeterHold(id: string, accountId: string, items: { ref: string; cost: number; keyId: string; endpoint: string }[], at: Date): Promise<void> {
  await driverCollection<{ _id: string; accountId: string; items: typeof items; at: Date }>(MeterHold).insertOne({ _id: id, accountId, items, at });
}

export async function countMeterHoldsOfAccount(accountId: string): Promise<number> {
  return MeterHold.countDocuments({ accountId });
}

/** An account's recharge attempt (its `attempt`-th, or any); null when there is none. */
export async function findRechargeAttemptOfAccount(accountId: string, attempt?: number) {
  return RechargeAttempt.findOne(attempt === undefined ? { accountId } : { accountId, attempt }).lean();
}

/** Regions, competitions and teams removed by id: a test takes back what it added. */
export async function deleteReferenceDocuments(ids: { regions?: readonly number[]; competitions?: readonly number[]; teams?: readonly number[] }): Promise<void> {
  await Promise.all([
    ids.regions?.length ? Region.deleteMany({ _id: { $in: ids.regions } }) : undefined,
    ids.competitions?.length ? Competition.deleteMany({ _id: { $in: ids.competitions } }) : undefined,
    ids.teams?.length ? Team.deleteMany({ _id: { $in: ids.teams } }) : undefined,
  ]);
}

/**
 * Fields of one stored document set as given (dotted paths allowed), as a provider's feed or an
 * operator would change them behind the services' back: what a test then expects them to notice.
 */
/** Ids of the stored events matching `filter`, soonest first then by id: what a list must show. */
export async function findEventIdsByStart(filter: Record<string, unknown>): Promise<string[]> {
  const rows = await Event.find(filter, { _id: 1, startDateTime: 1 }).lean<{ _id: string; startDateTime: Date }[]>();
  return rows.sort((a, b) => +a.startDateTime - +b.startDateTime || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).map((r) => String(r._id));
}

export async function setEventFields(eventId: string, set: Record<string, unknown>): Promise<void> {
  await writeEventSideFields([{ ...set, _id: eventId }]);
  // The event's prices are stored apart (EventPrices): `markets...` paths go there.
  const prices = Object.fromEntries(Object.entries(set).filter(([k]) => k === 'markets' || k.startsWith('markets.')));
  if (Object.keys(prices).length) await patchPrices(eventId, prices);
  const rest = withoutEventSideFields(Object.fromEntries(Object.entries(set).filter(([k]) => !(k in prices))));
  if (Object.keys(rest).length) await Event.updateOne({ _id: eventId }, { $set: rest });
}

/** How many of these events are marked settled at `version`: what a test waits for settlement to reach. */
export async function countEventsSettledAt(eventIds: readonly string[], version: number): Promise<number> {
  return EventSettlement.countDocuments({ _id: { $in: eventIds }, settledVersion: version });
}

export async function setCompetitionFields(competitionId: number, set: Record<string, unknown>): Promise<void> {
  await Competition.updateOne({ _id: competitionId }, { $set: set });
}

/**
 * Changes an event's stored prices behind ingest's back, as a seeded snapshot of `dataSource`
 * names them: `liveMarkets.<m>.betItems.<i>.price` (that source's price of the item),
 * `capturedAt` (when they last moved); `stale` marks the event's provider stale.
 */
export async function setLiveOddsSnapshotFields(eventId: string, dataSource: string, set: Record<string, unknown>): Promise<void> {
  const stored = await findPricesOfEvent(eventId);
  if (!stored) throw new Error(`no prices stored for event ${eventId}`);
  const prices: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(set)) {
    const m = /^liveMarkets\.(\d+)\.betItems\.(\d+)\.price$/.exec(path);
    if (m) {
      const item = stored.markets[Number(m[1])]?.betItems[Number(m[2])];
      if (!item) throw new Error(`event ${eventId} has no item at ${path}`);
      prices[`markets.${m[1]}.betItems.${m[2]}.${dataSource === stored.dataSource ? 'price' : `bookPrices.${dataSource}`}`] = value;
    } else if (path === 'capturedAt') prices.movedAt = value;
    else if (path === 'stale') await ProviderState.updateOne({ _id: stored.dataSource }, { $set: { stale: value } }, { upsert: true });
    else throw new Error(`setLiveOddsSnapshotFields: ${path} is not a field a snapshot is served from`);
  }
  if (Object.keys(prices).length) await patchPrices(eventId, prices);
}

/**
 * Fields of an event's prices set by path (`markets.0.betItems.1.price`, `movedAt`): the packed
 * tables are read, changed where the paths say and written back whole.
 */
/** A JSON object or array, whose fields (or indexes) a path can set. */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

async function patchPrices(eventId: string, set: Record<string, unknown>): Promise<void> {
  const stored = await findPricesOfEvent(eventId);
  const tables: Record<string, unknown> = { markets: stored?.markets ?? [], previous: stored?.previous ?? [] };
  const top: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    if (!(keys[0] in tables)) {
      top[path] = value;
      continue;
    }
    if (keys.length === 1) {
      tables[keys[0]] = value;
      continue;
    }
    let node: unknown = tables[keys[0]];
    for (const k of keys.slice(1, -1)) {
      if (!isObject(node)) throw new Error(`patchPrices: ${path} goes through a value that is not an object`);
      node[k] ??= {};
      node = node[k];
    }
    if (!isObject(node)) throw new Error(`patchPrices: ${path} goes through a value that is not an object`);
    node[keys[keys.length - 1]] = value;
  }
  await EventPrices.updateOne({ _id: eventId }, { $set: { ...packPrices(tables), ...top } });
}

/** Events made to look created at `at` (timestamps bypassed): how old a test needs them to be. */
export async function backdateEventsCreatedAt(eventIds: readonly string[], at: Date): Promise<void> {
  await driverCollection<{ _id: string; createdAt: Date }>(Event).updateMany({ _id: { $in: [...eventIds] } }, { $set: { createdAt: at } });
}

/** Stored price history, one row per bet item and reprice, per bet item in time order: what a test checks ingestion appended. */
export async function findOddsHistoryRows(filter: { eventId?: string; betItemId?: string } = {}) {
  const eventId = filter.eventId ?? (filter.betItemId ? /^[0-9]+/.exec(filter.betItemId)?.[0] : undefined);
  const docs = await OddsHistory.find(eventId ? { eventId } : {}).lean<{ _id: string; eventId: string; dataSource: string; at: Date; items: { id: string; price: number }[] }[]>();
  const rows = docs.flatMap((d) => d.items.map((i) => ({ betItemId: i.id, eventId: d.eventId, dataSource: d.dataSource, price: i.price, at: d.at })));
  return rows.filter((r) => !filter.betItemId || r.betItemId === filter.betItemId).sort((a, b) => (a.betItemId < b.betItemId ? -1 : a.betItemId > b.betItemId ? 1 : a.at.getTime() - b.at.getTime()));
}

/** The live odds snapshots served for an event (or every event with prices), one per dataSource. */
export async function findLiveOddsSnapshots(filter: { eventId?: string } = {}) {
  const ids = filter.eventId ? [filter.eventId] : (await EventPrices.find({}, { _id: 1 }).lean<{ _id: string }[]>()).map((p) => String(p._id));
  const out = [];
  for (const id of ids) {
    for (const ds of await findLiveOddsDataSourcesOfEvent(id)) {
      const snap = await findLiveOddsSnapshot(id, ds);
      if (snap) out.push({ _id: `${id}|${ds}`, ...snap });
    }
  }
  return out;
}

/** Event documents written raw, as a store of an earlier layout holds them (no routing of any field): what a migration test starts from. */
export async function insertRawEventDocuments(docs: readonly Record<string, unknown>[], snapshots: readonly Record<string, unknown>[] = []): Promise<void> {
  await Event.collection.insertMany(docs);
  if (snapshots.length) await Event.db.collection('liveoddssnapshots').insertMany(snapshots);
}

/** Prices documents written raw, as a store of an earlier layout holds them (tables nested): what a migration test starts from. */
export async function insertRawPricesDocuments(docs: readonly Record<string, unknown>[]): Promise<void> {
  await EventPrices.collection.insertMany(docs);
}

/** One prices document as stored (tables packed). */
export async function findRawPricesDocument(eventId: string): Promise<Record<string, unknown> | null> {
  return driverCollection<SeedDocument>(EventPrices).findOne({ _id: eventId });
}

/** Whether a collection of this name exists in the database. */
export async function collectionExists(name: string): Promise<boolean> {
  const db = Event.db.db;
  if (!db) throw new Error('mongodb not connected');
  return (await db.listCollections({ name }).toArray()).length > 0;
}

/** When each stored event, prices and live-data document was last written (id -> epoch ms): what a test checks a poll did not touch. */
export async function findStoredUpdateTimes(): Promise<{ events: Map<string, number>; prices: Map<string, number>; liveEventData: Map<string, number> }> {
  const times = async (collection: { find(filter: object, projection: object): { toArray(): Promise<{ _id: unknown; updatedAt?: Date }[]> } }) =>
    new Map<string, number>((await collection.find({}, { projection: { updatedAt: 1 } }).toArray()).map((d) => [String(d._id), d.updatedAt?.getTime() ?? 0]));
  const [events, prices, liveEventData] = await Promise.all([times(Event.collection), times(EventPrices.collection), times(LiveEventData.collection)]);
  return { events, prices, liveEventData };
}

export async function countAllLiveEventData(): Promise<number> {
  return LiveEventData.countDocuments();
}

/** The stored recommendations on these events, whole, by id: what settlement wrote to each. */
export async function findRecommendationsOfEventsById(eventIds: readonly string[]) {
  return Recommendation.find({ eventId: { $in: eventIds } })
    .sort({ _id: 1 })
    .lean();
}

/** Stored picks (these ones, or every settled one), whole, by id: what settlement wrote to each. */
export async function findPicksById(filter: { ids: readonly string[] } | { settled: true }) {
  return Pick.find('ids' in filter ? { _id: { $in: filter.ids } } : { settled: true })
    .sort({ _id: 1 })
    .lean();
}

/** A recommendation written raw, past its schema: the hand edit a performance check must name. */
export async function insertRawRecommendation(doc: { _id: string } & Record<string, unknown>): Promise<void> {
  await driverCollection<SeedDocument>(Recommendation).insertOne(doc);
}

export async function deleteRecommendation(id: string): Promise<void> {
  await Recommendation.deleteOne({ _id: id });
}

/** One stored performance rollup (`${day}|${confidence}`); null when there is none. */
export async function findRollupById(id: string) {
  return PerformanceRollup.findById(id).lean();
}

/** Counters of a stored rollup overwritten: the tampering a performance check must catch. */
export async function setRollupFields(id: string, set: Record<string, unknown>): Promise<void> {
  await PerformanceRollup.updateOne({ _id: id }, { $set: set });
}

/** Every stored session of an account made already expired: the session a test then sees refused. */
export async function expireSessionsOfAccount(accountId: string, at: Date): Promise<void> {
  await Session.updateMany({ accountId }, { $set: { expiresAt: at } });
}

/** Every stored session, as stored: what a read of the collection would give an intruder. */
export async function findAllSessions() {
  return Session.find({}).lean();
}

/** Recommendations and rollups a test wrote under its own id prefix and day. */
export async function deleteRecommendationsWithIdPrefix(prefix: string): Promise<void> {
  await Recommendation.deleteMany({ _id: { $regex: `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` } });
}

export async function deleteRollupsOfDay(day: string): Promise<void> {
  await PerformanceRollup.deleteMany({ day });
}

/** One stored processed insight (its id is its event's), whole; null when there is none. */
export async function findInsightById(eventId: string) {
  return Insight.findById(eventId).lean();
}

/** The stored processed insights of these events, whole (absent ones are left out). */
export async function findInsightsOfEvents(eventIds: readonly string[]) {
  return Insight.find({ _id: { $in: eventIds } }).lean();
}

/** Every settled recommendation: its event, when it was written and how it settled. */
export async function findAllSettledRecommendations() {
  return Recommendation.find({ settled: true }, { eventId: 1, createdAt: 1, result: 1, odds: 1, closingOdds: 1, clv: 1 }).lean();
}

/** Start and status of each of these events (absent ones are left out). */
export async function findEventStartsAndStatusesByIds(eventIds: readonly string[]) {
  return Event.find({ _id: { $in: eventIds } }, { startDateTime: 1, status: 1 }).lean();
}

/** The start of the event that starts last; null when there is no event. */
export async function findLatestEventStart(): Promise<Date | null> {
  const latest = await Event.findOne({}, { startDateTime: 1 }).sort({ startDateTime: -1 }).lean();
  return latest?.startDateTime ?? null;
}

/** Auto-recharge settings written as given, past the rules the services keep (settings an earlier version let be saved). */
export async function setAccountAutoRechargeFields(accountId: string, set: Record<string, unknown>): Promise<void> {
  await driverCollection<SeedDocument>(Account).updateOne({ _id: accountId }, { $set: Object.fromEntries(Object.entries(set).map(([k, v]) => [`autoRecharge.${k}`, v])) });
}

/** Which recommendations the betting-recommendations list shows (its filters, as the API takes them). */
export interface RecommendationsFilter {
  settled?: boolean;
  result?: string;
  eventId?: string;
  confidence?: string;
}

const recommendationsWhere = (f: RecommendationsFilter) =>
  Object.fromEntries(Object.entries({ settled: f.settled, result: f.result, eventId: f.eventId, confidence: f.confidence }).filter(([, v]) => v !== undefined));

/**
 * A page of the list and its count as the collection itself answers them (a count and a sort of
 * every recommendation): what the read model the API serves from must agree with.
 */
export async function recommendationsPageFromStore(f: RecommendationsFilter, page: number, limit: number): Promise<{ count: number; ids: string[] }> {
  const [count, docs] = await Promise.all([
    Recommendation.countDocuments(recommendationsWhere(f)),
    Recommendation.find(recommendationsWhere(f), { _id: 1 })
      .sort({ createdAt: -1, _id: 1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<{ _id: string }[]>(),
  ]);
  return { count, ids: docs.map((d) => d._id) };
}

/**
 * The ids of the processed-insights page of `statuses` without an event or team filter, as the
 * store alone answers it (tests check the read model against it): the events of those statuses
 * that have an insight, soonest first (latest first when a closed status is asked), id breaking ties.
 */
export async function processedInsightsPageFromStore(statuses: readonly string[], limit: number): Promise<string[]> {
  const closed = statuses.some((s) => ['completed', 'postponed', 'cancelled'].includes(s));
  const events = await Event.find({ status: { $in: [...statuses] } }, { startDateTime: 1 }).lean<{ _id: string; startDateTime: Date }[]>();
  const withInsight = new Set((await Insight.find({}, { _id: 1 }).lean<{ _id: string }[]>()).map((i) => String(i._id)));
  const dir = closed ? -1 : 1;
  return events
    .filter((e) => withInsight.has(String(e._id)))
    .sort((a, b) => dir * (a.startDateTime.getTime() - b.startDateTime.getTime()) || (String(a._id) < String(b._id) ? -1 : 1))
    .slice(0, limit)
    .map((e) => String(e._id));
}

/** Writes an insight's fields behind the insights read model (an analysis whose process died before its publish). */
export async function setInsightFields(eventId: string, set: Record<string, unknown>): Promise<void> {
  await Insight.updateOne({ _id: eventId }, { $set: set }, { upsert: true });
}
