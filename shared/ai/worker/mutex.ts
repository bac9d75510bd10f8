import { randomUUID } from 'node:crypto';
import { key, redis } from '../../db/redis';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Runs `fn` while holding a Redis lock (across processes: `ai=2` is safe), waiting for it up to
 * `waitMs`. The lock expires after `ttlMs` if its holder dies. Throws when it cannot be taken,
 * so the job fails and BullMQ retries it.
 */
export async function withLock<T>(name: string, fn: () => Promise<T>, ttlMs = 30000, waitMs = 30000): Promise<T> {
  const k = key('lock', name);
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  while ((await redis().set(k, token, 'PX', ttlMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline) throw new Error(`lock ${name} is busy`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await fn();
  } finally {
    await redis().eval(RELEASE, 1, k, token).catch(() => undefined);
  }
}
