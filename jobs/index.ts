import { aiQueue } from './ai';
import { ingestQueue } from './ingest';
import { rechargeQueue } from './recharge';
import { settlementQueue } from './settlement';

export { aiQueue, ingestQueue, rechargeQueue, settlementQueue };

/** Every queue of the service (health, Bull Board, shutdown). */
export const ALL_QUEUES = [ingestQueue, aiQueue, settlementQueue, rechargeQueue] as const;
