import type {
  AccountRow,
  AccountStore,
  ApiKeyRow,
  CredentialRow,
  LedgerStore,
  Payments,
  RechargeAttemptRow,
  RechargeStore,
  SessionStore,
  StoredAutoRecharge,
  StoredBilling,
  ThrottleStore,
  UsageEntryRow,
} from '../../../shared/app/billing/ports';
import type { ChargeRequest, ChargeResult, PaymentGateway } from '../../../shared/domain/billing/gateway/types';
import type { KeyMode } from '../../../shared/domain/billing/keys';

/**
 * Accounts, recharges, the ledger's check, the payment gateway, login throttling and sessions in
 * memory (shared/app/billing/ports.ts), each behaving as its store does where a use case relies on
 * it: ids and e-mails taken once, a purchase's parameters recorded first come, counters per window,
 * sessions found only while unexpired.
 */

export class MemoryAccountStore implements AccountStore {
  accounts: (AccountRow & { balance?: number })[] = [];
  keys: ApiKeyRow[] = [];
  credentials: CredentialRow[] = [];
  usage = new Map<string, UsageEntryRow[]>();
  /** Key hashes every process refuses (the access cache's tombstones). */
  refused = new Set<string>();
  lastUsed = new Map<string, Date>();
  purchases = new Map<string, string>();

  constructor(private readonly now: () => Date) {}

