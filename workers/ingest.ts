import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { hostname } from 'node:os';
import { ingestQueue } from '../jobs/ingest';
import { invalidateListing } from '../shared/platform/listing/store';
import { migrateStoredEvents } from '../shared/app/ingest/migrate';
import { closeProviders, providerHandle } from '../shared/platform/providers/registry';
import { processContext } from '../shared/app/processContext';
import { ingestHandlers } from './handlers/ingest';
import { createQueueWorker } from './registry';
import { main, workerService, type Service } from './runtime';

/** Provider polls; one poll at a time per worker so a slow provider cannot overlap itself. */
export async function startIngest(): Promise<Service> {
  // Build every configured provider now: a bad scenario file stops the process at start,
  // naming the offending field, instead of failing each poll.
  const ctx = processContext();
  for (const name of ctx.config.PROVIDERS) providerHandle(name);
  await migrateStoredEvents(ctx);
  // This worker's state is read back from the store; a poll of a previous run may have died
  // between its writes and the listing's: the next reader rebuilds the listing from the store.
  await invalidateListing();
  const service = workerService(createQueueWorker(ingestQueue, ingestHandlers(ctx), { concurrency: 1, name: `ingest@${hostname()}:${process.pid}` }));
  return {
    name: service.name,
    stop: async () => {
      await service.stop();
      closeProviders();
    },
  };
}

if (require.main === module) main('ingest', [startIngest]);
