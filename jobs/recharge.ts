import { defineQueue, safeJobId } from './define';

/**
 * Auto-recharge charges. One job per account, low-balance window and attempt: simultaneous
 * low-balance triggers collapse into one charge; the retry after a decline is attempt 2.
 */
export interface RechargePayloads {
  charge: { accountId: string; window: string; attempt: number };
  sweep: { window: string };
}

export const RECHARGE_RETRY_DELAY_MS = 60 * 60 * 1000;

export const rechargeQueue = defineQueue<RechargePayloads>({
  name: 'recharge',
  defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: 15000 }, removeOnComplete: { age: 30 * 86400 }, removeOnFail: { age: 90 * 86400 } },
  jobs: {
    charge: { jobId: (p) => safeJobId('charge', [p.accountId, p.window, `a${p.attempt}`]) },
    sweep: { jobId: (p) => safeJobId('recharge-sweep', [p.window]) },
  },
});
