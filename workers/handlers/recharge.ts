import type { Job } from 'bullmq';
import type { RechargePayloads, rechargeQueue } from '../../jobs/recharge';
import { sweepStaleHolds } from '../../shared/billing/metering';
import { runCharge, sweepRecharges } from '../../shared/billing/recharge';
import type { Registration } from '../registry';

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
