import type { ingestQueue } from '../../jobs/ingest';
import { pollJob } from '../../shared/app/ingest/poll';
import { providerHandle } from '../../shared/platform/providers/registry';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/** The ingest queue's handlers, run in the process's context. */
export function ingestHandlers(ctx: AppContext): Registration<typeof ingestQueue>[] {
  return [['poll', (job) => pollJob(ctx, providerHandle(job.data.provider), job.data)]];
}
