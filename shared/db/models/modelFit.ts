import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * The latest fitted model of one sport, written by the `refit` job and read by `analyze-event`;
 * `_id` = `fit-${sportId}`. `params` is the JSON of shared/ai/sportFit.ts SportFitParams.
 * A refit of an older time window never replaces a newer one.
 */
const ModelFitSchema = new Schema(
  {
    _id: { type: String, required: true },
    sportId: { type: Number, required: true },
    /** The refit job's time window (hour stamp): orders fits. */
    window: { type: String, required: true },
    fittedAt: { type: Date, required: true },
    family: { type: String, required: true },
    params: { type: Schema.Types.Mixed, default: null },
    gamesUsed: { type: Number, default: 0 },
    /** Model weight in the linear pool with the market, fitted on completed events (0: market only). */
    blendWeight: { type: Number, default: 0 },
    blendEvents: { type: Number, default: 0 },
    blendRps: { type: Number, default: null },
    marketRps: { type: Number, default: null },
    /** dataSources sharpest first (median margin over recent events), with those medians. */
    bookRanking: { type: [String], default: [] },
    bookMargins: { type: Schema.Types.Mixed, default: {} },
  },
  { timestamps: true, collection: 'modelfits', minimize: false },
);
ModelFitSchema.index({ sportId: 1 });

export type ModelFitDoc = InferSchemaType<typeof ModelFitSchema>;
export const ModelFit = model('ModelFit', ModelFitSchema);
