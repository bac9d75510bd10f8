import type { AppContext } from '../context';
import { deliverIntent } from './deliver';
import { fanOut, lowBalanceEvents } from './fanout';

/**
 * The webhooks' sweep (every WEBHOOK_SWEEP_MS): what a lost job leaves behind is queued again (a
 * pending delivery a minute past its attempt's time: Redis lost the job, or a fan-out died between
 * its insert and its queueing), low balances become `balance.low`, and deliveries past their
 * retention are deleted.
 */

/** How late a pending delivery's attempt may be before its job counts as lost. */
export const OVERDUE_GRACE_MS = 60_000;
/** Deliveries re-queued per sweep at most (the next sweep takes the rest). */
const OVERDUE_BATCH = 1000;
/** How long deliveries are listed (and kept). */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;

export async function sweepWebhooks(ctx: AppContext): Promise<{ requeued: number; lowBalances: number; deleted: number }> {
  const now = ctx.clock.now().getTime();
  const overdue = await ctx.webhooks.overdueDeliveries(new Date(now - OVERDUE_GRACE_MS), OVERDUE_BATCH);
  if (overdue.length) {
    // 'retry-failed': a job of that id that failed (MongoDB down through all its tries) is put back to work.
    await ctx.dispatch(overdue.map((d) => ({ ...deliverIntent(d._id, d.attempts.length + 1), existing: 'retry-failed' as const })));
    ctx.log({ component: 'webhooks' }).warn({ deliveries: overdue.length }, 'webhook sweep: queued again the attempts of deliveries past their time');
  }
  const low = await lowBalanceEvents(ctx);
  if (low.length) await fanOut(ctx, low);
  // Hourly, not every sweep: the range delete reads the whole collection on FerretDB.
  const everyHour = Math.max(1, Math.round(3_600_000 / ctx.config.WEBHOOK_SWEEP_MS));
  const deleted = Math.floor(now / ctx.config.WEBHOOK_SWEEP_MS) % everyHour === 0 ? await ctx.webhooks.deleteDeliveriesBefore(new Date(now - DELIVERY_RETENTION_MS)) : 0;
  return { requeued: overdue.length, lowBalances: low.length, deleted };
}
