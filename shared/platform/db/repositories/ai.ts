import type { Connection, FilterQuery } from 'mongoose';
import { type BulkCounts, bulkWriteInBatches, chunks, insertInBatches } from '../bulk';
import { Insight, ModelFit, Pick, Recommendation } from '../models';
import type { PickDoc, PickEventDoc, PickLegDoc } from '../models/pick';
import type { RecommendationDoc } from '../models/recommendation';
import type { LegRecommendation, PickRead, RecommendationRead } from '../../../domain/settlement/plan';
import { ensureFerretPostgresIndexes } from '../ferretIndexes';
import { findWhereIn, updateWhereIdIn } from '../lookup';
import type { InsightDoc } from '../models/insight';
import type { ModelFitDoc } from '../models/modelFit';
import { isDuplicateKey } from '../duplicateKey';
import { errorField } from '../../errorFields';
import type { ResultWrite } from '../../../domain/settlement/plan';
import type { SettledForCommit } from '../../../domain/commitments/records';
import type { TrackRecordBet } from '../../../domain/trackRecord/aggregate';
import type { RowSource } from '../../../domain/recommendations/rows';

/** The stored documents of the AI aggregate, as its reads return them (declared with their models). */
export type { InsightDoc, PickDoc, PickEventDoc, PickLegDoc, RecommendationDoc };

/** A settled bet as the performance rollups count it. */
export type SettledBetRow = Pick<RecommendationDoc, '_id' | 'confidence' | 'result' | 'resultDetail' | 'returnPerUnit' | 'edgePercentage' | 'eventStartAt'>;

const SETTLED_BET_FIELDS = { confidence: 1, result: 1, resultDetail: 1, returnPerUnit: 1, edgePercentage: 1, eventStartAt: 1 } as const;

/** The settled recommendations whose eventStartAt falls in one of `ranges` (one query). */
export async function findSettledBetsInRanges(ranges: readonly { $gte: Date; $lt: Date }[]): Promise<SettledBetRow[]> {
  const filter: FilterQuery<RecommendationDoc> = { settled: true, $or: ranges.map((r) => ({ eventStartAt: r })) };
  return Recommendation.find(filter, SETTLED_BET_FIELDS).lean<SettledBetRow[]>();
}

/** Every settled recommendation, as the performance rollups count it. */
export async function findAllSettledBets(): Promise<SettledBetRow[]> {
  return Recommendation.find({ settled: true }, SETTLED_BET_FIELDS).lean<SettledBetRow[]>();
}

/** A recommendation as settlement grades it (and, with its list fields, publishes its row of the betting-recommendations read model). */
export type SettlementRecommendationRow = RecommendationRead & { eventId: string; eventStartAt: Date; createdAt?: Date; confidence: string; settlementWrites?: number | null };

const SETTLEMENT_REC_FIELDS = {
  eventId: 1,
  betItemId: 1,
  betTypeSysname: 1,
  code: 1,
  line: 1,
  odds: 1,
  settled: 1,
  result: 1,
  resultDetail: 1,
  returnPerUnit: 1,
  settledVersion: 1,
  settlementError: 1,
  eventStartAt: 1,
  createdAt: 1,
  confidence: 1,
  settlementWrites: 1,
} as const;

/** Every recommendation of the events of `eventIds`, with the fields settlement grades. */
export async function findRecommendationsOfEventsForSettlement(eventIds: readonly string[]): Promise<SettlementRecommendationRow[]> {
  return findWhereIn<SettlementRecommendationRow>(Recommendation, 'eventId', eventIds, SETTLEMENT_REC_FIELDS);
}

/** The settlement outcome of the recommendations of `ids` (legs of picks). */
export async function findLegRecommendations(ids: readonly string[]): Promise<(LegRecommendation & { _id: string })[]> {
  return findWhereIn<LegRecommendation & { _id: string }>(Recommendation, '_id', ids, { settled: 1, result: 1, resultDetail: 1, returnPerUnit: 1 });
}

/** The closing value settlement stored on the recommendations of `ids` (legs of picks): null until settled with a closing line. */
export async function findClosingValuesOfRecommendations(ids: readonly string[]): Promise<{ _id: string; closingOdds?: number | null; clv?: number | null }[]> {
  return findWhereIn<{ _id: string; closingOdds?: number | null; clv?: number | null }>(Recommendation, '_id', ids, { closingOdds: 1, clv: 1 });
}

/** Recommendation updates (settlement's conditional updateOne ops), bulk in server-sized batches. */
export async function bulkWriteRecommendations(ops: readonly unknown[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Recommendation, ops);
}

