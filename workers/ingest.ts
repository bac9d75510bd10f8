import { ingestQueue } from '../jobs/ingest';
import { ingestHandlers } from './handlers/ingest';
import { createQueueWorker } from './registry';
import { main, workerService, type Service } from './runtime';

/** Provider polls; one poll at a time per worker so a slow provider cannot overlap itself. */
export async function startIngest(): Promise<Service> {
  return workerService(createQueueWorker(ingestQueue, ingestHandlers, { concurrency: 1 }));
}

if (require.main === module) main('ingest', [startIngest]);
