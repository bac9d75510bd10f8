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
  return workerService(createQueueWorker(rechargeQueue, rechargeHandlers, { concurrency: 2 }));
}

if (require.main === module) main('settlement', [startSettlement, startRecharge]);
