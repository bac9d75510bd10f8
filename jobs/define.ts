import type { DefaultJobOptions, JobsOptions } from 'bullmq';

/**
 * One queue's contract: its name, default options, and for each job name the job-id builder
 * that makes duplicates collapse (a job id is derived from the job's subject, never random).
 * `Payloads` maps each job name to its payload type.
 */
export interface QueueDefinition<Payloads extends { [K in keyof Payloads]: object }> {
  readonly name: string;
  readonly defaultJobOptions: DefaultJobOptions;
  readonly jobs: { readonly [K in keyof Payloads & string]: JobDefinition<Payloads[K]> };
}

export interface JobDefinition<P> {
  /** Deterministic id from the payload: a retry, a duplicate enqueue or two producers collapse. */
  readonly jobId: (payload: P) => string;
  readonly options?: JobsOptions;
}

/** Any queue's definition, whatever its payloads: the constraint of functions over every queue (their own Q keeps its payload types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an existential constraint: QueueDefinition<object> cannot index its jobs by a Q's job name
export type AnyQueueDefinition = QueueDefinition<any>;

export type PayloadsOf<Q> = Q extends QueueDefinition<infer P> ? P : never;
export type JobNameOf<Q> = keyof PayloadsOf<Q> & string;

/** BullMQ refuses ':' in custom ids and all-digit ids; fail here, with the queue's name. */
export function safeJobId(queue: string, parts: (string | number)[]): string {
  const id = [queue, ...parts].join('-');
  if (id.includes(':')) throw new Error(`job id for ${queue} must not contain ':' (${id})`);
  return id;
}

export function defineQueue<Payloads extends { [K in keyof Payloads]: object }>(def: QueueDefinition<Payloads>): QueueDefinition<Payloads> {
  return def;
}
