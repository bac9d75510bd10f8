import { aiQueue } from '../../../jobs/ai';
import { enqueueMany } from './client';
import { beginRun, generationsOf } from './coalesce';
import { key, redis } from '../db/redis';

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

/** While it lives, the day's last rebuild began less than the spacing ago (PICKS_REBUILD_SPACING_MS). */
const spacingKey = (day: string) => key('picks-spacing', day);

/**
 * Asks for a rebuild of a day's picks; one already waiting for that day absorbs the request. Within
 * the spacing of the day's last rebuild, the job waits (delayed) until the spacing is over.
 */
export async function requestPicksRebuild(day: string): Promise<string> {
  const [[generation], wait] = await Promise.all([generationsOf(aiQueue.name, [`picks-${day}`]), redis().pttl(spacingKey(day))]);
  const [id] = await enqueueMany(aiQueue, 'rebuild-picks', [{ day, generation: generation }], () => (wait > 0 ? { delay: wait } : {}));
  return id;
}

/** A rebuild of the day's picks begins: the next one waits `spacingMs`; requests from now on queue it. */
export async function beginPicksRebuild(day: string, spacingMs: number): Promise<number> {
  if (spacingMs > 0) await redis().set(spacingKey(day), '1', 'PX', spacingMs);
  return beginRun(aiQueue.name, `picks-${day}`);
}
