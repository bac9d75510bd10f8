import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * A lease in Redis: one holder at a time, renewed while alive, lost on crash after `ttlMs`.
 * Used so that exactly one scheduler schedules however many copies run.
 */
export class LeaderLock {
  private readonly token = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private held = false;

  constructor(
    private readonly redis: Redis,
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
    if (this.held) await this.redis.eval(RELEASE, 1, this.key, this.token).catch(() => undefined);
    this.set(false);
  }

  private async tryHold(): Promise<void> {
    if (this.held) {
      const renewed = await this.redis.eval(RENEW, 1, this.key, this.token, String(this.ttlMs));
      this.set(renewed === 1);
    } else {
      const got = await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX');
      this.set(got === 'OK');
    }
  }

  private set(leader: boolean): void {
    if (leader !== this.held) {
      this.held = leader;
      this.onChange(leader);
    }
  }
}
