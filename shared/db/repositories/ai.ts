import type { FilterQuery } from 'mongoose';
import { bulkWriteInBatches, type BulkCounts } from '../bulk';
import { Pick, Recommendation } from '../models';
import type { PickDoc } from '../models/pick';
import type { RecommendationDoc } from '../models/recommendation';
import type { LegRecommendation, PickRead, RecommendationRead } from '../../settlement/plan';

/** A settled bet as the performance rollups count it. */
export interface SettledBetRow {
  _id: string;
  confidence: string;
  result?: string | null;
  resultDetail?: string | null;
  returnPerUnit?: number | null;
  edgePercentage: number;
  eventStartAt: Date;
}

const SETTLED_BET_FIELDS = { confidence: 1, result: 1, resultDetail: 1, returnPerUnit: 1, edgePercentage: 1, eventStartAt: 1 } as const;

/** The settled recommendations whose eventStartAt falls in one of `ranges` (one query). */
export async function findSettledBetsInRanges(ranges: readonly { $gte: Date; $lt: Date }[]): Promise<SettledBetRow[]> {
  const or = ranges.map((r) => ({ eventStartAt: r }));
  return Recommendation.find({ settled: true, $or: or } as FilterQuery<RecommendationDoc>, SETTLED_BET_FIELDS).lean<SettledBetRow[]>();
}

/** Every settled recommendation, as the performance rollups count it. */
export async function findAllSettledBets(): Promise<SettledBetRow[]> {
  return Recommendation.find({ settled: true }, SETTLED_BET_FIELDS).lean<SettledBetRow[]>();
}

/** A recommendation as settlement grades it. */
export type SettlementRecommendationRow = RecommendationRead & { eventId: string; eventStartAt: Date };

const SETTLEMENT_REC_FIELDS = {
  eventId: 1,
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
} as const;

/** Every recommendation of the events of `eventIds`, with the fields settlement grades. */
export async function findRecommendationsOfEventsForSettlement(eventIds: readonly string[]): Promise<SettlementRecommendationRow[]> {
  return Recommendation.find({ eventId: { $in: eventIds } }, SETTLEMENT_REC_FIELDS).lean<SettlementRecommendationRow[]>();
}

/** The settlement outcome of the recommendations of `ids` (legs of picks). */
export async function findLegRecommendations(ids: readonly string[]): Promise<(LegRecommendation & { _id: string })[]> {
  return Recommendation.find({ _id: { $in: ids } }, { settled: 1, result: 1, resultDetail: 1, returnPerUnit: 1 }).lean<(LegRecommendation & { _id: string })[]>();
}

/** Recommendation updates (settlement's conditional updateOne ops), bulk in server-sized batches. */
export async function bulkWriteRecommendations(ops: readonly unknown[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Recommendation, ops);
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
  return Pick.find({ eventIds: { $in: eventIds } } as FilterQuery<PickDoc>, SETTLEMENT_PICK_FIELDS).lean<T[]>();
}

/** Pick updates (settlement's conditional updateOne ops), bulk in server-sized batches. */
export async function bulkWritePicks(ops: readonly unknown[]): Promise<BulkCounts> {
  return bulkWriteInBatches(Pick, ops);
}