  private account(accountId: string) {
    return this.accounts.find((a) => a._id === accountId);
  }
  async findAccount(accountId: string) {
    const a = this.account(accountId);
    return a ? { ...a, autoRecharge: a.autoRecharge && { ...a.autoRecharge }, billing: a.billing && { ...a.billing } } : null;
  }
  async accountExists(accountId: string) {
    return Boolean(this.account(accountId));
  }
  async createAccount(doc: { _id: string; name: string; email: string | null; balance: number }): Promise<'created' | 'exists'> {
    if (this.account(doc._id)) return 'exists';
    this.accounts.push({ ...doc, createdAt: this.now(), autoRecharge: {}, billing: {} });
    return 'created';
  }
  async findAllAccountIds() {
    return this.accounts.map((a) => a._id);
  }
  private copy(k: ApiKeyRow | undefined): ApiKeyRow | null {
    return k ? { ...k } : null;
  }
  async findApiKeyByHash(hash: string) {
    return this.copy(this.keys.find((k) => k.hash === hash));
  }
  async findApiKeyById(keyId: string) {
    return this.copy(this.keys.find((k) => k._id === keyId));
  }
  async findApiKeysOfAccount(accountId: string) {
    return this.keys.filter((k) => k.accountId === accountId).map((k) => ({ ...k }));
  }
  async findApiKeyOfAccount(accountId: string, keyId: string) {
    return this.copy(this.keys.find((k) => k._id === keyId && k.accountId === accountId));
  }
  async createApiKey(doc: { _id: string; accountId: string; name: string; mode: KeyMode; hash: string; prefix: string }) {
    this.keys.push({ ...doc, createdAt: this.now(), revokedAt: null });
  }
  async setApiKeyRevokedAt(keyId: string, revokedAt: Date) {
    const k = this.keys.find((x) => x._id === keyId);
    if (k) k.revokedAt = revokedAt;
  }
  async refuseKey(hash: string) {
    this.refused.add(hash);
  }
  async keysLastUsed(hashes: readonly string[]) {
    return hashes.map((h) => this.lastUsed.get(h) ?? null);
  }
  async *usageEntries(accountId: string, since: Date) {
    for (const e of this.usage.get(accountId) ?? []) if (e.at >= since) yield e;
  }
  private autoRecharge(accountId: string): StoredAutoRecharge {
    const a = this.account(accountId);
    if (!a) return {};
    a.autoRecharge ??= {};
    return a.autoRecharge;
  }
  private billing(accountId: string): StoredBilling {
    const a = this.account(accountId);
    if (!a) return {};
    a.billing ??= {};
    return a.billing;
  }
  async enableAutoRecharge(accountId: string, s: { threshold: number; packageCredits: number; version: number }) {
    Object.assign(this.autoRecharge(accountId), { enabled: true, ...s, disabledReason: null, disabledAt: null });
  }
  async turnOffAutoRecharge(accountId: string, version: number) {
    Object.assign(this.autoRecharge(accountId), { enabled: false, version });
  }
  async disableAutoRechargeIfVersion(accountId: string, version: number, reason: string) {
    const ar = this.autoRecharge(accountId);
    if ((ar.version ?? 0) === version) Object.assign(ar, { enabled: false, disabledReason: reason, disabledAt: this.now() });
  }
  async findAccountsWithAutoRechargeEnabled() {
    return this.accounts.filter((a) => a.autoRecharge?.enabled).map((a) => ({ _id: a._id, autoRecharge: { ...a.autoRecharge } }));
  }
  async findBilling(accountId: string) {
    const a = this.account(accountId);
    return a ? { email: a.email ?? null, ...a.billing } : null;
  }
  async recordBillingCustomer(accountId: string, gateway: string, customer: string) {
    const b = this.billing(accountId);
    if (!b.customer || b.gateway !== gateway) Object.assign(b, { gateway, customer, paymentMethod: null, savedAt: null });
    return b.customer ?? customer;
  }
  async saveBillingPaymentMethod(accountId: string, gateway: string, customer: string | null, paymentMethod: string) {
    Object.assign(this.billing(accountId), { gateway, customer, paymentMethod, savedAt: this.now() });
  }
  async removeBillingPaymentMethod(accountId: string, version: number) {
    Object.assign(this.billing(accountId), { paymentMethod: null, savedAt: null });
    Object.assign(this.autoRecharge(accountId), { enabled: false, version });
  }
  async findCredentialByEmail(email: string) {
    return this.credentials.find((c) => c._id === email) ?? null;
  }
  async findEmailOfAccount(accountId: string) {
    return this.credentials.find((c) => c.accountId === accountId)?._id ?? null;
  }
  async createCredential(doc: { email: string; accountId: string; passwordHash: string }): Promise<'created' | 'taken'> {
    if (this.credentials.some((c) => c._id === doc.email)) return 'taken';
    this.credentials.push({ _id: doc.email, accountId: doc.accountId, passwordHash: doc.passwordHash });
    return 'created';
  }
  async claimPurchase(accountId: string, purchaseId: string, params: string): Promise<'first' | 'same' | 'other'> {
    const k = `${accountId}|${purchaseId}`;
    const stored = this.purchases.get(k);
    if (stored === undefined) {
      this.purchases.set(k, params);
      return 'first';
    }
    return stored === params ? 'same' : 'other';
  }
}

export class MemoryRechargeStore implements RechargeStore {
  attempts: RechargeAttemptRow[] = [];

  constructor(private readonly now: () => Date) {}

  async findAttempt(attemptId: string) {
    const a = this.attempts.find((x) => x._id === attemptId);
    return a ? { ...a } : null;
  }
  async findAttemptsOfAccount(accountId: string) {
    return this.attempts.filter((a) => a.accountId === accountId).map((a) => ({ ...a }));
  }
  async createAttempt(doc: Omit<RechargeAttemptRow, 'createdAt' | 'gatewayChargeId' | 'error' | 'credited' | 'decidedAt'>): Promise<'created' | 'exists'> {
    if (this.attempts.some((a) => a._id === doc._id)) return 'exists';
    this.attempts.push({ ...doc, createdAt: this.now(), gatewayChargeId: null, error: null, credited: false, decidedAt: null });
    return 'created';
  }
  async setAttemptFields(attemptId: string, set: Partial<Omit<RechargeAttemptRow, '_id'>>) {
    const a = this.attempts.find((x) => x._id === attemptId);
    if (a) Object.assign(a, set);
  }
}

export class MemoryLedgerStore implements LedgerStore {
  entries: { accountId: string; delta: number; seq: number; balance: number }[] = [];
  pendingCharges = 0;

