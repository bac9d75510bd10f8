import { aiQueue } from '../../../jobs/ai';
import { enqueueMany } from './client';
import { beginRun, generationsOf } from './coalesce';

/**
 * The coalesced jobs of the ai queue (jobs/ai.ts): requests collapse into the one job waiting for
 * their subject, and a run begins its subject's next generation before it reads anything.
 */

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
