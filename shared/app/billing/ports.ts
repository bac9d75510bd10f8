import type { HeldDebitRow } from '../../platform/db/repositories/ledger';
import type { Admission, Charge } from './credits';
import type { LedgerOp, OpResult } from './ledger';

/** An account's auto-recharge settings as the debit's trigger reads them (off when the account has none). */
export interface AutoRechargeSettings {
  enabled: boolean;
  threshold: number;
  version: number;
}

/**
 * What metering a request reads and writes: the admission balance and its holds (Redis), the
 * ledger's credits, the holds a version before the Redis debit left in MongoDB, and the
 * auto-recharge settings a debit checks. The process binds it to credits.ts and the repositories
 * (./store.ts); unit tests to memory.
 */
export interface CreditsStore {
  /** Takes `cost` credits if the balance holds them, and holds them until `settleCharge`. */
  admit(accountId: string, ref: string, cost: number): Promise<Admission>;
  /** The hold a request admitted with the key check holds (as `admit` names it). */
  holdOf(accountId: string, ref: string, cost: number): string;
  /** Kept (charged) or given back; false when the hold was already gone. */
  settleCharge(hold: string, charged: boolean, charge: Charge): Promise<boolean>;
  /** A credit to the ledger, then to the admission balance (once per ref). */
  applyCredit(accountId: string, op: LedgerOp): Promise<Pick<OpResult, 'status'>>;
  /** Refunds the holds older than `olderThanMs`, each once; returns how many. */
  refundStaleHolds(olderThanMs: number): Promise<number>;
  /** The holds stored in MongoDB before `before` (left by a process that died). */
  findMeterHoldsOlderThan(before: Date): Promise<{ _id: string; accountId: string; items: HeldDebitRow[] }[]>;
  ledgerEntryExistsByRef(ref: string): Promise<boolean>;
  deleteMeterHold(id: string): Promise<void>;
  autoRechargeSettings(accountId: string): Promise<AutoRechargeSettings>;
}
