import { rechargeQueue } from '../jobs/recharge';
import { settlementQueue } from '../jobs/settlement';
import { getConfig } from '../shared/config';
import { rechargeHandlers } from './handlers/recharge';
import { settlementHandlers } from './handlers/settlement';
import { createQueueWorker } from './registry';
import { main, workerService, type Service } from './runtime';

/** Grading and auto-recharge charges (DESIGN.md: the settlement worker drains both). */
export async function startSettlement(): Promise<Service> {
  const cfg = getConfig();
  // Many concurrent settle jobs so the batcher can grade them together; a dead worker's jobs are
  // taken back after the lock expires (the stalled check runs as often as the lock lasts).
  return workerService(
    createQueueWorker(settlementQueue, settlementHandlers, {
      concurrency: cfg.SETTLEMENT_CONCURRENCY,
      lockDuration: cfg.SETTLEMENT_LOCK_MS,
      stalledInterval: cfg.SETTLEMENT_LOCK_MS,
    }),
  );
}

export async function startRecharge(): Promise<Service> {
  return workerService(createQueueWorker(rechargeQueue, rechargeHandlers, { concurrency: 2 }));
}

if (require.main === module) main('settlement', [startSettlement, startRecharge]);
