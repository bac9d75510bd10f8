import { key, redis } from '../db/redis';

/**
 * The polls writing now (`ingest:writing`, a sorted set of providers scored by when their writes
 * began), so the AI worker can keep its own store traffic off them: on FerretDB on two cores, an
 * analysis writing beside a poll's bulk writes makes both several times slower, and the poll is
 * the one with a deadline (its interval). The budget is per poll: once a poll has written for
 * longer than it, analyses go ahead until the next poll's writes begin (so writes longer than the
 * interval cannot starve the AI worker), and the mark of a poll that died mid-write holds nothing
 * back for longer than that either.
 */
const writingKey = () => key('ingest', 'writing');
const CHECK_EVERY_MS = 100;

export async function markIngestWriting(provider: string): Promise<void> {
  await redis().zadd(writingKey(), Date.now(), provider);
}

export async function clearIngestWriting(provider: string): Promise<void> {
  await redis().zrem(writingKey(), provider);
}

/** Waits while a poll that began writing less than `budgetMs` ago still writes; returns how long it waited. */
export async function waitWhileIngestWrites(budgetMs: number): Promise<number> {
  const start = Date.now();
  if (budgetMs <= 0) return 0;
  while ((await redis().zcount(writingKey(), Date.now() - budgetMs, '+inf')) > 0) {
    await new Promise((r) => setTimeout(r, CHECK_EVERY_MS));
  }
  return Date.now() - start;
}
