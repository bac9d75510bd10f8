import { defineQueue, safeJobId } from './define';

/** Provider polls. One poll per provider per interval slot: duplicate enqueues collapse. */
export interface IngestPayloads {
  /** `slot` counts `intervalMs` (the scheduler's POLL_INTERVAL_MS; absent = the worker's). */
  poll: { provider: string; slot: number; intervalMs?: number };
}

export const ingestQueue = defineQueue<IngestPayloads>({
  name: 'ingest',
  defaultJobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 2000 }, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 86400 } },
  jobs: {
    poll: { jobId: (p) => safeJobId('poll', p.intervalMs === undefined ? [p.provider, p.slot] : [p.provider, p.intervalMs, p.slot]) },
  },
});
