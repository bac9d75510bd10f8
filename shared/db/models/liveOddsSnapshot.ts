import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/** The latest live odds of one event from one provider; `_id` = `${eventId}|${dataSource}`. */
const LiveOddsSnapshotSchema = new Schema(
  {
    ...required({ _id: String, eventId: String, dataSource: String, capturedAt: Date }),
    /** Set when the provider's breaker is open and this is the last stored snapshot. */
    stale: { type: Boolean, default: false },
    liveMarkets: { type: Schema.Types.Mixed, default: [] },
    /** The provider whose poll wrote it (stale-marking covers every dataSource of a provider). */
    provider: { type: String, default: null },
  },
  { collection: 'liveoddssnapshots', timestamps: true, minimize: false },
);

export type LiveOddsSnapshotDoc = InferSchemaType<typeof LiveOddsSnapshotSchema>;
export const LiveOddsSnapshot = defineModel('LiveOddsSnapshot', LiveOddsSnapshotSchema, [[{ eventId: 1, dataSource: 1 }, { unique: true }], [{ provider: 1, stale: 1 }]]);
