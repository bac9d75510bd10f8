import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, nullable, required, zeros } from './define';

/**
 * The latest fitted model of one sport, written by the `refit` job and read by `analyze-event`;
 * `_id` = `fit-${sportId}`. `params` is the JSON of shared/domain/ai/sportFit.ts SportFitParams.
 * A refit of an older time window never replaces a newer one.
 */
const ModelFitSchema = new Schema(
  {
    ...required({ _id: String, sportId: Number }),
    /** window: the refit job's time window (hour stamp), which orders fits. */
    ...required({ window: String, fittedAt: Date, family: String }),
    params: { type: Schema.Types.Mixed, default: null },
    /** blendWeight: model weight in the linear pool with the market, fitted on completed events (0: market only). */
    ...zeros('gamesUsed', 'blendWeight', 'blendEvents'),
    ...nullable({ blendRps: Number, marketRps: Number }),
    /** dataSources sharpest first (median margin over recent events), with those medians. */
    bookRanking: { type: [String], default: [] },
    bookMargins: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: 'modelfits', timestamps: true, minimize: false },
);

export type ModelFitDoc = InferSchemaType<typeof ModelFitSchema>;
export const ModelFit = defineModel('ModelFit', ModelFitSchema, [
  [{ sportId: 1 }, { read: 'to review: ai.ts:findModelFitOfSport reads by _id (fit-<sportId>)', gin: { sportId: 'to review: no read filters on sportId' } }],
]);
