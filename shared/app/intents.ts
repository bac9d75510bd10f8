import type { Logger } from 'pino';
import { requestAnalyses, requestPicksRebuild } from '../platform/queues/coalesced';
import { enqueue, enqueueMany, queueFor } from '../platform/queues/client';
import type { AnyQueueDefinition, PayloadsOf } from '../../jobs/define';
import { aiQueue, ingestQueue, rechargeQueue, settlementQueue, webhooksQueue } from '../../jobs/index';
import { childLogger } from '../platform/logger';

/** The recharge queue's retry delay (jobs/recharge.ts), for the domain code that schedules it. */
export { RECHARGE_RETRY_DELAY_MS } from '../../jobs/recharge';

/**
 * Intentions: what domain code wants done with the queues, as data. Domain modules build them
 * (pure functions, tested without Redis) and return them; `dispatch` carries them out through
 * the jobs/ builders (job names, options and deterministic job ids stay defined there only).
 * This is the one module under shared/ that imports jobs/.
 */

/** Every queue by its name (jobs/): an intent names its queue, the definition builds the rest. */
const DEFINITIONS = { ingest: ingestQueue, ai: aiQueue, settlement: settlementQueue, recharge: rechargeQueue, webhooks: webhooksQueue } as const;

export type QueueName = keyof typeof DEFINITIONS;
type QueuePayloads = { [Q in QueueName]: PayloadsOf<(typeof DEFINITIONS)[Q]> };

/** What to do when a job under the intent's id already exists. */
export type OnExisting =
  /** BullMQ's own rule: adding an existing id is a no-op (the default). */
  | 'keep'
  /** Keep a waiting, delayed or running job (not enqueued); replace a completed or failed one. */
  | 'replace-finished'
  /** Add (a no-op if it exists), then put the job back to work if it failed. */
  | 'retry-failed';

type EnqueueOf<Q extends QueueName, N extends keyof QueuePayloads[Q] & string> = {
  kind: 'enqueue';
  queue: Q;
  name: N;
  data: QueuePayloads[Q][N];
  /** The job's delay in ms; absent: no delay option is passed. */
  delay?: number;
  existing?: OnExisting;
};

type EnqueueManyOf<Q extends QueueName, N extends keyof QueuePayloads[Q] & string> = {
  kind: 'enqueue-many';
  queue: Q;
  name: N;
  /** Added in one round trip (addBulk), each under its own id, with its own delay. */
  jobs: { data: QueuePayloads[Q][N]; delay: number }[];
};

/** One job of any queue, typed by queue and job name. */
export type EnqueueIntent = { [Q in QueueName]: { [N in keyof QueuePayloads[Q] & string]: EnqueueOf<Q, N> }[keyof QueuePayloads[Q] & string] }[QueueName];
/** The enqueue intent of one queue's job name, e.g. `EnqueueIntentOf<'recharge', 'charge'>`. */
export type EnqueueIntentOf<Q extends QueueName, N extends string> = Extract<EnqueueIntent, { queue: Q; name: N }>;
/** Many jobs of one queue and name, in one round trip. */
export type EnqueueManyIntent = { [Q in QueueName]: { [N in keyof QueuePayloads[Q] & string]: EnqueueManyOf<Q, N> }[keyof QueuePayloads[Q] & string] }[QueueName];

export type Intent =
  | EnqueueIntent
  | EnqueueManyIntent
  /** Coalesced analyses (jobs/ai.ts): one waiting analysis per event absorbs the request. */
  | { kind: 'request-analyses'; eventIds: string[] }
  /** A coalesced rebuild of a day's featured picks (jobs/ai.ts). */
  | { kind: 'request-picks-rebuild'; day: string };

export interface DispatchResult {
  intent: Intent;
  /** The ids of the jobs the intent names (also when an existing job was kept). */
  jobIds: string[];
  /** False when `replace-finished` kept an existing job instead of adding one. */
  enqueued: boolean;
}

// Loosely typed views for the dispatcher: the intent's own type already ties name to payload.
type AnyDef = AnyQueueDefinition;
const defOf = (queue: QueueName): AnyDef => DEFINITIONS[queue];

/** The deterministic id (jobs/ builder) of an enqueue intent's job. */
export function jobIdOf(intent: EnqueueIntent): string {
  const job = defOf(intent.queue).jobs[intent.name];
  if (!job) throw new Error(`queue ${intent.queue} has no job named ${intent.name}`);
  return job.jobId(intent.data);
}

const delayOptions = (delay: number | undefined) => (delay === undefined ? {} : { delay });

async function dispatchOne(intent: Intent, log: () => Logger): Promise<DispatchResult> {
  switch (intent.kind) {
    case 'enqueue': {
      const def = defOf(intent.queue);
      const existing = intent.existing ?? 'keep';
      if (existing === 'replace-finished') {
        const jobId = jobIdOf(intent);
        const job = await queueFor(def).getJob(jobId);
        if (job) {
          const state = await job.getState();
          if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return { intent, jobIds: [jobId], enqueued: false };
          // 'settle-event' -> 'could not replace a finished settle job' (the sweep's line).
          const what = intent.name.replace(/-event$/, '');
          await job.remove().catch((err: Error) => log().warn({ jobId, err: err.message }, `could not replace a finished ${what} job`));
        }
      }
      const jobId = await enqueue(def, intent.name, intent.data, delayOptions(intent.delay));
      if (existing === 'retry-failed') {
        const job = await queueFor(def).getJob(jobId);
        if (job && (await job.getState()) === 'failed') await job.retry();
      }
      return { intent, jobIds: [jobId], enqueued: true };
    }
    case 'enqueue-many': {
      const delays = new Map<object, number>(intent.jobs.map((j) => [j.data, j.delay]));
      const payloads: object[] = intent.jobs.map((j) => j.data);
      const jobIds = await enqueueMany(defOf(intent.queue), intent.name, payloads, (p: object) => ({ delay: delays.get(p) }));
      return { intent, jobIds, enqueued: true };
    }
    case 'request-analyses':
      return { intent, jobIds: await requestAnalyses(intent.eventIds), enqueued: true };
    case 'request-picks-rebuild':
      return { intent, jobIds: [await requestPicksRebuild(intent.day)], enqueued: true };
  }
}

export interface DispatchOptions {
  /** Where a failed replacement is logged (the caller's component); default component `intents`. */
  log?: Logger;
  /** All at once (as independent follow-ups are) instead of one after the other, in order. */
  concurrently?: boolean;
}

/** Carries intentions out, in order (or concurrently), returning one result per intention. */
export async function dispatch(intents: readonly Intent[], opts: DispatchOptions = {}): Promise<DispatchResult[]> {
  const log = () => opts.log ?? childLogger({ component: 'intents' });
  if (opts.concurrently) return Promise.all(intents.map((i) => dispatchOne(i, log)));
  const results: DispatchResult[] = [];
  for (const intent of intents) results.push(await dispatchOne(intent, log));
  return results;
}
