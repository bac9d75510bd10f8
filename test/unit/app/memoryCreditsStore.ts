import type { AdmissionOutcome } from '../../../shared/app/billing/access';
import type { Admission, Charge } from '../../../shared/app/billing/credits';
import type { LedgerOp, OpResult } from '../../../shared/app/billing/ledger';
import type { AutoRechargeSettings, CreditsStore } from '../../../shared/app/billing/ports';
import type { HeldDebitRow } from '../../../shared/platform/db/repositories/ledger';

/**
 * Metering's store in memory (shared/app/billing/ports.ts): an admission balance per account,
 * the holds of requests in flight (each settled or refunded once, as the Redis scripts do), the
 * ledger's refs, the holds an older version left in MongoDB, and the auto-recharge settings.
 */
export class MemoryCreditsStore implements CreditsStore {
  /** Admission balances; an account with none is `unseeded` for the key check. */
  balances = new Map<string, { balance: number; topUpSeq: number }>();
  /** The ledger's head a missing admission balance is seeded from (none: an empty ledger). */
  ledgerHeads = new Map<string, { balance: number; topUpSeq: number }>();
  holds = new Map<string, { accountId: string; cost: number; at: number }>();
  /** Charges kept (what the ledger consumer would write), in order. */
  charges: Charge[] = [];
  /** Credits written to the ledger, by ref. */
  ledger = new Map<string, { accountId: string; kind: string; delta: number }>();
  /** Holds a version before the Redis debit left in MongoDB. */
  meterHolds: { _id: string; accountId: string; items: HeldDebitRow[]; at: Date }[] = [];
  settings = new Map<string, AutoRechargeSettings>();
  settingsReads = 0;

  constructor(private readonly now: () => Date) {}

  /** What the key check's script does with a live key's debit (shared/app/billing/access.ts). */
  keyCheck(accountId: string, ref: string, cost: number): AdmissionOutcome {
    const head = this.balances.get(accountId);
    if (!head) return { outcome: 'unseeded' };
    if (head.balance < cost) return { outcome: 'insufficient', balance: head.balance };
    this.hold(accountId, ref, cost);
    return { outcome: 'debited', balance: head.balance, topUpSeq: head.topUpSeq };
  }

  private hold(accountId: string, ref: string, cost: number): string {
    const head = this.balances.get(accountId) ?? { balance: 0, topUpSeq: 0 };
    head.balance -= cost;
    this.balances.set(accountId, head);
    const hold = this.holdOf(accountId, ref, cost);
    this.holds.set(hold, { accountId, cost, at: this.now().getTime() });
    return hold;
  }

  async admit(accountId: string, ref: string, cost: number): Promise<Admission> {
    // Seeded from the ledger's head when missing.
    const head = this.balances.get(accountId) ?? { ...(this.ledgerHeads.get(accountId) ?? { balance: 0, topUpSeq: 0 }) };
    this.balances.set(accountId, head);
    if (head.balance < cost) return { ok: false, balance: head.balance };
    const hold = this.hold(accountId, ref, cost);
    return { ok: true, hold, head: { ...head } };
  }
  holdOf(accountId: string, ref: string, cost: number): string {
    return `${accountId}|${ref}|${cost}`;
  }
  async settleCharge(hold: string, charged: boolean, c: Charge): Promise<boolean> {
    const h = this.holds.get(hold);
    if (!h) return false;
    this.holds.delete(hold);
    if (charged) this.charges.push(c);
    else this.credit(h.accountId, h.cost);
    return true;
  }
  private credit(accountId: string, delta: number): void {
    const head = this.balances.get(accountId);
    if (head) head.balance += delta;
  }
  async applyCredit(accountId: string, op: LedgerOp): Promise<Pick<OpResult, 'status'>> {
    if (this.ledger.has(op.ref)) return { status: 'duplicate' };
    this.ledger.set(op.ref, { accountId, kind: op.kind, delta: op.delta });
    this.credit(accountId, op.delta);
    return { status: 'applied' };
  }
  async refundStaleHolds(olderThanMs: number): Promise<number> {
    let n = 0;
    for (const [hold, h] of this.holds) {
      if (h.at >= this.now().getTime() - olderThanMs) continue;
      this.holds.delete(hold);
      this.credit(h.accountId, h.cost);
      n++;
    }
    return n;
  }
  async findMeterHoldsOlderThan(before: Date) {
    return this.meterHolds.filter((h) => h.at < before).map((h) => ({ _id: h._id, accountId: h.accountId, items: h.items }));
  }
  async ledgerEntryExistsByRef(ref: string) {
    return this.ledger.has(ref);
  }
  async deleteMeterHold(id: string) {
    this.meterHolds = this.meterHolds.filter((h) => h._id !== id);
  }
  async autoRechargeSettings(accountId: string): Promise<AutoRechargeSettings> {
    this.settingsReads++;
    return this.settings.get(accountId) ?? { enabled: false, threshold: 0, version: 0 };
  }
}
