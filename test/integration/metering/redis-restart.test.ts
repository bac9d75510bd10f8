import type { ChildProcess } from 'node:child_process';
import { processContext } from '../../../shared/app/processContext';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { freePort, startRedisServer } from '../../../scripts/services';
import { balanceKey, chargeStreamKey } from '../../../shared/platform/billing/credits';
import { findHead } from '../../../shared/platform/billing/ledger';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { countChargedRequestsOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { sigkillTree } from '../../helpers/kill';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';

/**
 * The bound docs/metering.md states: a Redis lost (restarted empty) forgives at most the charges
 * not yet in the ledger, which the consumer keeps to the requests served in the last moments
 * before the loss. Never the other way: no request is charged that was not served.
 */
const BOUND_WINDOW_MS = 2000;

interface Hit {
  status: number;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const killed = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGKILL'))));

describe('metering: Redis restarted empty under load', function () {
  this.timeout(180000);
  before(connectMongo);

  it('error: served requests are charged at most once, the ones forgiven stay within the stated bound, and the ledger stays whole', async () => {
    const opening = 100000;
    const { accountId, key } = await accountWithKey(opening);
    const port = await freePort();
    const dir = join(process.cwd(), '.local', `redis-restart-${port}`);
    let redisServer = await startRedisServer(dir, { port });
    const env = { REDIS_URL: redisServer.url, LOG_LEVEL: 'error', RATE_LIMIT_LIVE_RPS: '1000000', ACCOUNT_RATE_LIMIT_RPS: '1000000', LEDGER_CLAIM_IDLE_MS: '1000' };
    const procs: Spawned[] = [spawnEntry('test/fixtures/meteredWeb.ts', env), spawnEntry('test/fixtures/meteredWeb.ts', env), spawnEntry('test/fixtures/ledgerWriter.ts', env)];
    const hits: Hit[] = [];
    let running = true;
    let killAt = 0;
    const client = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await waitUntil('two API processes and the ledger writer', () => procs.slice(0, 2).every((p) => /listening (\S+)/.test(p.output())) && /consuming/.test(procs[2].output()), 60000);
      const urls = procs.slice(0, 2).map((p) => /listening (\S+)/.exec(p.output())![1]);
      const loops = Array.from({ length: 12 }, async (_, i) => {
        while (running) {
          const status = await fetch(`${urls[i % 2]}/v2/matches`, { headers: bearer(key) }).then(
            async (r) => (await r.arrayBuffer(), r.status),
            () => 0,
          );
          hits.push({ status, at: Date.now() });
          if (status !== 200) await sleep(20);
        }
      });
      await sleep(3000);
      killAt = Date.now();
      await killed(redisServer.child);
      await sleep(1500);
      redisServer = await startRedisServer(dir, { port });
      await sleep(4000);
      running = false;
      await Promise.all(loops);
      await client.connect();
      // A response can reach the client before its charge reaches the stream (the settle runs when
      // the response closes): wait for the stream to stay empty and the ledger to stop growing.
      let last = -1;
      await waitUntil(
        'every charge written, the ledger still',
        async () => {
          const n = await countChargedRequestsOfAccount(accountId);
          const still = n === last && (await client.xlen(chargeStreamKey())) === 0;
          last = n;
          return still;
        },
        60000,
        1000,
      );
      const served = hits.filter((h) => h.status === 200);
      const charged = await countChargedRequestsOfAccount(accountId);
      const forgiven = served.length - charged;
      const bound = served.filter((h) => h.at >= killAt - BOUND_WINDOW_MS && h.at <= killAt + 1000).length;
      // Served before, during refusal (503, nothing served) and after the restart.
      expect(served.filter((h) => h.at < killAt).length, 'served before the loss').to.be.greaterThan(100);
      expect(served.filter((h) => h.at > killAt + 2000).length, 'served after the restart').to.be.greaterThan(100);
      expect(hits.filter((h) => h.status !== 200 && h.status !== 503)).to.deep.equal([]);
      expect(forgiven, 'charged for more requests than were served').to.be.at.least(0);
      expect(forgiven, `forgiven ${forgiven} of ${served.length}, bound ${bound}`).to.be.at.most(bound);
      const ledgerBalance = (await findHead(accountId)).balance;
      expect(ledgerBalance).to.equal(opening - charged);
      // Seeded again from the ledger: never below it, above it by no more than the bound.
      const admission = Number(await client.hget(balanceKey(accountId), 'bal'));
      expect(admission - ledgerBalance).to.be.within(0, bound);
      expect((await checkLedger(processContext())).problems).to.deep.equal([]);
    } finally {
      running = false;
      for (const p of procs) await sigkillTree(p);
      client.disconnect();
      await killed(redisServer.child);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
