import { key, redis } from '../../shared/platform/db/redis';

/** Deletes every Redis key under this run's prefix (queues included); returns how many. */
export async function deleteKeysOfThisRun(): Promise<number> {
  let cursor = '0';
  let removed = 0;
  do {
    const [next, keys] = await redis().scan(cursor, 'MATCH', `${key('')}*`, 'COUNT', 1000);
    if (keys.length) removed += await redis().del(...keys);
    cursor = next;
  } while (cursor !== '0');
  return removed;
}
