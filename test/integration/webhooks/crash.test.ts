import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../../scripts/services';
import { createAccount } from '../../../shared/app/billing/accounts';
import { processContext } from '../../../shared/app/processContext';
import { createEndpoint } from '../../../shared/app/webhooks/endpoints';
import { encodeChange } from '../../../shared/domain/feed/changes';
import { getConfig, overrideEnv } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { WebhookReceiver } from '../../helpers/webhookReceiver';

const killed = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGKILL'))));

/**
 * At least once across the soak's faults: every attempt in flight when the settlement process
 * (which runs the webhook worker) is SIGKILLed, then Redis is killed and started again on its
 * append-only file, and the process started again: every event still reaches the receiver, under
 * its one webhook-id. The process and Redis are this test's own (the shared Redis is left alone).
 */
describe('webhooks: at least once across a killed worker and a Redis restart', function () {
  this.timeout(150_000);
  const EVENTS = 12; // under WEBHOOK_CONCURRENCY (16): every one is in flight at the kill
  const receiver = new WebhookReceiver();
  let restoreEnv: () => void;

  before(async () => {
    await connectMongo();
    restoreEnv = overrideEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  after(async () => {
    await receiver.close();
    restoreEnv();
  });

  it('error: killed mid-attempt, Redis restarted: every event is delivered at least once, with the same webhook-id', async () => {
    const url = await receiver.start();
    const ctx = processContext();
    const account = await createAccount(ctx, { name: 'webhook crash' });
    const endpoint = await createEndpoint(ctx, account.id, { url, events: ['recommendation.created'] });
    const dir = join(process.cwd(), '.local', `webhook-crash-${process.pid}`);
    let redisServer = await startRedisServer(dir, { persist: true });
    const client = new Redis(redisServer.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    const env = {
      REDIS_URL: redisServer.url,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '4000',
      WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,2000,4000,8000',
      WEBHOOK_FEED_POLL_MS: '100',
      LOG_LEVEL: 'info',
    };
    const prefix = getConfig().REDIS_PREFIX;
    let worker: Spawned = spawnEntry('workers/settlement.ts', env);
    try {
      await client.connect();
      await waitUntil('the fan-out reading the feed', async () => (await client.get(`${prefix}:webhooks:feed-cursor`)) !== null, 60_000, 100);
      receiver.answer = () => 'hang';
      const recIds = Array.from({ length: EVENTS }, (_, i) => `crash-rec-${process.pid}-${i}`);
      for (const [i, id] of recIds.entries()) {
        const fields = encodeChange({ eventId: `crash-event-${i}`, kind: 'recommendation', at: new Date(), data: { recommendationId: id, odds: 2 } }, `crash-batch-${i}`);
        await client.xadd(`${prefix}:{feed}:changes`, '*', ...fields);
      }
      await waitUntil('every event in flight', () => new Set(receiver.received.map((r) => r.id)).size === EVENTS, 30_000, 50);
      const ids = new Set(receiver.received.map((r) => r.id));
      // Past the append-only file's fsync (everysec): what Redis holds now survives its kill.
      await new Promise((r) => setTimeout(r, 1500));

      await sigkillTree(worker);
      await killed(redisServer.child);
      redisServer = await startRedisServer(dir, { port: redisServer.port, persist: true });
      receiver.answer = () => 200;
      const before = receiver.received.length;
      worker = spawnEntry('workers/settlement.ts', env);

      await waitUntil(
        'every event delivered after the restart',
        () => {
          const after = new Set(receiver.received.slice(before).map((r) => r.id));
          return [...ids].every((id) => after.has(id));
        },
        90_000,
        200,
      );
      const again = receiver.received.slice(before);
      // Each body verifies, and each is one of the events sent (no other id appears).
      for (const r of again) expect(WebhookReceiver.verifies(endpoint.secret, r), r.id).to.equal(true);
      expect(new Set(again.map((r) => r.id))).to.deep.equal(ids);
      expect(new Set(again.map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id))).to.deep.equal(new Set(recIds));
      await waitUntil(
        'every delivery recorded as delivered',
        async () => {
          const r = await fetchDeliveries(endpoint.id);
          return r.length === EVENTS && r.every((d) => d.status === 'delivered');
        },
        15_000,
        200,
      );
      console.log(`      ${EVENTS} events in flight at the kill; ${again.length} requests after the restart, ${again.length - EVENTS} of them repeats`);
    } finally {
      await sigkillTree(worker);
      client.disconnect();
      await killed(redisServer.child);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function fetchDeliveries(endpointId: string) {
  return processContext().webhooks.deliveriesOfEndpoint(endpointId, 100);
}
