import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, nullable } from './define';

/** What the last poll of each provider did; `/v2/health` reports it. */
const ProviderStateSchema = new Schema(
  {
    _id: { type: String, required: true },
    ...nullable({ lastAttemptAt: Date, lastSuccessAt: Date, lastError: String }),
    eventsSeen: { type: Number, default: 0 },
    breaker: { type: String, default: 'closed' },
    stale: { type: Boolean, default: false },
    /**
     * The feed instant (world time) of the last complete poll: the provider's freshness, written
     * once per poll. Every live form of its events (live stats, snapshots) is served as of it.
     */
    capturedAt: { type: Date, default: null },
    /** Request quota as the provider last reported it (The Odds API headers). */
    quota: { type: Schema.Types.Mixed, default: null },
  },
  { collection: 'providerstates', timestamps: true },
);

export type ProviderStateDoc = InferSchemaType<typeof ProviderStateSchema>;
export const ProviderState = defineModel('ProviderState', ProviderStateSchema);
