import { Schema, model, type InferSchemaType } from 'mongoose';

/** What the last poll of each provider did; `/v2/health` reports it. */
const ProviderStateSchema = new Schema(
  {
    _id: { type: String, required: true },
    lastAttemptAt: { type: Date, default: null },
    lastSuccessAt: { type: Date, default: null },
    lastError: { type: String, default: null },
    eventsSeen: { type: Number, default: 0 },
    breaker: { type: String, default: 'closed' },
    stale: { type: Boolean, default: false },
    /** Request quota as the provider last reported it (The Odds API headers). */
    quota: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: true, collection: 'providerstates' },
);

export type ProviderStateDoc = InferSchemaType<typeof ProviderStateSchema>;
export const ProviderState = model('ProviderState', ProviderStateSchema);