  async *balanceEntries(ledgerId?: string) {
    for (const e of this.entries) if (ledgerId === undefined || e.accountId === ledgerId) yield e;
  }
  async balanceAt(ledgerId: string, seq: number) {
    const e = this.entries.find((x) => x.accountId === ledgerId && x.seq === seq);
    return e ? { balance: e.balance } : null;
  }
  async chargesNotYetInLedger() {
    return this.pendingCharges;
  }
}

/** A scripted gateway: each charge answers the next of `answers` (succeeded when none is left), or throws what `fail` holds. */
export class MemoryPayments implements Payments {
  charges: ChargeRequest[] = [];
  answers: ChargeResult[] = [];
  fail: Error | null = null;
  gatewayName: 'test' | 'stripe' = 'test';
  testCards: readonly string[] = ['pm_card_visa', 'pm_card_chargeDeclined'];
  customers: { accountId: string; idempotencyKey: string }[] = [];
  private setups = new Map<string, { accountId: string; customer: string; paymentMethod: string | null }>();

  name() {
    return this.gatewayName;
  }
  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (this.fail) throw this.fail;
    this.charges.push(request);
    return this.answers.shift() ?? { status: 'succeeded', chargeId: `ch_${this.charges.length}` };
  }
  async call<T>(fn: (gateway: PaymentGateway, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.fail) throw this.fail;
    return fn(this.gateway(), new AbortController().signal);
  }
  /** The test gateway's behaviour: a customer per account, a setup complete at once with the card it names. */
  private gateway(): PaymentGateway {
    const setups = this.setups;
    return {
      name: this.gatewayName,
      charge: (req) => this.charge(req),
      createCustomer: async (req) => {
        this.customers.push({ accountId: req.accountId, idempotencyKey: req.idempotencyKey });
        return `cus_${req.accountId}`;
      },
      startSetup: async (req) => {
        const id = `cs_${setups.size + 1}`;
        setups.set(id, { accountId: req.accountId, customer: req.customer, paymentMethod: req.testCard ?? null });
        return { id, status: 'complete', customer: req.customer, accountId: req.accountId, paymentMethod: req.testCard ?? null, url: null };
      },
      findSetup: async (id) => {
        const s = setups.get(id);
        return s ? { id, status: 'complete', customer: s.customer, accountId: s.accountId, paymentMethod: s.paymentMethod, url: null } : null;
      },
    };
  }
}

export class MemoryThrottleStore implements ThrottleStore {
  counts = new Map<string, number>();
  known = new Map<string, Set<string>>();

  async take(name: string, identity: string, limit: number, windowS: number) {
    const k = `${name}|${identity}`;
    const count = (this.counts.get(k) ?? 0) + 1;
    this.counts.set(k, count);
    return { allowed: count <= limit, count, retryAfterS: windowS };
  }
  async release(name: string, identity: string) {
    const k = `${name}|${identity}`;
    const n = this.counts.get(k) ?? 0;
    if (n > 0) this.counts.set(k, n - 1);
  }
  async resetLimit(name: string, identity: string) {
    this.counts.delete(`${name}|${identity}`);
  }
  async isKnownAddress(email: string, address: string) {
    return this.known.get(email)?.has(address) ?? false;
  }
  async rememberAddress(email: string, address: string) {
    this.known.set(email, new Set([...(this.known.get(email) ?? []), address]));
  }
}

export class MemorySessionStore implements SessionStore {
  sessions = new Map<string, { accountId: string; csrfToken: string; expiresAt: Date }>();

  async create(doc: { _id: string; accountId: string; csrfToken: string; expiresAt: Date }) {
    this.sessions.set(doc._id, { accountId: doc.accountId, csrfToken: doc.csrfToken, expiresAt: doc.expiresAt });
  }
  async findLive(idHash: string, now: Date) {
    const s = this.sessions.get(idHash);
    return s && s.expiresAt > now ? s : null;
  }
  async delete(idHash: string) {
    this.sessions.delete(idHash);
  }
}
