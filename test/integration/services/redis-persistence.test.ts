import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { freePort, startRedisServer } from '../../../scripts/services';
import { evictionPolicyWarning } from '../../../shared/platform/db/redis';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil } from '../../helpers/processes';

const stopped = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once('exit', () => r()), child.kill(signal))));

/**
 * The Redis the bootstrap starts keeps its data (AOF, appendfsync everysec) and
 * runs with maxmemory-policy noeviction; a process finding a Redis with another policy says so.
 */
describe('local services: a Redis that survives a restart', function () {
  this.timeout(60000);
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  after(async () => {
    for (const c of children) await stopped(c, 'SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const ownDir = async () => {
    const port = await freePort();
    const dir = join(process.cwd(), '.local', `redis-persist-${port}`);
    dirs.push(dir);
    return { port, dir };
  };

  it("happy: the bootstrap's redis-server runs with AOF every second and noeviction, and keeps its keys across a stop and start", async () => {
    const { port, dir } = await ownDir();
    let server = await startRedisServer(dir, { port, persist: true });
    children.push(server.child);
    let client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await client.config('GET', 'appendonly')).to.deep.equal(['appendonly', 'yes']);
      expect(await client.config('GET', 'appendfsync')).to.deep.equal(['appendfsync', 'everysec']);
      expect(await client.config('GET', 'maxmemory-policy')).to.deep.equal(['maxmemory-policy', 'noeviction']);
      expect(await evictionPolicyWarning(client)).to.equal(undefined);
      await client.set('persist:plain', 'kept');
      await client.zadd('persist:delayed', 1234, 'job-1', 5678, 'job-2');
      await client.hset('persist:hash', { bal: '100', v: '3' });
      client.disconnect();
      await stopped(server.child, 'SIGTERM');
      server = await startRedisServer(dir, { port, persist: true });
      children.push(server.child);
      client = new Redis(server.url, { maxRetriesPerRequest: 1 });
      expect(await client.get('persist:plain')).to.equal('kept');
      expect(await client.zrange('persist:delayed', 0, -1, 'WITHSCORES')).to.deep.equal(['job-1', '1234', 'job-2', '5678']);
      expect(await client.hgetall('persist:hash')).to.deep.equal({ bal: '100', v: '3' });
    } finally {
      client.disconnect();
    }
  });

  it('error: killed without warning (SIGKILL), it keeps what was written more than a second before', async () => {
    const { port, dir } = await ownDir();
    let server = await startRedisServer(dir, { port, persist: true });
    children.push(server.child);
    let client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      for (let i = 0; i < 100; i++) await client.rpush('persist:list', String(i));
      await new Promise((r) => setTimeout(r, 1500)); // past appendfsync everysec
      client.disconnect();
      await stopped(server.child, 'SIGKILL');
      server = await startRedisServer(dir, { port, persist: true });
      children.push(server.child);
      client = new Redis(server.url, { maxRetriesPerRequest: 1 });
      expect(await client.llen('persist:list')).to.equal(100);
    } finally {
      client.disconnect();
    }
  });

  it('error: a Redis with maxmemory-policy allkeys-lru gets a warning line when a process starts on it', async () => {
    const { port, dir } = await ownDir();
    const server = await startRedisServer(dir, { port, args: ['--maxmemory-policy', 'allkeys-lru'] });
    children.push(server.child);
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await evictionPolicyWarning(client)).to.match(/^Redis maxmemory-policy is allkeys-lru, not noeviction/);
    } finally {
      client.disconnect();
    }
    const web = spawnEntry('workers/web.ts', { REDIS_URL: server.url, REDIS_PREFIX: `policy_${port}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      await waitUntil('the warning line', () => /Redis maxmemory-policy is allkeys-lru, not noeviction/.test(web.output()), 30000);
      const line = web
        .output()
        .split('\n')
        .find((l) => l.includes('Redis maxmemory-policy is allkeys-lru'));
      expect(JSON.parse(line ?? '{}')).to.include({ level: 40 });
    } finally {
      await sigkillTree(web);
    }
  });
});
