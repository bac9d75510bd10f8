import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { aiQueue } from '../jobs/ai';
import { getConfig } from '../shared/platform/config';
import { processContext } from '../shared/app/processContext';
import { aiHandlers } from './handlers/ai';
import { createQueueWorker } from './registry';
import { setPriority } from 'node:os';
import { main, workerService, type Service } from './runtime';

export async function startAi(): Promise<Service> {
  return workerService(createQueueWorker(aiQueue, aiHandlers(processContext()), { concurrency: getConfig().AI_CONCURRENCY }));
}

if (require.main === module) {
  // A process of its own: it yields the cores to the polls and reads (AI_NICE); in one process with them, it could not.
  setPriority(getConfig().AI_NICE);
  main('ai', [startAi]);
}
