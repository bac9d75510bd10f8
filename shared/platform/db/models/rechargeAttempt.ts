import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, nullable, required } from './define';

export const RECHARGE_STATUSES = ['pending', 'charging', 'succeeded', 'declined', 'failed'] as const;

/** One charge attempt; `_id` = `${accountId}|${window}|${attempt}`, also the idempotency key's base. */
const RechargeAttemptSchema = new Schema(
  {
    ...required({ _id: String, accountId: String, window: String, attempt: Number, packageCredits: Number, amountCents: Number, paymentMethod: String }),
    /** Kept with the attempt so a replay sends the first call's parameters (Stripe refuses a reused key with others). */
    customer: { type: String, default: null },
    ...required({ gateway: String, idempotencyKey: String }),
    status: { type: String, enum: RECHARGE_STATUSES, required: true },
    ...nullable({ gatewayChargeId: String, error: String }),
    credited: { type: Boolean, default: false },
    /** When the gateway's answer (success or decline) was recorded: the retry after a decline is due an hour later. */
    decidedAt: { type: Date, default: null },
  },
  { collection: 'rechargeattempts', timestamps: true },
);

export type RechargeAttemptDoc = InferSchemaType<typeof RechargeAttemptSchema>;
export const RechargeAttempt = defineModel('RechargeAttempt', RechargeAttemptSchema, [
  [
    { accountId: 1, createdAt: -1 },
    { read: 'accounts.ts:findRechargeAttemptsOfAccount', gin: { accountId: 'accounts.ts:findRechargeAttemptsOfAccount' } },
  ],
]);
