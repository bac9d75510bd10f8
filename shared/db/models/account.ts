import { Schema, model, type InferSchemaType } from 'mongoose';

import { CREDIT_PACKAGES, FREE_CREDITS } from '../../billing/packages';

export { CREDIT_PACKAGES, FREE_CREDITS };

const AutoRechargeSchema = new Schema(
  {
    enabled: { type: Boolean, default: false },
    threshold: { type: Number, default: 0 },
    packageCredits: { type: Number, default: null },
    /** Gateway payment-method reference (e.g. pm_card_visa); never a card number. */
    paymentMethod: { type: String, default: null },
    /** Gateway customer the payment method is attached to (e.g. cus_...): Stripe needs it for off-session charges. */
    customer: { type: String, default: null },
    disabledReason: { type: String, default: null },
    disabledAt: { type: Date, default: null },
    /** Bumped on every change of these settings: part of the recharge window, so re-enabling starts a fresh one. */
    version: { type: Number, default: 0 },
  },
  { _id: false },
);

const AccountSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
    /**
     * Opening balance, written once at creation. The live balance is the head of the account's
     * ledger (shared/billing/ledger.ts balanceOf): on FerretDB 1.x a frequently rewritten counter
     * here would race with settings updates, so nothing on the request path writes this document.
     */
    balance: { type: Number, required: true, min: 0 },
    autoRecharge: { type: AutoRechargeSchema, default: () => ({}) },
  },
  { timestamps: true, collection: 'accounts', minimize: false },
);

export type AccountDoc = InferSchemaType<typeof AccountSchema>;
export const Account = model('Account', AccountSchema);
