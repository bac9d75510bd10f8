import { bulkWriteInBatches } from '../bulk';
import { Insight, ModelFit, Pick, Recommendation } from '../models';
import type { InsightDoc } from '../models/insight';
import type { ModelFitDoc } from '../models/modelFit';
import type { PickDoc } from '../models/pick';

/** Repository of the AI aggregate: Recommendation, Pick, Insight, ModelFit. */

/** Sets the status of the insights of these events where it differs (one write). */
export async function setInsightsStatusWhereDifferent(eventIds: readonly string[], status: string): Promise<void> {
  await Insight.updateMany({ _id: { $in: eventIds }, status: { $ne: status } }, { $set: { status } });
}

/** Sets the status of one event's insight where it differs. */
export async function setInsightStatusWhereDifferent(eventId: string, status: string): Promise<void> {
  await Insight.updateOne({ _id: eventId, status: { $ne: status } }, { $set: { status } });
}

/** The input hash and status of one event's insight (null when it has none). */
export async function findInsightInputHash(eventId: string) {
  return Insight.findById(eventId, { inputHash: 1, status: 1 }).lean();
}

/** The fields an analysis writes into an event's insight. */
export type InsightAnalysisFields = Partial<Omit<InsightDoc, '_id' | 'createdAt' | 'updatedAt'>> & { analysisTimestamp: Date };

/**
 * Writes an event's insight unless a newer analysis is stored (a slower job that analysed older
 * prices must not overwrite it). A duplicate-key error (the insert of the upsert losing a race to
 * another writer) is not an error.
 */
export async function upsertInsightUnlessNewerAnalysis(eventId: string, fields: InsightAnalysisFields): Promise<void> {
  await Insight.updateOne(
    { _id: eventId, $or: [{ analysisTimestamp: { $lte: fields.analysisTimestamp } }, { analysisTimestamp: { $exists: false } }] },
    { $set: fields },
    { upsert: true },
  ).catch((err) => {
    if ((err as { code?: number }).code !== 11000) throw err;
  });
}

/**
 * Inserts recommendations that are not stored yet (insert-only upserts keyed by _id: a stored one
 * is never touched), in server-sized batches, without mongoose timestamps. Returns how many were inserted.
 */
export async function insertRecommendationsIfAbsent(docs: readonly ({ _id: string } & Record<string, unknown>)[]): Promise<number> {
  const res = await bulkWriteInBatches(
    Recommendation,
    docs.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id },
        // Typed loosely: mongoose's document-array types do not describe plain arrays of text.
        update: { $setOnInsert: doc as Record<string, unknown> },
        upsert: true,
      },
    })),
    { timestamps: false },
  );
  return res.upsertedCount;
}

/** Recommendations by id, whole. */
export async function findRecommendationsByIds(ids: readonly string[]) {
  return Recommendation.find({ _id: { $in: ids } }).lean();
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
    if ((err as { code?: number }).code !== 11000) throw err;
    written = false; // a newer window's fit is already stored
  });
  return written;
}

/** Upcoming events' insights starting in (from, until): their recommendations and analysis views. */
export async function findUpcomingInsightsStartingBetween(from: Date, until: Date) {
  return Insight.find({ startDateTime: { $gt: from, $lt: until }, status: 'upcoming' }, { recommendationIds: 1, analysisInsight: 1, matchSimulation: 1 }).lean();
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
    if ((err as { code?: number }).code !== 11000) throw err;
  });
}
