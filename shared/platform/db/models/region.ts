import { Schema, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import { defineModel } from './define';

const RegionSchema = new Schema(
  {
    _id: { type: Number, required: true },
    /** ISO 3166 alpha-2 where the region is a country (names come from Intl.DisplayNames). */
    code: { type: String, default: null },
    name: { type: LocalizedTextSchema, required: true },
  },
  { collection: 'regions', timestamps: true },
);

export type RegionDoc = InferSchemaType<typeof RegionSchema>;
export const Region = defineModel('Region', RegionSchema);
