import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { rechargeQueue } from '../jobs/recharge';
import { settlementQueue } from '../jobs/settlement';
import { startLedgerConsumer } from '../shared/platform/billing/ledgerConsumer';
import { processContext } from '../shared/app/processContext';
import { getConfig } from '../shared/platform/config';
import { rechargeHandlers } from './handlers/recharge';
import { settlementHandlers } from './handlers/settlement';
import { createQueueWorker } from './registry';
import { startWebhookFeed, startWebhooks } from './webhookServices';
import { main, workerService, type Service } from './runtime';

/** Grading and auto-recharge charges (the settlement worker drains both queues); the ledger writer beside them. */
export async function startSettlement(): Promise<Service> {
  const cfg = getConfig();
  // Many concurrent settle jobs so the batcher can grade them together; a dead worker's jobs are
  // taken back after the lock expires (the stalled check runs as often as the lock lasts).
  return workerService(
    createQueueWorker(settlementQueue, settlementHandlers(processContext()), {
      concurrency: cfg.SETTLEMENT_CONCURRENCY,
      lockDuration: cfg.SETTLEMENT_LOCK_MS,
      stalledInterval: cfg.SETTLEMENT_LOCK_MS,
      // Settle jobs are idempotent: one whose worker died is run again, not failed after the
      // default single stall (the sweeper would find it anyway, a sweep interval later).
      maxStalledCount: 20,
    }),
  );
}

export async function startRecharge(): Promise<Service> {
  // A short lock: a recharge worker that dies mid-charge has its job picked up again within
  // seconds (the charge is replayed under the same idempotency key), not after the default 30 s.
  return workerService(createQueueWorker(rechargeQueue, rechargeHandlers(processContext()), { concurrency: 2, lockDuration: 10000, stalledInterval: 5000 }));
}

/** Writes the charges web processes append to the Redis stream into the MongoDB ledger. */
export async function startLedgerWriter(): Promise<Service> {
  const consumer = startLedgerConsumer({ claimIdleMs: getConfig().LEDGER_CLAIM_IDLE_MS });
  return { name: 'ledger-consumer', stop: () => consumer.stop() };
}

// Webhook deliveries and their fan-out share this process (docs/webhooks.md): they scale with it.
if (require.main === module) main('settlement', [startSettlement, startRecharge, startLedgerWriter, startWebhooks, startWebhookFeed]);
