import { defineQueue, safeJobId } from './define';

/**
 * Model work. `analyze-event` is debounced per event and odds version: changes within the delay
 * collapse into one job. `refit` runs per sport and time window.
 */
export interface AiPayloads {
  'analyze-event': { eventId: string; version: number };
  refit: { sportId: number; window: string };

}

export const AI_DEBOUNCE_MS = 5000;

export const aiQueue = defineQueue<AiPayloads>({
  name: 'ai',
  defaultJobOptions: {
    attempts: 3,
    backoff: { type: 'exponential', delay: 5000 },
    removeOnComplete: { age: 3600, count: 5000 },
    removeOnFail: { age: 7 * 86400 },
  },
  jobs: {
    'analyze-event': { jobId: (p) => safeJobId('analyze', [p.eventId, p.version]), options: { delay: AI_DEBOUNCE_MS } },
    refit: { jobId: (p) => safeJobId('refit', [p.sportId, p.window]) },
  },
});
