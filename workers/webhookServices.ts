import { webhooksQueue } from '../jobs/webhooks';
import { processContext } from '../shared/app/processContext';
import { fanOutFeed, FEED_BATCH } from '../shared/app/webhooks/fanout';
import { getConfig } from '../shared/platform/config';
import { key, redis } from '../shared/platform/db/redis';
import { LeaderLock } from '../shared/platform/locks';
import { childLogger } from '../shared/platform/logger';
import { webhookHandlers } from './handlers/webhooks';
import { createQueueWorker } from './registry';
import { workerService, type Service } from './runtime';

/**
 * Webhooks run in the settlement process (docs/webhooks.md): they scale with it (`settlement=N`),
 * and its other work is light. The delivery worker's attempts wait on receivers, not on the CPU,
 * so many run at once (WEBHOOK_CONCURRENCY) without slowing the settlement beside them.
 */
export async function startWebhooks(): Promise<Service> {
  const cfg = getConfig();
  // The lock outlasts an attempt (WEBHOOK_TIMEOUT_MS): a live attempt keeps its job; a dead
  // worker's job is taken back once the lock lapses and made again (the same webhook-id).
  const lockDuration = Math.max(5_000, cfg.WEBHOOK_TIMEOUT_MS * 2);
  return workerService(createQueueWorker(webhooksQueue, webhookHandlers(processContext()), { concurrency: cfg.WEBHOOK_CONCURRENCY, lockDuration, stalledInterval: lockDuration, maxStalledCount: 20 }));
}

/**
 * The fan-out of the change feed: one reader at a time across every settlement process (a Redis
 * lease), reading after its cursor every WEBHOOK_FEED_POLL_MS and at once again after a full batch.
 */
export async function startWebhookFeed(): Promise<Service> {
  const log = childLogger({ component: 'webhook-feed' });
  const lock = new LeaderLock(redis(), key('webhooks', 'feed-leader'), 15000);
  lock.start();
  let running = true;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    let failures = 0;
    while (running) {
      let full = false;
      if (lock.isLeader) {
        try {
          full = (await fanOutFeed(processContext())).entries === FEED_BATCH;
          failures = 0;
        } catch (err) {
          failures++;
          if (failures === 1 || failures % 20 === 0) log.warn({ err: (err as Error).message, failures }, 'webhook fan-out failed; the feed is read again from its cursor');
        }
      }
      if (full) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, getConfig().WEBHOOK_FEED_POLL_MS * (failures ? Math.min(20, 2 ** failures) : 1));
      });
    }
  })();
  return {
    name: 'webhook-feed',
    stop: async () => {
      running = false;
      wake?.();
      await loop;
      await lock.stop();
    },
  };
}
