import type { Job } from 'bullmq';
import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import type { SettlementPayloads, settlementQueue } from '../../jobs/settlement';
import { publishChainHead } from '../../shared/app/commitments/publish';
import { dispatch } from '../../shared/app/intents';
import { childLogger } from '../../shared/platform/logger';
import { SettlementBatcher } from '../../shared/app/settlement/batcher';
import { refreshRollupDays } from '../../shared/app/settlement/rollups';
import { findUnsettled, minSettlementDelayMs, sweepIntents } from '../../shared/app/settlement/sweep';
import type { Registration } from '../registry';

const batcher = new SettlementBatcher();

const sweepLog = childLogger({ component: 'settlement-sweep' });

/**
 * Re-enqueues settlement wherever a lost job left work behind (shared/app/settlement/sweep.ts finds
 * the events and says which jobs): a job still waiting, delayed or running is kept, a finished
 * one under the same id is replaced.
 */
export async function sweepUnsettled(now = new Date()): Promise<{ enqueued: number; candidates: number }> {
  const candidates = await findUnsettled(now);
  const results = await dispatch(sweepIntents(candidates, now, minSettlementDelayMs()), { log: sweepLog });
  const enqueued = results.filter((r) => r.enqueued).length;
  if (enqueued) sweepLog.info({ enqueued, candidates: candidates.length }, 'settlement re-enqueued');
  return { enqueued, candidates: candidates.length };
}

export const settlementHandlers: Registration<typeof settlementQueue>[] = [
  [
    'settle-event',
    async (job: Job<SettlementPayloads['settle-event']>) => {
      const o = await batcher.settle(job.data.eventId);
      // Results of recommendations and picks: cached /v2/ai pages are rendered afresh.
      await bumpCacheVersion('ai');
      return { status: o.status, resultVersion: o.resultVersion, statsSource: o.statsSource, recommendations: o.recommendations, picks: o.picks };
    },
  ],
  ['sweep', () => sweepUnsettled()],
  // The daily safety net: yesterday's rollups recomputed from the bets.
  ['rollup', async (job: Job<SettlementPayloads['rollup']>) => (await refreshRollupDays([job.data.day]), { day: job.data.day })],
  ['publish-head', (job: Job<SettlementPayloads['publish-head']>) => publishChainHead(job.data.hour)],
];