/**
 * A settlement result as a conditional update: matched only while the document is as it was read,
 * so a concurrent or repeated write matches nothing (settlement re-reads and re-plans).
 */
export function resultUpdate(w: ResultWrite) {
  return {
    updateOne: {
      filter: { _id: w.id, ...w.expect },
      update: { $set: w.set, ...(w.correction ? { $push: { corrections: w.correction } } : {}), ...(w.counted ? { $inc: { settlementWrites: 1 } } : {}) },
    },
  };
}

/** Settlement's results on recommendations, each conditional (`resultUpdate`). */
export async function writeRecommendationResults(writes: readonly ResultWrite[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Recommendation, writes.map(resultUpdate));
}

/** The event ids (as stored) with bets not settled and not parked with a grading error. */
export async function distinctEventIdsWithOpenBets(): Promise<unknown[]> {
  return Recommendation.distinct('eventId', { settled: false, settlementError: null });
}

/** A pick as settlement grades it. */
export type SettlementPickRow = PickRead & { eventIds: string[] };

const SETTLEMENT_PICK_FIELDS = { pickType: 1, legs: 1, eventIds: 1, settled: 1, result: 1, resultDetail: 1, returnPerUnit: 1, settledVersion: 1, legsState: 1, settlementError: 1 } as const;

/** Every pick with a leg on one of `eventIds`, with the fields settlement grades. */
export async function findPicksOfEventsForSettlement<T extends SettlementPickRow = SettlementPickRow>(eventIds: readonly string[]): Promise<T[]> {
  return findWhereIn<T>(Pick, 'eventIds', eventIds, SETTLEMENT_PICK_FIELDS);
}

/** Pick updates (settlement's conditional updateOne ops), bulk in server-sized batches. */
/** Settlement's results on picks, each conditional (`resultUpdate`). */
export async function writePickResults(writes: readonly ResultWrite[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Pick, writes.map(resultUpdate));
}

/** What the AI worker stores: recommendations, picks, insights. */

/** The analysis insight of an event's processed insight; null when it has none. */
export async function findInsightAnalysisOfEvent(eventId: string): Promise<Pick<InsightDoc, '_id' | 'analysisInsight'> | null> {
  return Insight.findById(eventId, { analysisInsight: 1 }).lean<Pick<InsightDoc, '_id' | 'analysisInsight'>>();
}

/** An event's recommendations, best edge first (at most 100). */
export async function findTopRecommendationsOfEvent(eventId: string) {
  return Recommendation.find({ eventId }).sort({ edgePercentage: -1, _id: 1 }).limit(100).lean<RecommendationDoc[]>();
}

/** The latest featured pick with a leg on the event; null when there is none. */
export async function findLatestFeaturedPickOfEvent(eventId: string) {
  return Pick.findOne({ eventIds: eventId }).sort({ featuredDate: -1, featuredOrder: 1 }).lean<PickDoc>();
}

/** An event's recommendations, by id. */
export async function findRecommendationsOfEvent(eventId: string): Promise<RecommendationDoc[]> {
  return Recommendation.find({ eventId }).sort({ _id: 1 }).lean<RecommendationDoc[]>();
}

/** The picks with a leg on the event, by id. */
export async function findPicksOfEvent(eventId: string): Promise<PickDoc[]> {
  return Pick.find({ eventIds: eventId }).sort({ _id: 1 }).lean<PickDoc[]>();
}

/** The first `limit` picks matching the filter, in featured order. */
/** Which featured picks: starting in [from, until), of a region or a competition. */
export interface FeaturedPicksFilter {
  from: Date;
  until?: Date;
  regionId?: number;
  competitionId?: number;
}

export async function findFeaturedPicks(f: FeaturedPicksFilter, limit: number) {
  const filter: FilterQuery<PickDoc> = { startsAt: f.until ? { $gte: f.from, $lt: f.until } : { $gte: f.from } };
  if (f.regionId !== undefined) filter.regionIds = f.regionId;
  if (f.competitionId !== undefined) filter.competitionIds = f.competitionId;
  return Pick.find(filter).sort({ featuredDate: 1, featuredOrder: 1, _id: 1 }).limit(limit).lean<PickDoc[]>();
}

/** Which insights: of these stored statuses, of one event, of events of these teams (normalized names). */
export interface InsightsFilter {
  statuses: readonly string[];
  eventId?: string;
  teamSearch?: readonly string[];
}

