import { Schema, model, type InferSchemaType } from 'mongoose';

/** Settled-bet totals per day and confidence; `_id` = `${day}|${confidence}`. Recomputable from bets. */
const PerformanceRollupSchema = new Schema(
  {
    _id: { type: String, required: true },
    day: { type: String, required: true },
    confidence: { type: String, required: true },
    total: { type: Number, default: 0 },
    wins: { type: Number, default: 0 },
    losses: { type: Number, default: 0 },
    pushes: { type: Number, default: 0 },
    halfWins: { type: Number, default: 0 },
    halfLosses: { type: Number, default: 0 },
    staked: { type: Number, default: 0 },
    returned: { type: Number, default: 0 },
    sumEdge: { type: Number, default: 0 },
    /** Compare-and-set revision: each recompute writes only over the revision it read. */
    rev: { type: Number },
  },
  { timestamps: true, collection: 'performancerollups' },
);
PerformanceRollupSchema.index({ day: 1 });

export type PerformanceRollupDoc = InferSchemaType<typeof PerformanceRollupSchema>;
export const PerformanceRollup = model('PerformanceRollup', PerformanceRollupSchema);
