import type { Job } from 'bullmq';
import { beginAnalysis, beginPicksRebuild, requestPicksRebuild, type AiPayloads, type aiQueue } from '../../jobs/ai';
import { analyzeEventJob, forgetFits } from '../../shared/app/ai/analyze';
import { rebuildPicksForDay } from '../../shared/app/ai/picks';
import { refitJob } from '../../shared/app/ai/refit';
import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/** The AI queue's handlers, run in the process's context. */
export function aiHandlers(ctx: AppContext): Registration<typeof aiQueue>[] {
  return [
    [
      'analyze-event',
      async (job: Job<AiPayloads['analyze-event']>) => {
        await beginAnalysis(job.data.eventId);
        const outcome = await analyzeEventJob(ctx, job.data.eventId);
        // Cached /v2/ai pages are rendered afresh once the analysis is written.
        if (outcome.status === 'analyzed' || outcome.status === 'started') await bumpCacheVersion('ai');
        // The day's picks are rebuilt once for however many of its events were analysed meanwhile.
        if ('picksDay' in outcome && outcome.picksDay) await requestPicksRebuild(outcome.picksDay);
        return outcome;
      },
    ],
    [
      'rebuild-picks',
      async (job: Job<AiPayloads['rebuild-picks']>) => {
        await beginPicksRebuild(job.data.day);
        const outcome = await rebuildPicksForDay(job.data.day);
        await bumpCacheVersion('ai');
        return outcome;
      },
    ],
    [
      'refit',
      async (job: Job<AiPayloads['refit']>) => {
        // The world's now: a replay of 2018 fits on 2018's games (the real clock would see none in its window).
        const outcome = await refitJob(job.data.sportId, job.data.window, ctx.clock.worldNow());
        forgetFits();
        return outcome;
      },
    ],
  ];
}
