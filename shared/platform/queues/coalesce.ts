import { getMany, key, redis } from '../db/redis';

/**
 * Coalesced jobs: at most one waiting job per subject (an event to analyse, say). The job id
 * carries the subject's generation, read when the job is enqueued; a run starts the next
 * generation before it reads its inputs. So every enqueue while a job waits collapses into it
 * (same id, and the run reads the latest data), and a change that lands while a job runs queues
 * exactly one follow-up under the new generation.
 */
const GENERATION_TTL_S = 7 * 86400;

const generationKey = (queue: string, subject: string) => key('coalesce', queue, subject);

/** The current generation of each subject (0 before its first run), in one round trip (the subjects' keys spread over a cluster's slots). */
export async function generationsOf(queue: string, subjects: readonly string[]): Promise<number[]> {
  if (subjects.length === 0) return [];
  const values = await getMany(
    redis(),
    subjects.map((s) => generationKey(queue, s)),
  );
  return values.map((v) => Number(v ?? 0));
}

/** Called by the run before it reads anything: later enqueues make a new job. */
export async function beginRun(queue: string, subject: string): Promise<number> {
  const k = generationKey(queue, subject);
  const replies = await redis().multi().incr(k).expire(k, GENERATION_TTL_S).exec();
  const [error, generation] = replies?.[0] ?? [new Error('no reply to INCR')];
  if (error) throw error;
  if (typeof generation !== 'number') throw new Error(`INCR of ${k} answered ${String(generation)}`);
  return generation;
}
