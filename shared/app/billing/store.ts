import { findAccountAutoRecharge } from '../../platform/db/repositories/accounts';
import { deleteMeterHold, findMeterHoldsOlderThan, ledgerEntryExistsByRef } from '../../platform/db/repositories/ledger';
import { admit, applyCredit, holdOf, refundStaleHolds, settleCharge } from './credits';
import type { CreditsStore } from './ports';

/** Metering's store as the process runs it: the Redis admission balance, the ledger, MongoDB's holds and accounts. */
export function creditsStore(): CreditsStore {
  return {
    admit,
    holdOf,
    settleCharge,
    applyCredit,
    refundStaleHolds,
    findMeterHoldsOlderThan,
    ledgerEntryExistsByRef,
    deleteMeterHold,
    autoRechargeSettings: async (accountId) => {
      const a = await findAccountAutoRecharge(accountId);
      return { enabled: Boolean(a?.autoRecharge?.enabled), threshold: a?.autoRecharge?.threshold ?? 0, version: a?.autoRecharge?.version ?? 0 };
    },
  };
}
