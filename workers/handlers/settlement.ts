import type { Job } from 'bullmq';
import type { SettlementPayloads, settlementQueue } from '../../jobs/settlement';
import { publishChainHead } from '../../shared/app/commitments/publish';
import type { AppContext } from '../../shared/app/context';
import { SettlementBatcher } from '../../shared/app/settlement/batcher';
import { refreshRollupDays } from '../../shared/app/settlement/rollups';
import { settleEvents } from '../../shared/app/settlement/settleEvent';
import { sweepUnsettled } from '../../shared/app/settlement/sweep';
import type { Registration } from '../registry';

/** The settlement queue's handlers, run in the process's context (one batcher per context: concurrent settle jobs share a pass). */
export function settlementHandlers(ctx: AppContext): Registration<typeof settlementQueue>[] {
  const batcher = new SettlementBatcher((ids) => settleEvents(ctx, ids));
  return [
    [
      'settle-event',
      async (job: Job<SettlementPayloads['settle-event']>) => {
        const o = await batcher.settle(job.data.eventId);
        return { status: o.status, resultVersion: o.resultVersion, statsSource: o.statsSource, recommendations: o.recommendations, picks: o.picks };
      },
    ],
    ['sweep', () => sweepUnsettled(ctx)],
    // The daily safety net: yesterday's rollups recomputed from the bets.
    ['rollup', async (job: Job<SettlementPayloads['rollup']>) => (await refreshRollupDays(ctx, [job.data.day]), { day: job.data.day })],
    ['publish-head', (job: Job<SettlementPayloads['publish-head']>) => publishChainHead(ctx, job.data.hour)],
  ];
}
