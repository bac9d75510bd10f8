import { Account, ApiKey, Credential, RechargeAttempt } from '../models';
import type { RechargeAttemptDoc } from '../models/rechargeAttempt';

/** One account, or null. */
export async function findAccountById(accountId: string) {
  return Account.findById(accountId).lean();
}

/** One account's auto-recharge settings only, or null. */
export async function findAccountAutoRecharge(accountId: string) {
  return Account.findById(accountId, { autoRecharge: 1 }).lean();
}

/** The accounts with auto-recharge enabled, their settings only. */
export async function findAccountsWithAutoRechargeEnabled() {
  return Account.find({ 'autoRecharge.enabled': true }, { autoRecharge: 1 }).lean();
}

/** Every account id. */
export async function findAllAccountIds() {
  return Account.find({}, { _id: 1 }).lean();
}

/** Whether an account with this id exists (mongoose's exists: null when not). */
export async function accountExists(accountId: string) {
  return Account.exists({ _id: accountId });
}

/** Creates the account document (a duplicate id throws 11000). */
export async function createAccountDocument(doc: { _id: string; name: string; email: string | null; balance: number }) {
  return Account.create(doc);
}

/** The auto-recharge settings an owner or operator saves, with the settings' new version. */
export interface AutoRechargeSettings {
  threshold: number;
  packageCredits: number;
  version: number;
}

/** How the account pays (its gateway customer and saved payment method), or null. */
export async function findAccountBilling(accountId: string) {
  const a = await Account.findById(accountId, { billing: 1, email: 1 }).lean();
  return a ? { email: a.email ?? null, ...(a.billing ?? {}) } : null;
}

/** Records the account's gateway customer, unless one of this gateway is already recorded; returns the one recorded. */
export async function recordBillingCustomer(accountId: string, gateway: string, customer: string): Promise<string> {
  await Account.updateOne(
    { _id: accountId, $or: [{ 'billing.customer': null }, { 'billing.gateway': { $ne: gateway } }] },
    { $set: { 'billing.gateway': gateway, 'billing.customer': customer, 'billing.paymentMethod': null, 'billing.savedAt': null } },
  );
  const b = await findAccountBilling(accountId);
  return b?.customer ?? customer;
}

/** Saves the payment method a completed setup attached to the account's customer. */
export async function saveBillingPaymentMethod(accountId: string, gateway: string, customer: string | null, paymentMethod: string): Promise<void> {
  await Account.updateOne({ _id: accountId }, { $set: { 'billing.gateway': gateway, 'billing.customer': customer, 'billing.paymentMethod': paymentMethod, 'billing.savedAt': new Date() } });
}

/** Forgets the saved payment method (the customer stays) and turns auto-recharge off with the settings' new version. */
export async function removeBillingPaymentMethod(accountId: string, version: number): Promise<void> {
  await Account.updateOne({ _id: accountId }, { $set: { 'billing.paymentMethod': null, 'billing.savedAt': null, 'autoRecharge.enabled': false, 'autoRecharge.version': version } });
}

/** Enables auto-recharge with these settings (clears any disabled reason). */
export async function enableAutoRecharge(accountId: string, s: AutoRechargeSettings): Promise<void> {
  await Account.updateOne(
    { _id: accountId },
    {
      $set: {
        'autoRecharge.enabled': true,
        'autoRecharge.threshold': s.threshold,
        'autoRecharge.packageCredits': s.packageCredits,
        'autoRecharge.disabledReason': null,
        'autoRecharge.disabledAt': null,
        'autoRecharge.version': s.version,
      },
    },
  );
}

/** Turns auto-recharge off at the operator's request, with the settings' new version. */
export async function turnOffAutoRecharge(accountId: string, version: number): Promise<void> {
  await Account.updateOne({ _id: accountId }, { $set: { 'autoRecharge.enabled': false, 'autoRecharge.version': version } });
}

/** Turns auto-recharge off with its reason, only while the settings are still those of `version`. */
export async function disableAutoRechargeIfVersion(accountId: string, version: number, reason: string): Promise<void> {
  await Account.updateOne(
    { _id: accountId, 'autoRecharge.version': version },
    { $set: { 'autoRecharge.enabled': false, 'autoRecharge.disabledReason': reason, 'autoRecharge.disabledAt': new Date() } },
  );
}

/** The key of this hash as the access check reads it, or null. */
export async function findApiKeyForAccess(hash: string) {
  return ApiKey.findOne({ hash }, { accountId: 1, mode: 1, revokedAt: 1 }).lean();
}

/** The key of this hash, or null. */
export async function findApiKeyByHash(hash: string) {
  return ApiKey.findOne({ hash }).lean();
}

/** One key, or null. */
export async function findApiKeyById(keyId: string) {
  return ApiKey.findById(keyId).lean();
}

/** Every key of an account. */
export async function findApiKeysOfAccount(accountId: string) {
  return ApiKey.find({ accountId }).lean();
}

/** Creates a key document (hash and prefix only: the plaintext is never stored). */
export async function createApiKeyDocument(doc: { _id: string; accountId: string; name: string; mode: string; hash: string; prefix: string }) {
  return ApiKey.create(doc);
}

export async function setApiKeyRevokedAt(keyId: string, revokedAt: Date): Promise<void> {
  await ApiKey.updateOne({ _id: keyId }, { $set: { revokedAt } });
}

/** Every recharge attempt of an account. */
export async function findRechargeAttemptsOfAccount(accountId: string) {
  return RechargeAttempt.find({ accountId }).lean();
}

/** One recharge attempt, or null. */
export async function findRechargeAttemptById(attemptId: string) {
  return RechargeAttempt.findById(attemptId).lean();
}

/** Creates a recharge attempt (a duplicate id throws 11000). */
export async function createRechargeAttempt(doc: Omit<RechargeAttemptDoc, 'createdAt' | 'updatedAt' | 'gatewayChargeId' | 'error' | 'credited' | 'decidedAt'> & { _id: string }) {
  return RechargeAttempt.create(doc);
}

/** Sets fields of one recharge attempt. */
export async function setRechargeAttemptFields(attemptId: string, set: Partial<RechargeAttemptDoc>): Promise<void> {
  await RechargeAttempt.updateOne({ _id: attemptId }, { $set: set });
}

/** The sign-in credential of a normalised e-mail, or null. */
export async function findCredentialByEmail(email: string) {
  return Credential.findById(email).lean();
}

/** Claims an e-mail for an account (a taken e-mail throws 11000: the primary key is the address). */
export async function createCredential(doc: { email: string; accountId: string; passwordHash: string }) {
  return Credential.create({ _id: doc.email, accountId: doc.accountId, passwordHash: doc.passwordHash });
}

/** The e-mail an account signs in with, or null (operator-made accounts have none). */
export async function findCredentialOfAccount(accountId: string) {
  return Credential.findOne({ accountId }, { _id: 1 }).lean();
}

/** One key of one account, or null: another account's key is as absent as an unknown one. */
export async function findApiKeyOfAccount(accountId: string, keyId: string) {
  return ApiKey.findOne({ _id: keyId, accountId }).lean();
}
