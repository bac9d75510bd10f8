import { Schema, model, type InferSchemaType } from 'mongoose';
import { StatsFields } from './common';

/** Per-event live data (the contract's LiveEventData): the data settlement uses. One document per event. */
const LiveEventDataSchema = new Schema(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    ...StatsFields,
    phaseSysname: { type: String, default: null },
    isLive: { type: Boolean, default: false },
    liveDataJson: { type: Schema.Types.Mixed, default: {} },
    dataSource: { type: String },
  },
  { timestamps: true, collection: 'liveeventdata', minimize: false },
);

LiveEventDataSchema.index({ eventId: 1 });

export type LiveEventDataDoc = InferSchemaType<typeof LiveEventDataSchema>;
export const LiveEventData = model('LiveEventData', LiveEventDataSchema);
