import { Schema, type InferSchemaType } from 'mongoose';
import { LEDGER_KINDS } from '../../../domain/billing/ledgerKinds';
import { defineModel, nullable } from './define';

export { LEDGER_KINDS };

/**
 * Append-only, and the balance itself: each account's entries form a chain seq 1, 2, 3... where
 * `balance` is the running balance after the entry. An entry is appended only at `slot`
 * `${accountId}#${seq}` (unique), so two writers racing for the same position cannot both win:
 * the unique index is the atomic compare-and-set (FerretDB 1.x has no atomic read-modify-write
 * update; see docs/metering.md). The head entry's `balance` is the account's balance.
 */
const CreditLedgerSchema = new Schema(
  {
    accountId: { type: String, required: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    delta: { type: Number, required: true },
    /** Idempotency: one entry per reference (request id + kind, recharge attempt, ...). */
    ref: { type: String, required: true },
    ...nullable({ endpoint: String, keyId: String }),
    /** A debit of several like requests (one endpoint, one key, settled together): how many. Absent: one. */
    requests: { type: Number, min: 1 },
    at: { type: Date, required: true },
    /** Position in the account's chain (1 = first entry). */
    seq: { type: Number, required: true },
    /** `${accountId}#${seq}`: unique, so each position is taken once. */
    slot: { type: String, required: true },
    /** Running balance after this entry; never negative. */
    balance: { type: Number, required: true, min: 0 },
    /** seq of the latest credit (grant, purchase, recharge) at or before this entry: names the auto-recharge window. */
    topUpSeq: { type: Number, required: true },
  },
  { collection: 'creditledger', versionKey: false },
);

export type CreditLedgerDoc = InferSchemaType<typeof CreditLedgerSchema>;
export const CreditLedger = defineModel('CreditLedger', CreditLedgerSchema, [
  [
    { ref: 1 },
    {
      unique: true,
      read: 'ledger.ts:ledgerEntryExistsByRef, findLedgerEntryByRef, findLedgerRefsPresent',
      gin: { ref: 'ledger.ts:ledgerEntryExistsByRef, findLedgerEntryByRef, findLedgerRefsPresent' },
    },
  ],
  [{ slot: 1 }, { unique: true, read: 'ledger.ts:findLedgerEntryAtSlot, findLedgerBalanceAtSlot', gin: { slot: 'ledger.ts:findLedgerEntryAtSlot, findLedgerBalanceAtSlot' } }],
  [
    { accountId: 1, at: 1 },
    { read: 'ledger.ts:streamUsageEntriesOfAccount (accountId, at range)', gin: { accountId: 'ledger.ts:streamUsageEntriesOfAccount' } },
  ],
]);
