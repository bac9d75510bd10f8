import type { Job } from 'bullmq';
import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import type { SettlementPayloads, settlementQueue } from '../../jobs/settlement';
import { publishChainHead } from '../../shared/app/commitments/publish';
import type { AppContext } from '../../shared/app/context';
import { SettlementBatcher } from '../../shared/app/settlement/batcher';
import { refreshRollupDays } from '../../shared/app/settlement/rollups';
import { settleEvents } from '../../shared/app/settlement/settleEvent';
import { findUnsettled, minSettlementDelayMs, sweepIntents } from '../../shared/app/settlement/sweep';
import type { Registration } from '../registry';

/**
 * Re-enqueues settlement wherever a lost job left work behind (shared/app/settlement/sweep.ts finds
 * the events and says which jobs): a job still waiting, delayed or running is kept, a finished
 * one under the same id is replaced.
 */
export async function sweepUnsettled(ctx: AppContext, now = ctx.clock.now()): Promise<{ enqueued: number; candidates: number }> {
  const sweepLog = ctx.log({ component: 'settlement-sweep' });
  const candidates = await findUnsettled(now);
  const results = await ctx.dispatch(sweepIntents(candidates, now, minSettlementDelayMs()), { log: sweepLog });
  const enqueued = results.filter((r) => r.enqueued).length;
  if (enqueued) sweepLog.info({ enqueued, candidates: candidates.length }, 'settlement re-enqueued');
  return { enqueued, candidates: candidates.length };
}

/** The settlement queue's handlers, run in the process's context (one batcher per context). */
export function settlementHandlers(ctx: AppContext): Registration<typeof settlementQueue>[] {
  const batcher = new SettlementBatcher((ids) => settleEvents(ctx, ids));
  return [
    [
      'settle-event',
      async (job: Job<SettlementPayloads['settle-event']>) => {
        const o = await batcher.settle(job.data.eventId);
        // Results of recommendations and picks: cached /v2/ai pages are rendered afresh.
        await bumpCacheVersion('ai');
        return { status: o.status, resultVersion: o.resultVersion, statsSource: o.statsSource, recommendations: o.recommendations, picks: o.picks };
      },
    ],
    ['sweep', () => sweepUnsettled(ctx)],
    // The daily safety net: yesterday's rollups recomputed from the bets.
    ['rollup', async (job: Job<SettlementPayloads['rollup']>) => (await refreshRollupDays([job.data.day]), { day: job.data.day })],
    ['publish-head', (job: Job<SettlementPayloads['publish-head']>) => publishChainHead(ctx, job.data.hour)],
  ];
}
