import { Schema, model, type InferSchemaType } from 'mongoose';

/** The processed insight of one event (the contract's processed insight); `_id` is the event id. */
const InsightSchema = new Schema(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    status: { type: String, required: true },
    startDateTime: { type: Date, required: true },
    teamSearch: { type: [String], default: [] },
    marketEfficiencyScore: { type: Number, required: true },
    valueOpportunities: { type: Schema.Types.Mixed, default: { recommendations: [] } },
    riskFactors: { type: Schema.Types.Mixed, default: [] },
    aiNotes: { type: Schema.Types.Mixed, default: null },
    event: { type: Schema.Types.Mixed, required: true },
    analysisInsight: { type: Schema.Types.Mixed, default: null },
    matchSimulation: { type: Schema.Types.Mixed, default: null },
    analysisTimestamp: { type: Date, required: true },
    sportId: { type: Number, default: null },
    competitionId: { type: Number, default: null },
    regionId: { type: Number, default: null },
    /** Hash of the analysis inputs (prices, fit): the same inputs are not analysed twice. */
    inputHash: { type: String, default: null },
    /** The recommendations current at the last pre-kickoff analysis (value opportunities). */
    recommendationIds: { type: [String], default: [] },
  },
  { timestamps: true, collection: 'insights', minimize: false },
);
InsightSchema.index({ status: 1, startDateTime: 1 });
InsightSchema.index({ teamSearch: 1 });

export type InsightDoc = InferSchemaType<typeof InsightSchema>;
export const Insight = model('Insight', InsightSchema);
