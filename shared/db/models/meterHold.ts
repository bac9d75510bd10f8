import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * Metered requests in flight, one document per group-committed batch of debits: each debit may
 * still have to be refunded (a 4xx/5xx answer, a client gone before the headers, a crashed web
 * process). Written before the batch's ledger entries and deleted once every request of the
 * batch is settled; the recharge sweep refunds what a crashed process left behind. Small: it holds
 * in-flight requests only.
 */
const HeldDebitSchema = new Schema(
  {
    ref: { type: String, required: true },
    cost: { type: Number, required: true },
    keyId: { type: String, required: true },
    endpoint: { type: String, required: true },
  },
  { _id: false },
);

const MeterHoldSchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    items: { type: [HeldDebitSchema], required: true },
    at: { type: Date, required: true },
  },
  { collection: 'meterholds', versionKey: false },
);
MeterHoldSchema.index({ at: 1 });

export type MeterHoldDoc = InferSchemaType<typeof MeterHoldSchema>;
export const MeterHold = model('MeterHold', MeterHoldSchema);
