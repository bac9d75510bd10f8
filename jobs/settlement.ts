import { defineQueue, safeJobId } from './define';

/**
 * Grading. One settle job per event and result version: a correction (new version) settles
 * again, a duplicate of the same version collapses. The sweep and rollup are idempotent by
 * construction (they only act on what is still unsettled / recompute from bets).
 */
export interface SettlementPayloads {
  'settle-event': { eventId: string; resultVersion: number };
  sweep: { window: string };
  rollup: { day: string };
  /** The commitments chain's head, published once per hour (yyyymmddhh, UTC). */
  'publish-head': { hour: string };
}

export const settlementQueue = defineQueue<SettlementPayloads>({
  name: 'settlement',
  defaultJobOptions: { attempts: 8, backoff: { type: 'exponential', delay: 10000 }, removeOnComplete: { age: 7 * 86400, count: 50000 }, removeOnFail: { age: 30 * 86400 } },
  jobs: {
    'settle-event': { jobId: (p) => safeJobId('settle', [p.eventId, `v${p.resultVersion}`]) },
    sweep: { jobId: (p) => safeJobId('sweep', [p.window]) },
    rollup: { jobId: (p) => safeJobId('rollup', [p.day]) },
    'publish-head': { jobId: (p) => safeJobId('chain-head', [p.hour]) },
  },
});
