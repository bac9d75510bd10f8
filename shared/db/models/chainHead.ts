import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * The commitments chain's head as published once an hour (`_id` = the hour, yyyymmddhh UTC): a
 * log a customer can copy, so a later rewrite of the chain would no longer lead to a head they
 * hold. Insert-only.
 */
const ChainHeadSchema = new Schema(
  {
    _id: { type: String, required: true },
    hash: { type: String, required: true },
    length: { type: Number, required: true },
    /** When it was published. */
    time: { type: Date, required: true },
  },
  { collection: 'chainheads', versionKey: false },
);
ChainHeadSchema.index({ time: -1 });

export type ChainHeadDoc = InferSchemaType<typeof ChainHeadSchema>;
export const ChainHead = model('ChainHead', ChainHeadSchema);
