import { Schema, type InferSchemaType } from 'mongoose';
import { CREDIT_PACKAGES, FREE_CREDITS } from '../../../domain/billing/packages';
import { defineModel, nullable, required } from './define';

export { CREDIT_PACKAGES, FREE_CREDITS };

const AutoRechargeSchema = new Schema(
  {
    enabled: { type: Boolean, default: false },
    threshold: { type: Number, default: 0 },
    packageCredits: { type: Number, default: null },
    /** Settings saved before payment methods were stored apart (`billing`): never charged, kept for the record. */
    paymentMethod: { type: String, default: null },
    customer: { type: String, default: null },
    ...nullable({ disabledReason: String, disabledAt: Date }),
    /** Bumped on every change of these settings: part of the recharge window, so re-enabling starts a fresh one. */
    version: { type: Number, default: 0 },
  },
  { _id: false },
);

/**
 * How the account pays: its customer at the gateway (created once, server-side) and the payment
 * method saved on it by a completed setup (or by the operator's CLI). Purchases and auto-recharge
 * charge only these; no request names a customer or a payment method.
 */
const BillingSchema = new Schema(
  {
    /** The gateway this customer belongs to (a customer of another gateway is created anew). */
    gateway: { type: String, default: null },
    customer: { type: String, default: null },
    /** Gateway payment-method reference (e.g. pm_...); never a card number. */
    paymentMethod: { type: String, default: null },
    savedAt: { type: Date, default: null },
  },
  { _id: false },
);

const AccountSchema = new Schema(
  {
    ...required({ _id: String, name: String }),
    email: { type: String, default: null },
    /**
     * Opening balance, written once at creation. The live balance is the head of the account's
     * ledger (shared/platform/billing/ledger.ts balanceOf): on FerretDB 1.x a frequently rewritten counter
     * here would race with settings updates, so nothing on the request path writes this document.
     */
    balance: { type: Number, required: true, min: 0 },
    autoRecharge: { type: AutoRechargeSchema, default: () => ({}) },
    billing: { type: BillingSchema, default: () => ({}) },
  },
  { collection: 'accounts', timestamps: true, minimize: false },
);

export type AccountDoc = InferSchemaType<typeof AccountSchema>;
export const Account = defineModel('Account', AccountSchema);
