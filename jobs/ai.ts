import { enqueueMany } from './client';
import { beginRun, generationsOf } from './coalesce';
import { defineQueue, safeJobId } from './define';

/**
 * Model work. `analyze-event` is coalesced per event (jobs/coalesce.ts): at most one waiting
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

/** Asks for an analysis of each event; one already waiting for an event absorbs the request. */
export async function requestAnalyses(eventIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(eventIds)];
  const generations = await generationsOf(aiQueue.name, unique);
  return enqueueMany(
    aiQueue,
    'analyze-event',
    unique.map((eventId, i) => ({ eventId, generation: generations[i] })),
  );
}

/** The analysis run of an event begins: requests from now on queue a follow-up. */
export const beginAnalysis = (eventId: string): Promise<number> => beginRun(aiQueue.name, eventId);

/** Asks for a rebuild of a day's picks; one already waiting for that day absorbs the request. */
export async function requestPicksRebuild(day: string): Promise<string> {
  const [generation] = await generationsOf(aiQueue.name, [`picks-${day}`]);
  const [id] = await enqueueMany(aiQueue, 'rebuild-picks', [{ day, generation: generation }]);
  return id;
}

export const beginPicksRebuild = (day: string): Promise<number> => beginRun(aiQueue.name, `picks-${day}`);
