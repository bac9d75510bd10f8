import type { KeyMode } from '../../domain/billing/keys';
import { ledgerOf } from '../../domain/billing/creditModes';
import { hashIdentity, release, resetLimit, take } from '../accounts/limits';
import { checkAccess, lastUsed, tombstone } from '../billing/access';
import { admissionHead, admit, applyCredit, chargesNotYetInLedger, forgetBalance, holdOf, refundStaleHolds, testBalanceOf } from '../billing/credits';
import { settleChargeInBatch } from '../billing/settlements';
import { chargeThroughBreaker, paymentGateway, withGatewayTimeout } from '../billing/gateway';
import { TEST_CARDS } from '../billing/gateway/testGateway';
import { resetHint, slotOf } from '../billing/ledger';
import { isDuplicateKey } from '../db/duplicateKey';
import { key, redis } from '../db/redis';
import {
  accountExists,
  createAccountDocument,
  createApiKeyDocument,
  createCredential,
  createRechargeAttempt,
  disableAutoRechargeIfVersion,
  enableAutoRecharge,
  findAccountAutoRecharge,
  findAccountBilling,
  findAccountById,
  findAccountsWithAutoRechargeEnabled,
  findAllAccountIds,
  findApiKeyByHash,
  findApiKeyById,
  findApiKeyOfAccount,
  findApiKeysOfAccount,
  findCredentialByEmail,
  findCredentialOfAccount,
  findRechargeAttemptById,
  findRechargeAttemptsOfAccount,
  recordBillingCustomer,
  removeBillingPaymentMethod,
  saveBillingPaymentMethod,
  setApiKeyRevokedAt,
  setRechargeAttemptFields,
  turnOffAutoRecharge,
} from '../db/repositories/accounts';
import { deleteMeterHold, findLedgerBalanceAtSlot, findMeterHoldsOlderThan, ledgerEntryExistsByRef, streamLedgerBalanceEntries, streamUsageEntriesOfAccount } from '../db/repositories/ledger';
import { createSessionDocument, deleteSession, findLiveSession } from '../db/repositories/sessions';

/** Inserts `create()` unless its id is taken: 'exists' then (the store's unique index decides a race). */
async function insertOnce(create: () => Promise<unknown>): Promise<'created' | 'exists'> {
  try {
    await create();
    return 'created';
  } catch (err) {
    if (isDuplicateKey(err)) return 'exists';
    throw err;
  }
}

/** Metering's store (shared/app/billing/ports.ts CreditsStore): the Redis admission balance, the ledger, MongoDB's holds and accounts. */
export function creditsStore() {
  return {
    checkKey: checkAccess,
    admit,
    holdOf,
    settleCharge: settleChargeInBatch,
    applyCredit,
    refundStaleHolds,
    findMeterHoldsOlderThan,
    ledgerEntryExistsByRef,
    deleteMeterHold,
    autoRechargeSettings: async (accountId: string) => {
      const a = await findAccountAutoRecharge(accountId);
      return { enabled: Boolean(a?.autoRecharge?.enabled), threshold: a?.autoRecharge?.threshold ?? 0, version: a?.autoRecharge?.version ?? 0 };
    },
    admissionHead,
    testBalanceOf,
    forgetBalances: async (accountId: string) => {
      await resetHint(accountId);
      await resetHint(ledgerOf(accountId, 'test'));
      await forgetBalance(accountId);
    },
  };
}

const PURCHASE_PARAMS_TTL_S = 86400;

/** Accounts, keys, sign-ins and payment settings (AccountStore): MongoDB, and the key check's cache in Redis. */
export function accountStore() {
  return {
    findAccount: findAccountById,
    accountExists: async (accountId: string) => Boolean(await accountExists(accountId)),
    createAccount: (doc: { _id: string; name: string; email: string | null; balance: number }) => insertOnce(() => createAccountDocument(doc)),
    findAllAccountIds: async () => (await findAllAccountIds()).map((a) => a._id),
    findApiKeyByHash,
    findApiKeyById,
    findApiKeysOfAccount,
    findApiKeyOfAccount,
    createApiKey: async (doc: { _id: string; accountId: string; name: string; mode: KeyMode; hash: string; prefix: string }) => void (await createApiKeyDocument(doc)),
    setApiKeyRevokedAt,
    refuseKey: tombstone,
    keysLastUsed: (hashes: readonly string[]) => lastUsed([...hashes]),
    usageEntries: streamUsageEntriesOfAccount,
    enableAutoRecharge,
    turnOffAutoRecharge,
    disableAutoRechargeIfVersion,
    findAccountsWithAutoRechargeEnabled,
    findBilling: findAccountBilling,
    recordBillingCustomer,
    saveBillingPaymentMethod,
    removeBillingPaymentMethod,
    findCredentialByEmail,
    findEmailOfAccount: async (accountId: string) => (await findCredentialOfAccount(accountId))?._id ?? null,
    createCredential: async (doc: { email: string; accountId: string; passwordHash: string }) => ((await insertOnce(() => createCredential(doc))) === 'exists' ? 'taken' : 'created'),
    claimPurchase: async (accountId: string, purchaseId: string, params: string): Promise<'first' | 'same' | 'other'> => {
      const k = key('purchase', accountId, purchaseId);
      if ((await redis().set(k, params, 'EX', PURCHASE_PARAMS_TTL_S, 'NX')) === 'OK') return 'first';
      return (await redis().get(k)) === params ? 'same' : 'other';
    },
  };
}

/** The auto-recharge attempts (RechargeStore) on MongoDB. */
export function rechargeStore() {
  return {
    findAttempt: findRechargeAttemptById,
    findAttemptsOfAccount: findRechargeAttemptsOfAccount,
    createAttempt: (doc: Parameters<typeof createRechargeAttempt>[0]) => insertOnce(() => createRechargeAttempt(doc)),
    setAttemptFields: setRechargeAttemptFields,
  };
}

/** The ledger as its check reads it (LedgerStore). */
export function ledgerStore() {
  return {
    balanceEntries: (ledgerId?: string) => streamLedgerBalanceEntries(ledgerId === undefined ? {} : { accountId: ledgerId }),
    balanceAt: (ledgerId: string, seq: number) => findLedgerBalanceAtSlot(slotOf(ledgerId, seq)),
    chargesNotYetInLedger,
  };
}

/** The configured payment gateway (Payments). */
export function payments() {
  return {
    name: () => paymentGateway().name,
    charge: chargeThroughBreaker,
    call: withGatewayTimeout,
    testCards: TEST_CARDS,
  };
}

const knownKey = (email: string) => key('login-known', hashIdentity(email));

/** Login throttling's counters and known addresses (ThrottleStore), in Redis. */
export function throttleStore() {
  return {
    take,
    release,
    resetLimit,
    isKnownAddress: async (email: string, address: string) => (await redis().sismember(knownKey(email), hashIdentity(address))) === 1,
    rememberAddress: async (email: string, address: string, days: number) => {
      const k = knownKey(email);
      await redis()
        .multi()
        .sadd(k, hashIdentity(address))
        .expire(k, days * 86400)
        .exec();
    },
  };
}

/** Sessions (SessionStore) on MongoDB. */
export function sessionStore() {
  return {
    create: async (doc: { _id: string; accountId: string; csrfToken: string; expiresAt: Date }) => void (await createSessionDocument(doc)),
    findLive: findLiveSession,
    delete: deleteSession,
  };
}
