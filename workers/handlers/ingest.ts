import type { ingestQueue } from '../../jobs/ingest';
import { getConfig } from '../../shared/config';
import { pollProvider } from '../../shared/ingest/poll';
import { providerHandle } from '../../shared/providers/registry';
import type { Registration } from '../registry';

export const ingestHandlers: Registration<typeof ingestQueue>[] = [
  [
    'poll',
    // The poll reads the provider as of its slot's start, so a job run late or by another
    // worker still describes the same instant.
    (job) => pollProvider(providerHandle(job.data.provider), { slot: job.data.slot, at: new Date(job.data.slot * getConfig().POLL_INTERVAL_MS) }),
  ],
];
