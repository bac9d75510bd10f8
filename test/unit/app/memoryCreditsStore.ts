import type { AccessResult, AdmissionOutcome, KeyIdentity } from '../../../shared/platform/billing/access';
import type { Admission, AdmissionHead, Charge } from '../../../shared/platform/billing/credits';
import type { LedgerOp, OpResult } from '../../../shared/platform/billing/ledger';
import type { AutoRechargeSettings, CreditsStore, HeldDebitRow } from '../../../shared/app/billing/ports';
import { ledgerOf } from '../../../shared/domain/billing/creditModes';

const TOP_UPS = new Set(['grant', 'purchase', 'recharge']);

/**
 * Metering's store in memory (shared/app/billing/ports.ts): an admission balance per account,
 * the holds of requests in flight (each settled or refunded once, as the Redis scripts do), the
 * ledger's refs and heads (a credit reaches a seeded balance at once, an unseeded one when it is
 * seeded), the holds an older version left in MongoDB, the auto-recharge settings, and the keys
 * the key check knows (a test key's requests counted against its account's daily cap).
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
  /** The keys the key check knows, by plaintext. */
  keys = new Map<string, KeyIdentity & { revoked?: boolean }>();
  /** Test keys' requests per account a day (TEST_KEY_DAILY_REQUESTS). */
  testCap = 1000;
  testUsed = new Map<string, number>();
  private seqs = new Map<string, number>();

  constructor(private readonly now: () => Date) {}

  /** What the key check's script does with a live key's debit (shared/platform/billing/access.ts). */
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
    const seq = (this.seqs.get(accountId) ?? 0) + 1;
    this.seqs.set(accountId, seq);
    const head = this.ledgerHeads.get(accountId) ?? { balance: 0, topUpSeq: 0 };
    this.ledgerHeads.set(accountId, { balance: head.balance + op.delta, topUpSeq: TOP_UPS.has(op.kind) ? seq : head.topUpSeq });
    const seeded = this.balances.get(accountId);
    if (seeded) {
      seeded.balance += op.delta;
      if (TOP_UPS.has(op.kind)) seeded.topUpSeq = seq;
    }
    return { status: 'applied' };
  }
  async checkKey(plaintext: string, charge?: { cost: number; ref: string }): Promise<AccessResult> {
    const k = this.keys.get(plaintext);
    if (!k || k.revoked) return { outcome: 'invalid' };
    const key: KeyIdentity = { keyId: k.keyId, accountId: k.accountId, mode: k.mode };
    if (k.mode === 'test') {
      const used = this.testUsed.get(k.accountId) ?? 0;
      if (used >= this.testCap) return { outcome: 'capped', key, retryAfterS: 3600, cap: this.testCap };
      this.testUsed.set(k.accountId, used + 1);
    }
    const admission = k.mode === 'live' && charge ? this.keyCheck(k.accountId, charge.ref, charge.cost) : undefined;
    return { outcome: 'allowed', key, remaining: 10, limit: 20, admission };
  }
  async admissionHead(accountId: string): Promise<AdmissionHead> {
    const head = this.balances.get(accountId) ?? { ...(this.ledgerHeads.get(accountId) ?? { balance: 0, topUpSeq: 0 }) };
    this.balances.set(accountId, head);
    return { ...head };
  }
  async testBalanceOf(accountId: string): Promise<number> {
    return (await this.admissionHead(ledgerOf(accountId, 'test'))).balance;
  }
  async forgetBalances(accountId: string): Promise<void> {
    for (const id of [accountId, ledgerOf(accountId, 'test')]) this.balances.delete(id);
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
