import type { Job } from 'bullmq';
import { beginAnalysis, type AiPayloads, type aiQueue } from '../../jobs/ai';
import { analyzeEventJob } from '../../shared/ai/worker/analyze';
import { refitJob } from '../../shared/ai/worker/refit';
import type { Registration } from '../registry';

export const aiHandlers: Registration<typeof aiQueue>[] = [
  [
    'analyze-event',
    async (job: Job<AiPayloads['analyze-event']>) => {
      await beginAnalysis(job.data.eventId);
      return analyzeEventJob(job.data.eventId);
    },
  ],
  ['refit', (job: Job<AiPayloads['refit']>) => refitJob(job.data.sportId, job.data.window)],
];
