import { Schema, model, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';

const TeamSchema = new Schema(
  {
    _id: { type: Number, required: true },
    name: { type: LocalizedTextSchema, required: true },
    sportId: { type: Number, required: true },
    regionId: { type: Number, required: true },
    /** Lower-cased, accent-free names in every locale: team search matches on these. */
    searchNames: { type: [String], default: [] },
  },
  { timestamps: true, collection: 'teams' },
);
TeamSchema.index({ sportId: 1 });
TeamSchema.index({ searchNames: 1 });

export type TeamDoc = InferSchemaType<typeof TeamSchema>;
export const Team = model('Team', TeamSchema);
