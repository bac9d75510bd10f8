import type { Job } from 'bullmq';
import type { PollOutcome } from '../shared/app/ingest/poll';
import { recordAnalysis, recordPoll } from '../shared/app/metrics/record';
import { jobDuration, jobsFinished } from '../shared/platform/metrics/registry';

/**
 * Metrics of every queue job, taken around the handler by createQueueWorker, so handlers stay
 * free of instrumentation: duration and outcome of each attempt, plus what a job's return value
 * says for the jobs that feed a domain metric (keyed "queue/job").
 */
const OUTCOME_OBSERVERS: Record<string, (job: Job, result: unknown) => void> = {
  'ingest/poll': (_job, result) => recordPoll(result as PollOutcome),
  'ai/analyze-event': (job, result) => recordAnalysis(result as { status: string }, job.timestamp),
};

export async function observeJob<T>(queue: string, job: Job, run: () => Promise<T>): Promise<T> {
  const labels = { queue, job: job.name };
  const end = jobDuration.startTimer(labels);
  try {
    const result = await run();
    end();
    jobsFinished.inc({ ...labels, outcome: 'completed' });
    try {
      OUTCOME_OBSERVERS[`${queue}/${job.name}`]?.(job, result);
    } catch {
      // a metric must never fail the job it describes
    }
    return result;
  } catch (err) {
    end();
    jobsFinished.inc({ ...labels, outcome: 'failed' });
    throw err;
  }
}
