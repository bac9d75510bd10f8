import { aiQueue } from './ai';
import { ingestQueue } from './ingest';
import { rechargeQueue } from './recharge';
import { settlementQueue } from './settlement';
import { webhooksQueue } from './webhooks';

export { aiQueue, ingestQueue, rechargeQueue, settlementQueue, webhooksQueue };

/** Every queue of the service (health, Bull Board, shutdown). */
export const ALL_QUEUES = [ingestQueue, aiQueue, settlementQueue, rechargeQueue, webhooksQueue] as const;
