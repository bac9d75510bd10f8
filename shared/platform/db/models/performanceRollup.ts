import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required, zeros } from './define';

/** Settled-bet totals per day and confidence; `_id` = `${day}|${confidence}`. Recomputable from bets. */
const PerformanceRollupSchema = new Schema(
  {
    ...required({ _id: String, day: String, confidence: String }),
    ...zeros('total', 'wins', 'losses', 'pushes', 'halfWins', 'halfLosses', 'staked', 'returned', 'sumEdge'),
    /** Compare-and-set revision: each recompute writes only over the revision it read. */
    rev: { type: Number },
  },
  { collection: 'performancerollups', timestamps: true },
);

export type PerformanceRollupDoc = InferSchemaType<typeof PerformanceRollupSchema>;
export const PerformanceRollup = defineModel('PerformanceRollup', PerformanceRollupSchema, [
  [{ day: 1 }, { read: 'performance.ts:findRollups (day $in)', gin: { day: 'to review: its one read is a $in, which FerretDB does not push down' } }],
]);
