import { Worker, type Job, type WorkerOptions } from 'bullmq';
import { bullPrefix } from '../shared/platform/queues/client';
import type { AnyQueueDefinition, PayloadsOf } from '../jobs/define';
import { createRedis } from '../shared/platform/db/redis';
import { childLogger } from '../shared/platform/logger';
import { observeJob } from './jobMetrics';

export type Handler<P> = (job: Job<P>) => Promise<unknown>;

/** One handler registration: a job name of the queue and the function that runs it. */
export type Registration<Q extends AnyQueueDefinition> = {
  [N in keyof PayloadsOf<Q> & string]: readonly [N, Handler<PayloadsOf<Q>[N]>];
}[keyof PayloadsOf<Q> & string];

export class HandlerRegistrationError extends Error {
  override name = 'HandlerRegistrationError';
}

/**
 * Checks that every job of the queue has exactly one handler and that no handler names a job the
 * queue does not declare. A worker that would silently drop a job kind must not boot.
 */
export function resolveHandlers<Q extends AnyQueueDefinition>(def: Q, registrations: readonly Registration<Q>[]): Map<string, Handler<unknown>> {
  const declared = Object.keys(def.jobs);
  // Keyed by job name: each handler gets the payload type its name declares (checked by Registration).
  const handlers = new Map<string, Handler<unknown>>();
  for (const [name, handler] of registrations) {
    if (!declared.includes(name)) throw new HandlerRegistrationError(`queue ${def.name}: handler for undeclared job "${name}"`);
    if (handlers.has(name)) throw new HandlerRegistrationError(`queue ${def.name}: two handlers for job "${name}"`);
    handlers.set(name, handler as Handler<unknown>);
  }
  const missing = declared.filter((n) => !handlers.has(n));
  if (missing.length) throw new HandlerRegistrationError(`queue ${def.name}: no handler for job(s) ${missing.join(', ')}`);
  return handlers;
}

export function createQueueWorker<Q extends AnyQueueDefinition>(def: Q, registrations: readonly Registration<Q>[], options: Partial<WorkerOptions> = {}): Worker {
  const handlers = resolveHandlers(def, registrations);
  const log = childLogger({ queue: def.name });
  const worker = new Worker<unknown>(
    def.name,
    async (job) => {
      const handler = handlers.get(job.name);
      // Unreachable for jobs added through enqueue(); a foreign job fails loudly instead of vanishing.
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      return observeJob(def.name, job, () => handler(job));
    },
    {
      connection: createRedis(`worker-${def.name}`),
      prefix: bullPrefix(def.name),
      concurrency: 4,
      autorun: false,
      ...options,
    },
  );
  worker.on('failed', (job, err) => log.warn({ jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: err.message }, 'job failed'));
  worker.on('error', (err) => log.error({ err: err.message }, 'worker error'));
  return worker;
}
