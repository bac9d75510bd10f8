import type { Job } from 'bullmq';
import type { RechargePayloads, rechargeQueue } from '../../jobs/recharge';
import { sweepStaleHolds } from '../../shared/app/billing/metering';
import { rechargeSweepIntents, runCharge } from '../../shared/app/billing/recharge';
import { dispatch } from '../../shared/app/intents';
import type { Registration } from '../registry';

/**
 * The recharge sweep: makes sure every enabled account under its threshold has its window's next
 * charge queued, and puts failed charge jobs back to work (shared/app/billing/recharge.ts says which).
 */
export async function sweepRecharges(): Promise<{ ensured: number }> {
  const results = await dispatch(await rechargeSweepIntents());
  return { ensured: results.length };
}

export const rechargeHandlers: Registration<typeof rechargeQueue>[] = [
  ['charge', (job: Job<RechargePayloads['charge']>) => runCharge(job.data)],
  [
    'sweep',
    async () => {
      const holds = await sweepStaleHolds();
      const recharges = await sweepRecharges();
      return { ...holds, ...recharges };
    },
  ],
];
