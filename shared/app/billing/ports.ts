import type { KeyMode } from '../../domain/billing/keys';
import type { ChargeRequest, ChargeResult, PaymentGateway } from '../../domain/billing/gateway/types';
import type { AccessResult } from '../../platform/billing/access';
import type { Admission, AdmissionHead, Charge } from '../../platform/billing/credits';
import type { LedgerOp, OpResult } from '../../platform/billing/ledger';

/** An account's auto-recharge settings as the debit's trigger reads them (off when the account has none). */
export interface AutoRechargeSettings {
  enabled: boolean;
  threshold: number;
  version: number;
}

/** One debit of a hold an earlier version left in MongoDB: its ledger ref and what refunding it takes. */
export interface HeldDebitRow {
  ref: string;
  cost: number;
  keyId: string;
  endpoint: string;
}

/**
 * What metering a request reads and writes: the admission balance and its holds (Redis), the
 * ledger's credits, the holds a version before the Redis debit left in MongoDB, and the
 * auto-recharge settings a debit checks. The process binds it to shared/platform/billing/ and the
 * repositories (shared/platform/stores/billing.ts); unit tests to memory.
 */
export interface CreditsStore {
  /**
   * Checks a well-formed plaintext key and takes one token from its rate limits; with `charge`, a
   * live key's request is debited in the same step (held under `charge.ref`).
   */
  checkKey(plaintext: string, charge?: { cost: number; ref: string }): Promise<AccessResult>;
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
  /** The balance live keys are admitted against, and the latest top-up's ledger position (seeded from the ledger when missing). */
  admissionHead(accountId: string): Promise<AdmissionHead>;
  /** The account's test credits (what test keys see; nothing spends them). */
  testBalanceOf(accountId: string): Promise<number>;
  /** A new account has no ledger: forgets any balance or ledger hint left under its id (a reused id), test credits included. */
  forgetBalances(accountId: string): Promise<void>;
}

/** An account's auto-recharge settings as stored. */
export interface StoredAutoRecharge {
  enabled?: boolean | null;
  threshold?: number | null;
  packageCredits?: number | null;
  version?: number | null;
  disabledReason?: string | null;
  disabledAt?: Date | null;
}

/** How an account pays, as stored: its gateway customer and saved payment method. */
export interface StoredBilling {
  gateway?: string | null;
  customer?: string | null;
  paymentMethod?: string | null;
  savedAt?: Date | null;
}

export interface AccountRow {
  _id: string;
  name: string;
  email?: string | null;
  createdAt?: Date;
  autoRecharge?: StoredAutoRecharge | null;
  billing?: StoredBilling | null;
}

export interface ApiKeyRow {
  _id: string;
  accountId: string;
  name: string;
  mode: KeyMode;
  hash: string;
  prefix: string;
  createdAt: Date;
  revokedAt?: Date | null;
}

/** A sign-in: `_id` is the normalised e-mail. */
export interface CredentialRow {
  _id: string;
  accountId: string;
  passwordHash: string;
}

/** A debit or refund of the ledger, as an account's usage counts it. */
export interface UsageEntryRow {
  endpoint?: string | null;
  kind: string;
  delta: number;
  /** A debit's requests (a batch of like requests); absent: one. */
  requests?: number | null;
  at: Date;
}

/**
 * Accounts, their keys, sign-ins, payment settings and usage (shared/platform/stores/billing.ts:
 * the repositories, and the key check's cache in Redis); unit tests to memory.
 */
export interface AccountStore {
  findAccount(accountId: string): Promise<AccountRow | null>;
  accountExists(accountId: string): Promise<boolean>;
  /** 'exists' when an account holds the id already. */
  createAccount(doc: { _id: string; name: string; email: string | null; balance: number }): Promise<'created' | 'exists'>;
  findAllAccountIds(): Promise<string[]>;

  findApiKeyByHash(hash: string): Promise<ApiKeyRow | null>;
  findApiKeyById(keyId: string): Promise<ApiKeyRow | null>;
  findApiKeysOfAccount(accountId: string): Promise<ApiKeyRow[]>;
  findApiKeyOfAccount(accountId: string, keyId: string): Promise<ApiKeyRow | null>;
  createApiKey(doc: { _id: string; accountId: string; name: string; mode: KeyMode; hash: string; prefix: string }): Promise<void>;
  setApiKeyRevokedAt(keyId: string, revokedAt: Date): Promise<void>;
  /** Every process refuses the key (by its hash) from the moment this returns. */
  refuseKey(hash: string): Promise<void>;
  /** When each key (by hash) was last used, or null. */
  keysLastUsed(hashes: readonly string[]): Promise<(Date | null)[]>;
  /** The account's debits and refunds since `since`. */
  usageEntries(accountId: string, since: Date): AsyncIterable<UsageEntryRow>;

