import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { dropDatabase, ferretDatabaseName, LOCAL_POSTGRES_URL } from '../../../scripts/postgres';
import { freePort, liveRuns, pidAlive } from '../../../scripts/services';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';

interface Health {
  status: number;
  body: unknown;
}

/** A field of a parsed JSON body, if it is an object that has it. */
const field = (v: unknown, k: string): unknown => (typeof v === 'object' && v !== null && k in v ? Object.getOwnPropertyDescriptor(v, k)?.value : undefined);

async function health(port: number): Promise<Health> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v2/health`);
    return { status: res.status, body: await res.json() };
  } catch {
    return { status: 0, body: null };
  }
}

/** 200, with MongoDB (FerretDB) and Redis up: the stack serves on its servers (the pipeline's own state aside). */
const serving = (h: Health) => h.status === 200 && field(field(h.body, 'mongodb'), 'status') === 'up' && field(field(h.body, 'redis'), 'status') === 'up';

function recorded(dir: string): { redis: { pid: number; url: string }; mongo: { pid: number; url: string } } {
  return JSON.parse(readFileSync(join(dir, 'services.json'), 'utf8'));
}

/**
 * Two runs in one checkout share the servers the bootstrap starts (a lease per
 * run, the last one out stops them). Two stacks as `npm start -- --one-process` runs them, each
 * with its own port, database and Redis prefix, on servers of this test's own directory (a
 * redis-server and a FerretDB it starts, never the machine's): the first stopped, the second
 * still serves and reads its database; the second stopped, the servers are gone.
 */
describe('local services: two runs side by side', function () {
  this.timeout(180000);
  const runs: Spawned[] = [];
  let dir = '';
  after(async () => {
    for (const r of runs) await sigkillTree(r);
    if (dir && existsSync(join(dir, 'services.json'))) {
      const rec = recorded(dir);
      for (const pid of [rec.mongo?.pid, rec.redis?.pid]) if (pid && pidAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    if (dir) {
      await dropDatabase(LOCAL_POSTGRES_URL, ferretDatabaseName(dir)).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('happy: stopping one of two running stacks leaves the other serving on the shared servers; stopping the last stops them', async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    dir = join(process.cwd(), '.local', `side-by-side-${portA}`);
    const run = (port: number, name: string) =>
      spawnEntry(
        'test/fixtures/stackRun.ts',
        { PORT: String(port), HOST: '127.0.0.1', MONGODB_DB: `sbs_${name}_${port}`, REDIS_PREFIX: `sbs_${name}_${port}`, LOG_LEVEL: 'warn', POLL_INTERVAL_MS: '5000' },
        [dir, '--one-process'],
      );
    const a = run(portA, 'a');
    runs.push(a);
    await waitUntil('the first stack serving', async () => serving(await health(portA)), 120000, 500);
    const b = run(portB, 'b');
    runs.push(b);
    await waitUntil('the second stack serving', async () => serving(await health(portB)), 120000, 500);
    expect(b.output()).to.match(/already running, shared/);
    expect(liveRuns(dir).sort()).to.have.length(2);
    const servers = recorded(dir);

    a.child.kill('SIGTERM');
    expect((await a.exited).code, a.output()).to.equal(0);
    expect(pidAlive(servers.mongo.pid) && pidAlive(servers.redis.pid), 'servers still up for the second run').to.equal(true);
    // The second's pipeline reaches ok on the shared servers after the first is gone.
    await waitUntil('the second stack ok', async () => field((await health(portB)).body, 'status') === 'ok', 90000, 1000);
    // The second still serves, and reads and writes its database, for a while after.
    const client = new MongoClient(servers.mongo.url);
    try {
      for (let i = 0; i < 5; i++) {
        const h = await health(portB);
        expect(serving(h), JSON.stringify(h)).to.equal(true);
        await client.db(`sbs_b_${portB}`).collection('sidebyside').insertOne({ i });
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(await client.db(`sbs_b_${portB}`).collection('sidebyside').countDocuments()).to.equal(5);
    } finally {
      await client.close();
    }

    b.child.kill('SIGTERM');
    expect((await b.exited).code, b.output()).to.equal(0);
    expect(pidAlive(servers.mongo.pid), 'FerretDB stopped by the last run').to.equal(false);
    expect(pidAlive(servers.redis.pid), 'redis-server stopped by the last run').to.equal(false);
    expect(existsSync(join(dir, 'services.json'))).to.equal(false);
  });
});
