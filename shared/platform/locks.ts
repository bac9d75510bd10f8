import { luaScript } from './db/luaScript';
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './db/redis';

/**
 * The one lock of the code base: a Redis key set with NX and a random token, renewed while its
 * holder works, released only by that holder (a compare-and-delete), and expiring `ttlMs` after
 * its holder dies. Three ways to hold it: try once (`tryWithLock`), wait for it (`waitForLock`),
 * or keep it as a lease (`LeaderLock`).
 */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const runRenew = luaScript(RENEW, 1);
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const runRelease = luaScript(RELEASE, 1);

const acquire = async (redis: RedisClient, key: string, token: string, ttlMs: number) => (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK';
const renew = async (redis: RedisClient, key: string, token: string, ttlMs: number) => (await runRenew(redis, key, token, String(ttlMs))) === 1;
const release = (redis: RedisClient, key: string, token: string) => runRelease(redis, key, token).catch(() => undefined);

/** Runs `fn` holding the lock (renewed every third of `ttlMs`); releases it after. */
async function holding<T>(redis: RedisClient, key: string, token: string, ttlMs: number, fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void renew(redis, key, token, ttlMs).catch(() => undefined), Math.max(100, Math.floor(ttlMs / 3)));
  try {
    return await fn();
  } finally {
    clearInterval(timer);
    await release(redis, key, token);
  }
}

/** Runs `fn` holding the lock, or returns `{held: false}` at once when another holder has it. */
export async function tryWithLock<T>(redis: RedisClient, key: string, ttlMs: number, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }> {
  const token = randomUUID();
  if (!(await acquire(redis, key, token, ttlMs))) return { held: false };
  return { held: true, value: await holding(redis, key, token, ttlMs, fn) };
}

/**
 * Runs `fn` holding the lock, waiting for it up to `waitMs`; throws "lock <key> is busy" when it
 * cannot be taken in time (a job then fails and its queue retries it).
 */
export async function waitForLock<T>(redis: RedisClient, key: string, fn: () => Promise<T>, ttlMs = 30000, waitMs = 30000): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  while (!(await acquire(redis, key, token, ttlMs))) {
    if (Date.now() > deadline) throw new Error(`lock ${key} is busy`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return holding(redis, key, token, ttlMs, fn);
}

/**
 * The lock as a lease: one holder at a time, renewed while alive, lost on crash after `ttlMs`.
 * Used so that exactly one scheduler schedules however many copies run.
 */
export class LeaderLock {
  private readonly token = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private held = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly ttlMs = 15000,
    private readonly onChange: (leader: boolean) => void = () => {},
  ) {}

  get isLeader(): boolean {
    return this.held;
  }

  start(): void {
    const tick = () => void this.tryHold().catch(() => this.set(false));
    tick();
    this.timer = setInterval(tick, Math.max(200, Math.floor(this.ttlMs / 3)));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.held) await release(this.redis, this.key, this.token);
    this.set(false);
  }

  private async tryHold(): Promise<void> {
    this.set(this.held ? await renew(this.redis, this.key, this.token, this.ttlMs) : await acquire(this.redis, this.key, this.token, this.ttlMs));
  }

  private set(leader: boolean): void {
    if (leader !== this.held) {
      this.held = leader;
      this.onChange(leader);
    }
  }
}
