import { Schema, model, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';

const RegionSchema = new Schema(
  {
    _id: { type: Number, required: true },
    /** ISO 3166 alpha-2 where the region is a country (names come from Intl.DisplayNames). */
    code: { type: String, default: null },
    name: { type: LocalizedTextSchema, required: true },
  },
  { timestamps: true, collection: 'regions' },
);

export type RegionDoc = InferSchemaType<typeof RegionSchema>;
export const Region = model('Region', RegionSchema);
