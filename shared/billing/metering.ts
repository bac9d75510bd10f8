import { deleteMeterHold, findMeterHoldsOlderThan, ledgerEntryExistsByRef } from '../db/repositories/ledger';
import { childLogger } from '../logger';
import { creditsDebited } from '../metrics/registry';
import { drainHolds, settleHeld } from './holds';
import { randomBase62 } from './keys';
import { apply, balanceOf, drainLedgerWrites, type Head } from './ledger';
import { afterDebit } from './recharge';

/**
 * Charging one metered request: debit before the handler runs (a hold marks it in flight), then
 * settle when the response is done: kept when the answer was a success the client got headers
 * for, refunded otherwise (4xx, 5xx, client gone first). A web process that dies in between leaves
 * its holds; the recharge sweep refunds holds older than HOLD_STALE_MS, once (the refund's ref).
 */

/** Longer than any request may take; older holds belong to a process that died. */
export const HOLD_STALE_MS = 10 * 60 * 1000;

// Lazy: importing this module must not read the configuration (entry points validate it first).
const log = () => childLogger({ component: 'metering' });

export type Debit = { ok: true; ref: string; holdId: string; balance: number } | { ok: false; balance: number };

export async function debitRequest(input: { accountId: string; keyId: string; cost: number; endpoint: string }): Promise<Debit> {
  const ref = randomBase62(20);
  const r = await apply(input.accountId, {
    ref: `debit:${ref}`,
    kind: 'debit',
    delta: -input.cost,
    endpoint: input.endpoint,
    keyId: input.keyId,
    hold: { cost: input.cost, keyId: input.keyId, endpoint: input.endpoint },
  });
  if (r.status !== 'applied') return { ok: false, balance: r.status === 'insufficient' ? r.balance : await balanceOf(input.accountId) };
  triggerRecharge(input.accountId, r.head);
  return { ok: true, ref, holdId: r.holdId!, balance: r.head.balance };
}

function triggerRecharge(accountId: string, head: Head): void {
  // Off the request path: a lost trigger is re-created by the sweep.
  afterDebit(accountId, head).catch((err) => log().warn({ accountId, err: (err as Error).message }, 'auto-recharge trigger failed'));
}

/** Settles a debited request. Never throws: a failure leaves the hold for the sweep. */
export async function settleRequest(input: { accountId: string; ref: string; holdId: string; cost: number; endpoint: string; keyId: string; charged: boolean }): Promise<void> {
  try {
    if (!input.charged) {
      await apply(input.accountId, { ref: `refund:${input.ref}`, kind: 'refund', delta: input.cost, endpoint: input.endpoint, keyId: input.keyId });
    } else creditsDebited.inc({ endpoint: input.endpoint }, input.cost);
    settleHeld(input.holdId);
  } catch (err) {
    log().error({ accountId: input.accountId, err: (err as Error).message }, 'settling a metered request failed; the sweep will refund it');
  }
}

/** Resolves once every debit, refund and hold release started in this process is written. */
export async function drainMetering(): Promise<void> {
  await drainLedgerWrites();
  await drainHolds();
}

/**
 * Holds left by a dead web process: the request's outcome is unknown, so it is not charged (a
 * refund, once, by its ref); a hold whose debit never reached the ledger is just removed.
 */
export async function sweepStaleHolds(olderThanMs = HOLD_STALE_MS): Promise<{ refunded: number; dropped: number }> {
  const stale = await findMeterHoldsOlderThan(new Date(Date.now() - olderThanMs));
  let refunded = 0;
  let dropped = 0;
  for (const h of stale) {
    for (const item of h.items) {
      if (await ledgerEntryExistsByRef(item.ref)) {
        const r = await apply(h.accountId, { ref: item.ref.replace(/^debit:/, 'refund:'), kind: 'refund', delta: item.cost, endpoint: item.endpoint, keyId: item.keyId });
        if (r.status === 'applied') refunded++;
      } else dropped++;
    }
    await deleteMeterHold(h._id);
  }
  if (stale.length) log().warn({ refunded, dropped }, 'settled holds of a dead web process');
  return { refunded, dropped };
}
