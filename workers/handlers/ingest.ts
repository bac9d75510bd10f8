import type { ingestQueue } from '../../jobs/ingest';
import { pollProvider, type PollOutcome } from '../../shared/app/ingest/poll';
import { providerHandle } from '../../shared/platform/providers/registry';
import type { AppContext } from '../../shared/app/context';
import type { Registration } from '../registry';

/** The ingest queue's handlers, run in the process's context. */
export function ingestHandlers(ctx: AppContext): Registration<typeof ingestQueue>[] {
  return [
    [
      'poll',
      // The poll reads the provider as of its slot's start, so a job run late or by another
      // worker still describes the same instant.
      async (job): Promise<PollOutcome> => {
        const { provider, slot } = job.data;
        const intervalMs = ctx.config.POLL_INTERVAL_MS;
        if (job.data.intervalMs !== undefined && job.data.intervalMs !== intervalMs) {
          // Left in the queue by a run with another POLL_INTERVAL_MS: its slot means another instant.
          ctx.log({ provider, slot }).warn({ jobIntervalMs: job.data.intervalMs, intervalMs }, 'poll job of an earlier configuration discarded');
          return { status: 'skipped', provider, reason: 'stale-slot' };
        }
        return pollProvider(ctx, providerHandle(provider), { slot, intervalMs, at: new Date(slot * intervalMs) });
      },
    ],
  ];
}