  enableAutoRecharge(accountId: string, settings: { threshold: number; packageCredits: number; version: number }): Promise<void>;
  turnOffAutoRecharge(accountId: string, version: number): Promise<void>;
  /** Turns auto-recharge off with its reason, only while the settings are still those of `version`. */
  disableAutoRechargeIfVersion(accountId: string, version: number, reason: string): Promise<void>;
  findAccountsWithAutoRechargeEnabled(): Promise<{ _id: string; autoRecharge?: StoredAutoRecharge | null }[]>;
  findBilling(accountId: string): Promise<(StoredBilling & { email: string | null }) | null>;
  /** Records the account's gateway customer, unless one of this gateway is recorded; returns the one recorded. */
  recordBillingCustomer(accountId: string, gateway: string, customer: string): Promise<string>;
  saveBillingPaymentMethod(accountId: string, gateway: string, customer: string | null, paymentMethod: string): Promise<void>;
  /** Forgets the saved payment method and turns auto-recharge off (its settings move to `version`). */
  removeBillingPaymentMethod(accountId: string, version: number): Promise<void>;

  findCredentialByEmail(email: string): Promise<CredentialRow | null>;
  /** The e-mail an account signs in with, or null (an operator's account has none). */
  findEmailOfAccount(accountId: string): Promise<string | null>;
  /** 'taken' when the e-mail has a sign-in already (its key decides a race between two sign-ups). */
  createCredential(doc: { email: string; accountId: string; passwordHash: string }): Promise<'created' | 'taken'>;

  /**
   * Records what a purchase's id buys (`params`), first come, for a day: 'first' when this call
   * recorded it, 'same' when the recorded parameters are these, 'other' when they differ.
   */
  claimPurchase(accountId: string, purchaseId: string, params: string): Promise<'first' | 'same' | 'other'>;
}

/** An auto-recharge attempt as stored (one per account, window and attempt). */
export interface RechargeAttemptRow {
  _id: string;
  accountId: string;
  window: string;
  attempt: number;
  packageCredits: number;
  amountCents: number;
  paymentMethod: string;
  customer?: string | null;
  gateway: string;
  idempotencyKey: string;
  status: string;
  gatewayChargeId?: string | null;
  error?: string | null;
  decidedAt?: Date | null;
  credited?: boolean | null;
  createdAt: Date;
}

/** The auto-recharge attempts (shared/platform/stores/billing.ts); unit tests to memory. */
export interface RechargeStore {
  findAttempt(attemptId: string): Promise<RechargeAttemptRow | null>;
  findAttemptsOfAccount(accountId: string): Promise<RechargeAttemptRow[]>;
  /** 'exists' when an attempt of this id is stored already (a replay). */
  createAttempt(doc: Omit<RechargeAttemptRow, 'createdAt' | 'gatewayChargeId' | 'error' | 'credited' | 'decidedAt'>): Promise<'created' | 'exists'>;
  setAttemptFields(attemptId: string, set: Partial<Omit<RechargeAttemptRow, '_id'>>): Promise<void>;
}

/** The ledger as its check reads it: every entry's running balance, and the entry at a position of an account's chain. */
export interface LedgerStore {
  /** The entries (of one ledger when `ledgerId` is given): their ledger, change, position and running balance. */
  balanceEntries(ledgerId?: string): AsyncIterable<{ accountId: string; delta: number; seq: number; balance: number }>;
  /** The running balance at a ledger's position `seq`, or null when no entry is there. */
  balanceAt(ledgerId: string, seq: number): Promise<{ balance: number } | null>;
  /** Charges of served requests on their way to the ledger (the consumer's backlog). */
  chargesNotYetInLedger(): Promise<number>;
}

/**
 * The payment gateway purchases, saved cards and auto-recharge go through (the configured one:
 * PAYMENT_GATEWAY), as shared/platform/billing/gateway/ runs it; unit tests give a scripted one.
 */
export interface Payments {
  /** The gateway's name (`test` or `stripe`): what a charge through it buys (test credits or live). */
  name(): string;
  /** A charge, through the breaker: a decline is an answer; an unknown outcome throws (the same idempotency key replays it). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** A call outside the charge breaker (customers, setups), aborted at PAYMENT_TIMEOUT_MS. */
  call<T>(fn: (gateway: PaymentGateway, signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The test gateway's cards (what a setup on it may name). */
  readonly testCards: readonly string[];
}

/**
 * Fixed-window counters shared by every web process (a take counts and answers in one step) and
 * the addresses each e-mail signed in from: what login throttling reads and writes.
 */
export interface ThrottleStore {
  /** Counts one attempt of `identity` against `limit` per `windowS`; allowed while the count is within it. */
  take(name: string, identity: string, limit: number, windowS: number): Promise<{ allowed: boolean; count: number; retryAfterS: number }>;
  /** Gives back one attempt taken (it turned out not to count). */
  release(name: string, identity: string): Promise<void>;
  resetLimit(name: string, identity: string): Promise<void>;
  /** Whether `email` signed in from `address` within the remembered days. */
  isKnownAddress(email: string, address: string): Promise<boolean>;
  /** Remembers that `email` signed in from `address`, for `days`. */
  rememberAddress(email: string, address: string, days: number): Promise<void>;
}

/** Server-side sessions by the hash of their id (the id itself is only in the cookie). */
export interface SessionStore {
  create(doc: { _id: string; accountId: string; csrfToken: string; expiresAt: Date }): Promise<void>;
  /** The session of this id hash unless it has expired at `now`; null otherwise. */
  findLive(idHash: string, now: Date): Promise<{ accountId: string; csrfToken: string; expiresAt: Date } | null>;
  delete(idHash: string): Promise<void>;
}
