import { defineQueue, safeJobId } from './define';

/**
 * Model work. `analyze-event` is coalesced per event (shared/platform/queues/coalesced.ts): at most one waiting
 * analysis per event whatever the rate of odds changes, reading the latest odds when it runs, with
 * one follow-up for a change that lands during a run. `refit` runs per sport and time window.
 */
export interface AiPayloads {
  'analyze-event': { eventId: string; generation: number };
  /** A day's featured picks, rebuilt from its current recommendations (coalesced per day). */
  'rebuild-picks': { day: string; generation: number };
  refit: { sportId: number; window: string };
}

export const aiQueue = defineQueue<AiPayloads>({
  name: 'ai',
  defaultJobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 5000 }, removeOnComplete: { age: 3600, count: 5000 }, removeOnFail: { age: 7 * 86400 } },
  jobs: {
    'analyze-event': { jobId: (p) => safeJobId('analyze', [p.eventId, p.generation]) },
    'rebuild-picks': { jobId: (p) => safeJobId('picks', [p.day, p.generation]) },
    refit: { jobId: (p) => safeJobId('refit', [p.sportId, p.window]) },
  },
});
