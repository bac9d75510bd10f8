import type { Job } from 'bullmq';
import type { SettlementPayloads, settlementQueue } from '../../jobs/settlement';
import { SettlementBatcher } from '../../shared/settlement/batcher';
import { refreshRollupDays } from '../../shared/settlement/rollups';
import { sweepUnsettled } from '../../shared/settlement/sweep';
import type { Registration } from '../registry';

const batcher = new SettlementBatcher();

export const settlementHandlers: Registration<typeof settlementQueue>[] = [
  [
    'settle-event',
    async (job: Job<SettlementPayloads['settle-event']>) => {
      const o = await batcher.settle(job.data.eventId);
      return { status: o.status, resultVersion: o.resultVersion, statsSource: o.statsSource, recommendations: o.recommendations, picks: o.picks };
    },
  ],
  ['sweep', () => sweepUnsettled()],
  // The daily safety net: yesterday's rollups recomputed from the bets.
  ['rollup', async (job: Job<SettlementPayloads['rollup']>) => (await refreshRollupDays([job.data.day]), { day: job.data.day })],
];
