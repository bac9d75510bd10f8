import { Schema, model, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import { CONFIDENCES, SettlementFields } from './recommendation';

/** A leg of a pick: a copy of its recommendation as the contract shows it inside a pick. */
const LegSchema = new Schema(
  {
    recommendationId: { type: String, required: true },
    eventId: { type: String, required: true },
    betItemId: { type: String, required: true },
    market: { type: String, required: true },
    outcome: { type: String, required: true },
    /** The selection per locale, as on its recommendation: a leg reads like the recommendation it copies. */
    outcomeLocalized: { type: LocalizedTextSchema, default: null },
    code: { type: String, required: true },
    bookmaker: { type: String, required: true },
    odds: { type: Number, required: true },
    point: { type: Number, default: null },
    edgePercentage: { type: Number, required: true },
    confidence: { type: String, enum: CONFIDENCES, required: true },
    result: { type: String, default: null },
    resultDetail: { type: String, default: null },
    returnPerUnit: { type: Number, default: null },
  },
  { _id: false },
);

const PickSchema = new Schema(
  {
    _id: { type: String, required: true },
    pickType: { type: String, enum: ['single', 'parlay'], required: true },
    legs: { type: [LegSchema], required: true },
    eventIds: { type: [String], required: true },
    totalOdds: { type: Number, required: true },
    probability: { type: Number, required: true },
    edgePercentage: { type: Number, required: true },
    confidence: { type: String, enum: CONFIDENCES, required: true },
    kellyFraction: { type: Number, required: true },
    rationale: { type: [LocalizedTextSchema], default: [] },
    /** The pick's main event as served (the contract's Pick.event); names localized at render time. */
    event: { type: Schema.Types.Mixed, required: true },
    featuredOrder: { type: Number, required: true },
    /** Day the pick is featured for, and its earliest leg's start. */
    featuredDate: { type: String, required: true },
    startsAt: { type: Date, required: true },
    competitionIds: { type: [Number], default: [] },
    regionIds: { type: [Number], default: [] },
    analysisInsight: { type: Schema.Types.Mixed, default: null },
    matchSimulation: { type: Schema.Types.Mixed, default: null },
    eventNews: { type: Schema.Types.Mixed, default: null },
    ...SettlementFields,
    /** Signature of the legs' outcomes settlement last wrote: the compare-and-set key of pick updates. */
    legsState: { type: String, default: null },
  },
  { timestamps: true, collection: 'picks', minimize: false },
);
PickSchema.index({ startsAt: 1, featuredOrder: 1 });
PickSchema.index({ eventIds: 1, settled: 1 });
PickSchema.index({ featuredDate: 1 });

export type PickDoc = InferSchemaType<typeof PickSchema>;
export const Pick = model('Pick', PickSchema);