/** A batch of the insights matching the filter by start time (1: soonest first, -1: latest first). */
export async function findInsightsBatchByStart(f: InsightsFilter, direction: 1 | -1, skip: number, limit: number) {
  const filter: FilterQuery<InsightDoc> = { status: { $in: [...f.statuses] } };
  if (f.eventId) filter._id = f.eventId;
  if (f.teamSearch) filter.teamSearch = { $in: [...f.teamSearch] };
  return Insight.find(filter).sort({ startDateTime: direction, _id: 1 }).skip(skip).limit(limit).lean<InsightDoc[]>();
}

/** The insights of these events (at most one each), by id, looked up as FerretDB can push down. */
export async function findInsightsByIds(eventIds: readonly string[]): Promise<InsightDoc[]> {
  return findWhereIn<InsightDoc>(Insight, '_id', eventIds);
}

/** The current recommendations of the upcoming events' insights whose event starts after `after`. */
/** The analyses of the events still to start (the opportunities read model's rebuild). */
export async function findUpcomingInsightsOpportunityRows(after: Date) {
  return Insight.find({ status: 'upcoming', startDateTime: { $gt: after } }, { recommendationIds: 1, analysisTimestamp: 1 }).lean();
}

/**
 * The recommendations of `ids`, best edge first (then by id). Looked up a hundred at a time, so on
 * FerretDB each is found by its index: one `$in` would read every recommendation ever written.
 */
