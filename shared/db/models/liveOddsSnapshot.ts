import { Schema, model, type InferSchemaType } from 'mongoose';

/** The latest live odds of one event from one provider; `_id` = `${eventId}|${dataSource}`. */
const LiveOddsSnapshotSchema = new Schema(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    dataSource: { type: String, required: true },
    capturedAt: { type: Date, required: true },
    /** Set when the provider's breaker is open and this is the last stored snapshot. */
    stale: { type: Boolean, default: false },
    liveMarkets: { type: Schema.Types.Mixed, default: [] },
    /** The provider whose poll wrote it (stale-marking covers every dataSource of a provider). */
    provider: { type: String, default: null },
  },
  { timestamps: true, collection: 'liveoddssnapshots', minimize: false },
);
LiveOddsSnapshotSchema.index({ eventId: 1, dataSource: 1 }, { unique: true });
LiveOddsSnapshotSchema.index({ provider: 1, stale: 1 });

export type LiveOddsSnapshotDoc = InferSchemaType<typeof LiveOddsSnapshotSchema>;
export const LiveOddsSnapshot = model('LiveOddsSnapshot', LiveOddsSnapshotSchema);
