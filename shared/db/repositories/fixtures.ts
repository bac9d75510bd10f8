import {
  Competition,
  CreditLedger,
  Event,
  Insight,
  LiveEventData,
  LiveOddsSnapshot,
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

const SEEDED = {
  events: Event,
  liveEventData: LiveEventData,
  liveOddsSnapshots: LiveOddsSnapshot,
  recommendations: Recommendation,
  picks: Pick,
  insights: Insight,
  providerStates: ProviderState,
} as const;

/** A document as a test writes it: plain values, checked by the collection's schema on insert. */
export type SeedDocument = { _id: string } & Record<string, unknown>;

/** Documents of one collection written as given, in order; the schema's validation still applies. */
export async function insertSeedDocuments(collection: keyof typeof SEEDED, docs: readonly SeedDocument[]): Promise<void> {
  const model = SEEDED[collection] as unknown as { insertMany(docs: readonly SeedDocument[]): Promise<unknown> };
  await model.insertMany(docs);
}

/** Empties what the read API serves: events, their live data and odds, AI output and references. */
export async function deleteAllReadData(): Promise<void> {
  await Promise.all([Event, LiveEventData, LiveOddsSnapshot, Recommendation, Pick, Insight, Competition, Region, Team].map((m) => m.collection.deleteMany({})));
}

/** Empties what ingestion writes: events, live data and odds, odds history, references, provider state. */
export async function deleteAllIngested(): Promise<void> {
  await Promise.all([Event, LiveEventData, LiveOddsSnapshot, OddsHistory, Competition, Region, Team, ProviderState].map((m) => m.collection.deleteMany({})));
}

/** An account's ledger entries (of these kinds, or all), in chain order: what a test checks was charged. */
export async function findLedgerEntriesOfAccount(accountId: string, kinds?: readonly string[]) {
  return CreditLedger.find(kinds ? { accountId, kind: { $in: kinds } } : { accountId })
    .sort({ seq: 1 })
    .lean();
}

/** A ledger entry written raw, past every check of the chain: the forgery a ledger check must catch. */
export async function insertForgedLedgerEntry(entry: Record<string, unknown>): Promise<void> {
  await CreditLedger.collection.insertOne(entry);
}

export async function deleteLedgerEntryByRef(ref: string): Promise<void> {
  await CreditLedger.deleteOne({ ref });
}

/** Holds of an account's debits not yet settled: none left once its requests have answered. */
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
export async function setEventFields(eventId: string, set: Record<string, unknown>): Promise<void> {
  await Event.updateOne({ _id: eventId }, { $set: set });
}

export async function setCompetitionFields(competitionId: number, set: Record<string, unknown>): Promise<void> {
  await Competition.updateOne({ _id: competitionId }, { $set: set });
}

export async function setLiveOddsSnapshotFields(eventId: string, dataSource: string, set: Record<string, unknown>): Promise<void> {
  await LiveOddsSnapshot.updateOne({ _id: `${eventId}|${dataSource}` }, { $set: set });
}

/** Events made to look created at `at` (timestamps bypassed): how old a test needs them to be. */
export async function backdateEventsCreatedAt(eventIds: readonly string[], at: Date): Promise<void> {
  await Event.collection.updateMany({ _id: { $in: eventIds } } as never, { $set: { createdAt: at } });
}

/** Stored price history rows, per bet item in time order: what a test checks ingestion appended. */
export async function findOddsHistoryRows(filter: { eventId?: string; betItemId?: string } = {}) {
  return OddsHistory.find(filter).sort({ betItemId: 1, at: 1 }).lean();
}

/** Stored live odds snapshots (of one event, or all), whole. */
export async function findLiveOddsSnapshots(filter: { eventId?: string } = {}) {
  return LiveOddsSnapshot.find(filter).lean();
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
  await Recommendation.collection.insertOne(doc as never);
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