export async function findRecommendationsByIdsBestEdgeFirst(ids: readonly string[]): Promise<RecommendationDoc[]> {
  const out: RecommendationDoc[] = [];
  for (const part of chunks(ids, 100)) out.push(...(await findWhereIn<RecommendationDoc>(Recommendation, '_id', part)));
  const id = (r: RecommendationDoc) => r._id;
  return out.sort((a, b) => b.edgePercentage - a.edgePercentage || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/** Recommendations matching a store filter (tests, scripts and inspection; the API filters with `RecommendationsFilter`). */
export async function countRecommendationsMatching(filter: FilterQuery<RecommendationDoc>): Promise<number> {
  return Recommendation.countDocuments(filter);
}

/** Every recommendation, only the fields of the list's read model (shared/domain/recommendations/rows.ts): its rebuild. */
export async function findAllRecommendationRowSources() {
  return Recommendation.find({}, { createdAt: 1, eventId: 1, confidence: 1, settled: 1, result: 1, settlementWrites: 1, settledVersion: 1, settlementError: 1 }).lean<RowSource[]>();
}

/** Every processed insight: when it was last analysed. */
export async function findAllInsightsAnalysisTimestamp() {
  return Insight.find({}, { analysisTimestamp: 1 }).lean();
}

/** The processed insights of these events: when each was first stored. */
export async function findInsightsCreatedAtOfEvents(eventIds: string[]) {
  return Insight.find({ _id: { $in: eventIds } }, { createdAt: 1 }).lean();
}

/** The recommendations on these events: whether and when each was settled. */
export async function findRecommendationsSettlementOfEvents(eventIds: string[]) {
  return Recommendation.find({ eventId: { $in: eventIds } }, { eventId: 1, settled: 1, settlementDate: 1 }).lean();
}

/** The picks with a leg on any of these events: their events, whether and when each was settled. */
export async function findPicksSettlementOfEvents(eventIds: string[]) {
  return Pick.find({ eventIds: { $in: eventIds } }, { eventIds: 1, settled: 1, settlementDate: 1 }).lean();
}

/** The first settled recommendation's settlement date; null when none is settled. */
export async function findFirstSettledRecommendation() {
  return Recommendation.findOne({ settled: true }, { settlementDate: 1 }).sort({ settlementDate: 1 }).lean();
}

export async function countSettledRecommendations(): Promise<number> {
  return Recommendation.countDocuments({ settled: true });
}

export async function countSettledPicks(): Promise<number> {
  return Pick.countDocuments({ settled: true });
}

/** Inserts recommendations (ordered: false, every valid one is written). */
export async function insertRecommendationsUnordered(docs: Partial<RecommendationDoc>[]): Promise<void> {
  await insertInBatches(Recommendation, docs);
}

/** Inserts picks (ordered: false, every valid one is written). */
export async function insertPicksUnordered(docs: Partial<PickDoc>[]): Promise<void> {
  await insertInBatches(Pick, docs);
}

/**
 * The raw store operations bench:store measures, on a connection of their own, through the
 * driver's collection (no mongoose document layer): updateOne by _id ($set of edgePercentage)
 * and find by eventId.
 */
export async function setRecommendationEdgeRaw(conn: Connection, id: string, edgePercentage: number): Promise<void> {
  await conn.collection<{ _id: string; edgePercentage: number }>('recommendations').updateOne({ _id: id }, { $set: { edgePercentage } });
}

export async function findRecommendationsOfEventRaw(conn: Connection, eventId: string) {
  return conn.collection('recommendations').find({ eventId }).toArray();
}

/** Inserts documents as they are into the recommendations collection of a connection (bench:store's load). */
export async function insertRecommendationsRaw(conn: Connection, docs: object[]): Promise<void> {
  await conn.collection('recommendations').insertMany(docs);
}

/** Creates the recommendation indexes of the schema on a connection. */
export async function createRecommendationIndexesOn(conn: Connection): Promise<void> {
  await conn.model(Recommendation.modelName, Recommendation.schema).createIndexes();
}

/** Adds the GIN indexes of shared/platform/db/ferretIndexes.ts for the recommendations of a connection's database; returns their names. */
export async function ensureRecommendationGinIndexesOn(postgresUrl: string, db: string, conn: Connection): Promise<string[]> {
  return ensureFerretPostgresIndexes(postgresUrl, db, [conn.model(Recommendation.modelName, Recommendation.schema)]);
}

/** Repository of the AI aggregate: Recommendation, Pick, Insight, ModelFit. */

/** Sets the status of the insights of these events where it differs (one write). */
export async function setInsightsStatusWhereDifferent(eventIds: readonly string[], status: string): Promise<void> {
  await updateWhereIdIn(Insight, eventIds, { status: { $ne: status } }, { $set: { status } });
}

/** Sets the status of one event's insight where it differs. */
export async function setInsightStatusWhereDifferent(eventId: string, status: string): Promise<void> {
  await Insight.updateOne({ _id: eventId, status: { $ne: status } }, { $set: { status } });
}

/** The input hash and status of one event's insight (null when it has none). */
export async function findInsightInputHash(eventId: string) {
  return Insight.findById(eventId, { inputHash: 1, status: 1, analysisTimestamp: 1, recommendationIds: 1 }).lean();
}

/** The fields an analysis writes into an event's insight. */
export type InsightAnalysisFields = Partial<Omit<InsightDoc, '_id' | 'createdAt' | 'updatedAt'>> & { analysisTimestamp: Date };

/**
 * Writes an event's insight unless a newer analysis is stored (a slower job that analysed older
 * prices must not overwrite it). A duplicate-key error (the insert of the upsert losing a race to
 * another writer) is not an error.
 */
export async function upsertInsightUnlessNewerAnalysis(eventId: string, fields: InsightAnalysisFields): Promise<void> {
  await Insight.updateOne({ _id: eventId, $or: [{ analysisTimestamp: { $lte: fields.analysisTimestamp } }, { analysisTimestamp: { $exists: false } }] }, { $set: fields }, { upsert: true }).catch(
    (err) => {
      if (!isDuplicateKey(err)) throw err;
    },
  );
}

/**
 * Inserts the recommendations that are not stored yet: one insert, unordered, where a stored id
 * is a duplicate key and stays untouched (insert-only). Returns the documents this call
 * inserted, as stored (cast by the schema, its timestamps kept as given), so the caller needs
 * no read-back: on FerretDB every read is a round trip through its JSON decoding.
 */
export async function insertRecommendationsIfAbsent(docs: readonly ({ _id: string } & Record<string, unknown>)[]): Promise<RecommendationDoc[]> {
  if (docs.length === 0) return [];
  try {
    return (await Recommendation.insertMany(docs, { ordered: false })).map((d) => d.toObject());
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // The documents of the insert that were written, as mongoose hands them back on the error.
    const inserted = errorField(err, 'insertedDocs');
    const docs: readonly unknown[] = Array.isArray(inserted) ? inserted : [];
    const stored: RecommendationDoc[] = [];
    for (const d of docs) if (d instanceof Recommendation) stored.push(d.toObject());
    return stored;
  }
}

/** Recommendations by id, whole. */
export async function findRecommendationsByIds(ids: readonly string[]): Promise<RecommendationDoc[]> {
  return findWhereIn<RecommendationDoc>(Recommendation, '_id', ids);
}

/** The fitted model of a sport (null when none was fitted). */
export async function findModelFitOfSport(sportId: number) {
  return ModelFit.findById(`fit-${sportId}`).lean();
}

/** A sport's fit as the refit job writes it. */
export type ModelFitFields = Omit<ModelFitDoc, '_id' | 'createdAt' | 'updatedAt'>;

/**
 * Writes a sport's fit unless a fit of a newer window is stored. Returns false when it was not
 * written (the upsert's insert hits the stored newer fit's _id: duplicate key).
 */
export async function upsertModelFitUnlessNewerWindow(sportId: number, fields: ModelFitFields): Promise<boolean> {
  let written = true;
  await ModelFit.updateOne({ _id: `fit-${sportId}`, $or: [{ window: { $lte: fields.window } }, { window: { $exists: false } }] }, { $set: fields }, { upsert: true }).catch((err) => {
    if (!isDuplicateKey(err)) throw err;
    written = false; // a newer window's fit is already stored
  });
  return written;
}

/** What a pick shows of these events' insights (a short list: looked up one id at a time on FerretDB). */
export async function findInsightPickBodiesByIds(eventIds: readonly string[]) {
  return findWhereIn<{ _id: string; analysisInsight?: unknown; matchSimulation?: unknown }>(Insight, '_id', eventIds, { analysisInsight: 1, matchSimulation: 1 });
}

/** The stored pre-kickoff blend inputs of these events' insights, with analysis and start times. */
export async function findInsightBlendInputsByEventIds(eventIds: readonly string[]) {
  return Insight.find({ _id: { $in: eventIds } }, { 'analysisInsight.blendInputs': 1, analysisTimestamp: 1, startDateTime: 1 }).lean();
}

/** The featured picks of one UTC day, whole. */
export async function findPicksOfFeaturedDay(day: string) {
  return Pick.find({ featuredDate: day }).lean();
}

/** Deletes these picks where not started at `at` and not settled; returns how many were deleted. */
export async function deleteUnstartedUnsettledPicksByIds(ids: readonly string[], at: Date): Promise<number> {
  return (await Pick.deleteMany({ _id: { $in: ids }, startsAt: { $gt: at }, settled: false })).deletedCount;
}

/**
 * A pick's content without its id: the schema's fields, values typed loosely (mongoose's
 * document-array types do not describe plain arrays of text).
 */
export type PickContent = { [K in keyof Omit<PickDoc, '_id' | 'createdAt' | 'updatedAt'>]?: unknown };

/**
 * (Re)writes a pick unless it has started at `at`. A duplicate-key error (a started pick with
 * the same id is stored: the upsert's insert collides with it) leaves it as it is.
 */
export async function upsertPickUnlessStarted(id: string, content: PickContent, at: Date): Promise<void> {
  await Pick.updateOne({ _id: id, startsAt: { $gt: at } }, { $set: content }, { upsert: true }).catch((err) => {
    if (!isDuplicateKey(err)) throw err;
  });
}

/** The settled recommendations of these events, as their settlement is committed (closingOdds and clv where captured). */
export async function findSettledRecommendationsOfEvents(eventIds: readonly string[]) {
  return findWhereIn<SettledForCommit>(
    Recommendation,
    'eventId',
    eventIds,
    { result: 1, resultDetail: 1, returnPerUnit: 1, settledVersion: 1, settlementDate: 1, closingOdds: 1, clv: 1 },
    { settled: true },
  );
}

/** The settled picks with a leg on these events, as their settlement is committed. */
export async function findSettledPicksOfEvents(eventIds: readonly string[]) {
  return findWhereIn<Omit<SettledForCommit, 'closingOdds' | 'clv'>>(
    Pick,
    'eventIds',
    eventIds,
    { result: 1, resultDetail: 1, returnPerUnit: 1, settledVersion: 1, settlementDate: 1 },
    { settled: true },
  );
}

/** Settled recommendations whose event started at or after `since`, optionally of one sport and confidence, oldest start first: the track record. */
export async function findSettledRecommendationsForTrackRecord(filter: { since: Date; sportId?: number; confidence?: string }) {
  const q: FilterQuery<RecommendationDoc> = { settled: true, eventStartAt: { $gte: filter.since } };
  if (filter.sportId !== undefined) q.sportId = filter.sportId;
  if (filter.confidence) q.confidence = filter.confidence;
  return Recommendation.find(q, {
    eventId: 1,
    betItemId: 1,
    createdAt: 1,
    confidence: 1,
    probability: 1,
    odds: 1,
    result: 1,
    resultDetail: 1,
    returnPerUnit: 1,
    eventStartAt: 1,
    sportId: 1,
    closingOdds: 1,
    clv: 1,
  })
    .sort({ eventStartAt: 1, _id: 1 })
    .lean<(TrackRecordBet & { _id: string; eventId: string; betItemId: string; createdAt: Date; sportId: number; closingOdds?: number | null })[]>();
}
