import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * The commitments chain's head as published once an hour (`_id` = the hour, yyyymmddhh UTC): a
 * log a customer can copy, so a later rewrite of the chain would no longer lead to a head they
 * hold. Insert-only.
 */
const ChainHeadSchema = new Schema(
  {
    /** `time`: when it was published. */
    ...required({ _id: String, hash: String, length: Number, time: Date }),
  },
  { collection: 'chainheads', versionKey: false },
);

export type ChainHeadDoc = InferSchemaType<typeof ChainHeadSchema>;
export const ChainHead = defineModel('ChainHead', ChainHeadSchema, [[{ time: -1 }, { read: 'commitments.ts:findChainHeads (newest first)' }]]);
