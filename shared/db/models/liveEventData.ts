import { Schema, type InferSchemaType } from 'mongoose';
import { StatsFields } from './common';
import { defineModel, required } from './define';

/** Per-event live data (the contract's LiveEventData): the data settlement uses. One document per event. */
const LiveEventDataSchema = new Schema(
  {
    ...required({ _id: String, eventId: String }),
    ...StatsFields,
    phaseSysname: { type: String, default: null },
    isLive: { type: Boolean, default: false },
    liveDataJson: { type: Schema.Types.Mixed, default: {} },
    dataSource: { type: String },
  },
  { collection: 'liveeventdata', timestamps: true, minimize: false },
);

export type LiveEventDataDoc = InferSchemaType<typeof LiveEventDataSchema>;
export const LiveEventData = defineModel('LiveEventData', LiveEventDataSchema, [[{ eventId: 1 }]]);
