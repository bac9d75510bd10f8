import type { Job } from 'bullmq';
import type { RechargePayloads, rechargeQueue } from '../../jobs/recharge';
import { runCharge } from '../../shared/app/billing/recharge';
import { sweepHoldsAndRecharges } from '../../shared/app/billing/sweep';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/** The recharge queue's handlers, run in the process's context. */
export function rechargeHandlers(ctx: AppContext): Registration<typeof rechargeQueue>[] {
  return [
    ['charge', (job: Job<RechargePayloads['charge']>) => runCharge(ctx, job.data)],
    ['sweep', () => sweepHoldsAndRecharges(ctx)],
  ];
}
