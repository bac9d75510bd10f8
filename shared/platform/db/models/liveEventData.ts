import { Schema, type InferSchemaType } from 'mongoose';
import { StatsFields } from './common';
import { defineModel, required } from './define';

/** Per-event live data (the contract's LiveEventData): the data settlement uses. One document per event; one writer, ingest (and the correct-result CLI under ingest's lock). */
const LiveEventDataSchema = new Schema(
  {
    ...required({ _id: String, eventId: String }),
    ...StatsFields,
    phaseSysname: { type: String, default: null },
    isLive: { type: Boolean, default: false },
    liveDataJson: { type: Schema.Types.Mixed, default: {} },
    /** In play now (false at half-time and other breaks): the game clock runs only then. */
    isInPlay: { type: Boolean, default: false },
    /**
     * The game clock's last reading, the world instant of it and its rate (clock seconds per world
     * second): ingest rewrites them only when the clock leaves that track, and reads serve the
     * clock run on to the provider's freshness (shared/domain/events/liveViews.ts).
     */
    elapsedSeconds: { type: Number, default: null },
    elapsedAt: { type: Date, default: null },
    clockRate: { type: Number, default: null },
    dataSource: { type: String },
  },
  { collection: 'liveeventdata', timestamps: true, minimize: false },
);

export type LiveEventDataDoc = InferSchemaType<typeof LiveEventDataSchema>;
// `_id` is the event id too: reads by `_id` would make this index unnecessary.
export const LiveEventData = defineModel('LiveEventData', LiveEventDataSchema, [
  [
    { eventId: 1 },
    {
      read: 'events.ts:findLiveEventDataOfEvent (match detail, settle-bet, result correction), findLiveEventDataOfEvents (settlement)',
      gin: { eventId: 'events.ts:findLiveEventDataOfEvent, findLiveEventDataOfEvents (one equality per event)' },
    },
  ],
]);
