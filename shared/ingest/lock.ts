import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Runs `fn` while holding a Redis lock, or returns `undefined` at once when another process holds
 * it. The lock is renewed while `fn` runs and expires `ttlMs` after a crash, so a dead worker
 * blocks the next holder for at most that long.
 */
export async function withLock<T>(redis: Redis, key: string, ttlMs: number, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }> {
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return { held: false };
  const timer = setInterval(() => void redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined), Math.max(100, Math.floor(ttlMs / 3)));
  try {
    return { held: true, value: await fn() };
  } finally {
    clearInterval(timer);
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}
