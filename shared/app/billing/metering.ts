import type { AppContext } from '../context';
import type { AdmissionOutcome } from '../../platform/billing/access';
import type { AdmissionHead } from '../../platform/billing/credits';
import { randomBase62 } from '../../domain/billing/keys';
import { afterDebit } from './recharge';
export type { CreditsStore } from './ports';

/**
 * Charging one metered request: debited in Redis before the handler runs (the debit holds it in
 * flight), then settled when the response is done: kept when the answer was a success the client
 * got headers for (its charge goes to the stream the ledger consumer writes), given back otherwise
 * (4xx, 5xx, client gone first). A web process that dies in between leaves its holds; the
 * recharge sweep refunds holds older than HOLD_STALE_MS, each once.
 */

/** Longer than any request may take; older holds belong to a process that died. */
export const HOLD_STALE_MS = 10 * 60 * 1000;

const log = (ctx: AppContext) => ctx.log({ component: 'metering' });
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export type Debit = { ok: true; ref: string; hold: string; balance: number; at: number } | { ok: false; balance: number };

// A request's ref: this process's random prefix (71 bits, new at each start) and a counter, unique
// in the ledger without a random draw per request.
const REF_PREFIX = randomBase62(12);
let refCounter = 0;
export const nextRef = () => `${REF_PREFIX}${(refCounter++).toString(36)}`;

/** Debits a request on its own (when the key check could not: no balance in Redis yet, which this seeds). */
export async function debitRequest(ctx: AppContext, input: { accountId: string; cost: number; ref?: string }): Promise<Debit> {
  const ref = input.ref ?? nextRef();
  const at = ctx.clock.now().getTime();
  const r = await ctx.credits.admit(input.accountId, ref, input.cost);
  if (!r.ok) return { ok: false, balance: r.balance };
  triggerRecharge(ctx, input.accountId, r.head);
  return { ok: true, ref, hold: r.hold, balance: r.head.balance, at };
}

/** The debit the key check made in its step (shared/platform/billing/access.ts), as debitRequest gives it. */
export async function debitOfAdmission(ctx: AppContext, input: { accountId: string; cost: number; ref: string }, admission: AdmissionOutcome): Promise<Debit> {
  if (admission.outcome === 'unseeded') return debitRequest(ctx, input);
  if (admission.outcome === 'insufficient') return { ok: false, balance: admission.balance };
  triggerRecharge(ctx, input.accountId, admission);
  return { ok: true, ref: input.ref, hold: ctx.credits.holdOf(input.accountId, input.ref, input.cost), balance: admission.balance, at: ctx.clock.now().getTime() };
}

function triggerRecharge(ctx: AppContext, accountId: string, head: AdmissionHead): void {
  // Off the request path: a lost trigger is re-created by the sweep.
  afterDebit(ctx, accountId, head).catch((err: unknown) => log(ctx).warn({ accountId, err: messageOf(err) }, 'auto-recharge trigger failed'));
}

const settling = new Set<Promise<unknown>>();

/** Settles a debited request. Never throws: a hold left by a failure is refunded by the sweep. */
export function settleRequest(ctx: AppContext, input: { accountId: string; ref: string; hold: string; at: number; cost: number; endpoint: string; keyId: string; charged: boolean }): void {
  const p = ctx.credits
    .settleCharge(input.hold, input.charged, { ref: input.ref, accountId: input.accountId, cost: input.cost, endpoint: input.endpoint, keyId: input.keyId, at: input.at })
    .catch((err: unknown) => log(ctx).error({ accountId: input.accountId, err: messageOf(err) }, 'settling a metered request failed; the sweep will refund it'))
    .finally(() => settling.delete(p));
  settling.add(p);
}

const drainers = new Set<() => Promise<void>>();

/** Also run by drainMetering: what another part of the process holds unsettled (the web process's credit blocks). */
export function drainAlso(drain: () => Promise<void>): void {
  drainers.add(drain);
}

/** Resolves once every settlement started in this process is done (shutdown, tests). */
export async function drainMetering(): Promise<void> {
  for (const drain of drainers) await drain();
  while (settling.size) await Promise.all([...settling]);
}

/**
 * Holds left by a dead web process: the request's outcome is unknown, so it is not charged. Also
 * settles holds a version before the Redis debit left in MongoDB (their debit is in the ledger:
 * refunded once, by its ref).
 */
export async function sweepStaleHolds(ctx: AppContext, olderThanMs = HOLD_STALE_MS): Promise<{ refunded: number; dropped: number }> {
  const store = ctx.credits;
  let refunded = await store.refundStaleHolds(olderThanMs);
  let dropped = 0;
  for (const h of await store.findMeterHoldsOlderThan(new Date(ctx.clock.now().getTime() - olderThanMs))) {
    for (const item of h.items) {
      if (await store.ledgerEntryExistsByRef(item.ref)) {
        const r = await store.applyCredit(h.accountId, { ref: item.ref.replace(/^debit:/, 'refund:'), kind: 'refund', delta: item.cost, endpoint: item.endpoint, keyId: item.keyId });
        if (r.status === 'applied') refunded++;
      } else dropped++;
    }
    await store.deleteMeterHold(h._id);
  }
  if (refunded || dropped) log(ctx).warn({ refunded, dropped }, 'settled holds of a dead web process');
  return { refunded, dropped };
}
