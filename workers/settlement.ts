import { rechargeQueue } from '../jobs/recharge';
import { settlementQueue } from '../jobs/settlement';
import { rechargeHandlers } from './handlers/recharge';
import { settlementHandlers } from './handlers/settlement';
import { createQueueWorker } from './registry';
import { main, workerService, type Service } from './runtime';

/** Grading and auto-recharge charges (DESIGN.md: the settlement worker drains both). */
export async function startSettlement(): Promise<Service> {
  return workerService(createQueueWorker(settlementQueue, settlementHandlers));
}

export async function startRecharge(): Promise<Service> {
  // A short lock: a recharge worker that dies mid-charge has its job picked up again within
  // seconds (the charge is replayed under the same idempotency key), not after the default 30 s.
  return workerService(createQueueWorker(rechargeQueue, rechargeHandlers, { concurrency: 2, lockDuration: 10000, stalledInterval: 5000 }));
}

if (require.main === module) main('settlement', [startSettlement, startRecharge]);
