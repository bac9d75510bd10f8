import { Schema, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import { defineModel, required } from './define';

const TeamSchema = new Schema(
  {
    _id: { type: Number, required: true },
    name: { type: LocalizedTextSchema, required: true },
    ...required({ sportId: Number, regionId: Number }),
    /** Lower-cased, accent-free names in every locale: team search matches on these. */
    searchNames: { type: [String], default: [] },
  },
  { collection: 'teams', timestamps: true },
);

export type TeamDoc = InferSchemaType<typeof TeamSchema>;
export const Team = defineModel('Team', TeamSchema, [
  [{ sportId: 1 }, { read: 'reference.ts:findTeamsPageByName, countTeamsWhere (a sport)', gin: { sportId: 'reference.ts:findTeamsPageByName, countTeamsWhere' } }],
  [
    { searchNames: 1 },
    { read: 'reference.ts:findTeamsPageByName, countTeamsWhere (searchNames regex)', gin: { searchNames: 'to review: its one read is a regex, which FerretDB does not push down' } },
  ],
]);
