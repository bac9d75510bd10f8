import { Schema, model, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';

const CompetitionSchema = new Schema(
  {
    _id: { type: Number, required: true },
    name: { type: LocalizedTextSchema, required: true },
    regionId: { type: Number, required: true },
    sportId: { type: Number, required: true },
    /** Higher is more popular (prioritize on the live list). */
    priority: { type: Number, default: 0 },
  },
  { timestamps: true, collection: 'competitions' },
);
CompetitionSchema.index({ regionId: 1 });
CompetitionSchema.index({ sportId: 1 });

export type CompetitionDoc = InferSchemaType<typeof CompetitionSchema>;
export const Competition = model('Competition', CompetitionSchema);
