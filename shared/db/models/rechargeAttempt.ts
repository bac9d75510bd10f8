import { Schema, model, type InferSchemaType } from 'mongoose';

export const RECHARGE_STATUSES = ['pending', 'charging', 'succeeded', 'declined', 'failed'] as const;

/** One charge attempt; `_id` = `${accountId}|${window}|${attempt}`, also the idempotency key's base. */
const RechargeAttemptSchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    window: { type: String, required: true },
    attempt: { type: Number, required: true },
    packageCredits: { type: Number, required: true },
    amountCents: { type: Number, required: true },
    paymentMethod: { type: String, required: true },
    /** Kept with the attempt so a replay sends the first call's parameters (Stripe refuses a reused key with others). */
    customer: { type: String, default: null },
    gateway: { type: String, required: true },
    idempotencyKey: { type: String, required: true },
    status: { type: String, enum: RECHARGE_STATUSES, required: true },
    gatewayChargeId: { type: String, default: null },
    error: { type: String, default: null },
    credited: { type: Boolean, default: false },
    /** When the gateway's answer (success or decline) was recorded: the retry after a decline is due an hour later. */
    decidedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'rechargeattempts' },
);
RechargeAttemptSchema.index({ accountId: 1, createdAt: -1 });

export type RechargeAttemptDoc = InferSchemaType<typeof RechargeAttemptSchema>;
export const RechargeAttempt = model('RechargeAttempt', RechargeAttemptSchema);
