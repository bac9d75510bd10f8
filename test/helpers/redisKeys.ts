import { key, redis, scanKeys } from '../../shared/platform/db/redis';

/** Deletes every Redis key under this run's prefix (queues included), on every primary of a cluster; returns how many. */
export async function deleteKeysOfThisRun(): Promise<number> {
  const keys = await scanKeys(redis(), `${key('')}*`);
  // One DEL per key: a cluster refuses a DEL whose keys are in different slots (auto-pipelined, so one round trip per node).
  const removed = await Promise.all(keys.map((k) => redis().del(k)));
  return removed.reduce((a, b) => a + b, 0);
}
