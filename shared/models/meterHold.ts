import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A metered request in flight: its debit may have to be refunded (a 4xx/5xx answer, a client gone
 * before the headers, a crashed web process). Deleted once the request's outcome is settled; the
 * recharge sweep refunds holds a crashed process left behind. Small: in-flight requests only.
 */
const MeterHoldSchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    cost: { type: Number, required: true },
    keyId: { type: String, required: true },
    endpoint: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'meterholds', versionKey: false },
);
MeterHoldSchema.index({ at: 1 });

export type MeterHoldDoc = InferSchemaType<typeof MeterHoldSchema>;
export const MeterHold = model('MeterHold', MeterHoldSchema);
