import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * Metered requests in flight, one document per group-committed batch of debits: each debit may
 * still have to be refunded (a 4xx/5xx answer, a client gone before the headers, a crashed web
 * process). Written before the batch's ledger entries and deleted once every request of the
 * batch is settled; the recharge sweep refunds what a crashed process left behind. Small: it holds
 * in-flight requests only.
 */
const HeldDebitSchema = new Schema(required({ ref: String, cost: Number, keyId: String, endpoint: String }), { _id: false });

const MeterHoldSchema = new Schema(required({ _id: String, accountId: String, items: [HeldDebitSchema], at: Date }), { collection: 'meterholds', versionKey: false });

/** One debit of a hold: its ledger ref and what refunding it takes. */
export type HeldDebit = InferSchemaType<typeof HeldDebitSchema>;
export type MeterHoldDoc = InferSchemaType<typeof MeterHoldSchema>;
export const MeterHold = defineModel('MeterHold', MeterHoldSchema, [[{ at: 1 }, { read: 'ledger.ts:findMeterHoldsOlderThan (the recharge sweep: at < before)' }]]);
