import { Schema, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import { defineModel, required } from './define';

const CompetitionSchema = new Schema(
  {
    _id: { type: Number, required: true },
    name: { type: LocalizedTextSchema, required: true },
    ...required({ regionId: Number, sportId: Number }),
    /** Higher is more popular (prioritize on the live list). */
    priority: { type: Number, default: 0 },
  },
  { collection: 'competitions', timestamps: true },
);

export type CompetitionDoc = InferSchemaType<typeof CompetitionSchema>;
export const Competition = defineModel('Competition', CompetitionSchema, [
  [{ regionId: 1 }, { read: 'reference.ts:findRegionCompetitionsByPriority (each match detail)', gin: { regionId: 'reference.ts:findRegionCompetitionsByPriority' } }],
  [{ sportId: 1 }, { read: 'reference.ts:findCompetitionRegionsAndSports (the regions of a sport)', gin: { sportId: 'reference.ts:findCompetitionRegionsAndSports' } }],
]);
