import type { Job } from 'bullmq';
import { type AiPayloads, type aiQueue } from '../../jobs/ai';
import { beginAnalysis, beginPicksRebuild } from '../../shared/platform/queues/coalesced';
import { waitWhileIngestWrites } from '../../shared/platform/ingest/writing';
import { analyzeEventJob } from '../../shared/app/ai/analyze';
import { rebuildPicksForDay } from '../../shared/app/ai/picks';
import { refitJob } from '../../shared/app/ai/refit';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/** The AI queue's handlers, run in the process's context. A coalesced job's run begins (its subject's next generation) before its use case reads anything. */
export function aiHandlers(ctx: AppContext): Registration<typeof aiQueue>[] {
  return [
    [
      'analyze-event',
      async (job: Job<AiPayloads['analyze-event']>) => {
        await beginAnalysis(job.data.eventId);
        // Off the poll's writes (within a budget per poll): the poll has a deadline, an analysis has until kickoff.
        await waitWhileIngestWrites(ctx.config.AI_YIELD_TO_POLL_MS);
        return analyzeEventJob(ctx, job.data.eventId);
      },
    ],
    [
      'rebuild-picks',
      async (job: Job<AiPayloads['rebuild-picks']>) => {
        await beginPicksRebuild(job.data.day, ctx.config.PICKS_REBUILD_SPACING_MS);
        await waitWhileIngestWrites(ctx.config.AI_YIELD_TO_POLL_MS);
        return rebuildPicksForDay(ctx, job.data.day);
      },
    ],
    ['refit', (job: Job<AiPayloads['refit']>) => refitJob(ctx, job.data.sportId, job.data.window)],
  ];
}
