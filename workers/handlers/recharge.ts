import type { Job } from 'bullmq';
import type { RechargePayloads, rechargeQueue } from '../../jobs/recharge';
import { sweepStaleHolds } from '../../shared/app/billing/metering';
import { rechargeSweepIntents, runCharge } from '../../shared/app/billing/recharge';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/**
 * The recharge sweep: makes sure every enabled account under its threshold has its window's next
 * charge queued, and puts failed charge jobs back to work (shared/app/billing/recharge.ts says which).
 */
export async function sweepRecharges(ctx: AppContext): Promise<{ ensured: number }> {
  const results = await ctx.dispatch(await rechargeSweepIntents());
  return { ensured: results.length };
}

/** The recharge queue's handlers, run in the process's context. */
export function rechargeHandlers(ctx: AppContext): Registration<typeof rechargeQueue>[] {
  return [
    ['charge', (job: Job<RechargePayloads['charge']>) => runCharge(ctx, job.data)],
    [
      'sweep',
      async () => {
        const holds = await sweepStaleHolds(ctx);
        const recharges = await sweepRecharges(ctx);
        return { ...holds, ...recharges };
      },
    ],
  ];
}
