import { key, redis } from '../db/redis';

/**
 * The polls writing now (`ingest:writing`, a sorted set of providers scored by when their mark
 * lapses), so the AI worker can keep its own store traffic off them: on FerretDB on two cores, an
 * analysis writing beside a poll's bulk writes makes both several times slower, and the poll is
 * the one with a deadline (its interval). A mark lapses by itself when a poll dies mid-write.
 */
const writingKey = () => key('ingest', 'writing');
const MARK_TTL_MS = 60_000;
const CHECK_EVERY_MS = 100;

export async function markIngestWriting(provider: string): Promise<void> {
  await redis().zadd(writingKey(), Date.now() + MARK_TTL_MS, provider);
}

export async function clearIngestWriting(provider: string): Promise<void> {
  await redis().zrem(writingKey(), provider);
}

/** Waits while a poll writes, at most `maxMs`; returns how long it waited. */
export async function waitWhileIngestWrites(maxMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < maxMs && (await redis().zcount(writingKey(), Date.now(), '+inf')) > 0) {
    await new Promise((r) => setTimeout(r, Math.min(CHECK_EVERY_MS, maxMs - (Date.now() - start))));
  }
  return Date.now() - start;
}
