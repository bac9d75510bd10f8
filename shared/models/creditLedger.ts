import { Schema, model, type InferSchemaType } from 'mongoose';

export const LEDGER_KINDS = ['grant', 'debit', 'refund', 'purchase', 'recharge', 'adjustment'] as const;

/** Append-only: the entries of an account sum to its balance. */
const CreditLedgerSchema = new Schema(
  {
    accountId: { type: String, required: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    delta: { type: Number, required: true },
    /** Idempotency: one entry per reference (request id + kind, recharge attempt, ...). */
    ref: { type: String, required: true },
    endpoint: { type: String, default: null },
    keyId: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'creditledger', versionKey: false },
);
CreditLedgerSchema.index({ ref: 1 }, { unique: true });
CreditLedgerSchema.index({ accountId: 1, at: 1 });

export type CreditLedgerDoc = InferSchemaType<typeof CreditLedgerSchema>;
export const CreditLedger = model('CreditLedger', CreditLedgerSchema);
