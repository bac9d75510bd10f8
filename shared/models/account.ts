import { Schema, model, type InferSchemaType } from 'mongoose';

export const CREDIT_PACKAGES = [20000, 100000, 500000, 2000000] as const;
export const FREE_CREDITS = 500;

const AutoRechargeSchema = new Schema(
  {
    enabled: { type: Boolean, default: false },
    threshold: { type: Number, default: 0 },
    packageCredits: { type: Number, default: null },
    /** Gateway payment-method reference (e.g. pm_card_visa); never a card number. */
    paymentMethod: { type: String, default: null },
    disabledReason: { type: String, default: null },
    disabledAt: { type: Date, default: null },
  },
  { _id: false },
);

const AccountSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
    /** Never negative: every debit is a conditional update on `balance >= cost`. */
    balance: { type: Number, required: true, min: 0 },
    autoRecharge: { type: AutoRechargeSchema, default: () => ({}) },
  },
  { timestamps: true, collection: 'accounts', minimize: false },
);

export type AccountDoc = InferSchemaType<typeof AccountSchema>;
export const Account = model('Account', AccountSchema);
