import { Schema, type InferSchemaType } from 'mongoose';
import { CREDIT_PACKAGES, FREE_CREDITS } from '../../billing/packages';
import { defineModel, nullable, required } from './define';

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
    ...nullable({ disabledReason: String, disabledAt: Date }),
    /** Bumped on every change of these settings: part of the recharge window, so re-enabling starts a fresh one. */
    version: { type: Number, default: 0 },
  },
  { _id: false },
);

const AccountSchema = new Schema(
  {
    ...required({ _id: String, name: String }),
    email: { type: String, default: null },
    /**
     * Opening balance, written once at creation. The live balance is the head of the account's
     * ledger (shared/billing/ledger.ts balanceOf): on FerretDB 1.x a frequently rewritten counter
     * here would race with settings updates, so nothing on the request path writes this document.
     */
    balance: { type: Number, required: true, min: 0 },
    autoRecharge: { type: AutoRechargeSchema, default: () => ({}) },
  },
  { collection: 'accounts', timestamps: true, minimize: false },
);

export type AccountDoc = InferSchemaType<typeof AccountSchema>;
export const Account = defineModel('Account', AccountSchema);
