import { Queue, type JobsOptions } from 'bullmq';
import type { AnyQueueDefinition, JobNameOf, PayloadsOf } from '../../../jobs/define';
import { getConfig } from '../config';
import { createRedis, tag } from '../db/redis';

const queues = new Map<string, Queue>();

/**
 * The BullMQ prefix of a queue: every queue of this deployment lives under REDIS_PREFIX, each under
 * a hash tag of its own (`<prefix>:bull:{<queue>}`). BullMQ's scripts use many keys of one queue at
 * once, which a Redis Cluster allows only within one slot; a tag per queue (not one for all) puts
 * the queues on different nodes.
 */
export function bullPrefix(queueName: string): string {
  return `${getConfig().REDIS_PREFIX}:bull:${tag(queueName)}`;
}

export function queueFor(def: AnyQueueDefinition): Queue {
  let q = queues.get(def.name);
  if (!q) {
    q = new Queue(def.name, {
      connection: createRedis(`queue-${def.name}`),
      prefix: bullPrefix(def.name),
      defaultJobOptions: def.defaultJobOptions,
    });
    queues.set(def.name, q);
  }
  return q;
}

/**
 * Adds a job under its deterministic id. Adding a job whose id exists is a no-op in BullMQ,
 * which is what makes retries and duplicate triggers safe.
 */
export async function enqueue<Q extends AnyQueueDefinition, N extends JobNameOf<Q>>(def: Q, name: N, payload: PayloadsOf<Q>[N], options: JobsOptions = {}): Promise<string> {
  const jobDef = def.jobs[name];
  if (!jobDef) throw new Error(`queue ${def.name} has no job named ${name}`);
  const jobId = jobDef.jobId(payload);
  await queueFor(def).add(name, payload, { ...jobDef.options, ...options, jobId });
  return jobId;
}

/** Many jobs of one kind in one round trip, each under its deterministic id (duplicates collapse). */
export async function enqueueMany<Q extends AnyQueueDefinition, N extends JobNameOf<Q>>(
  def: Q,
  name: N,
  payloads: PayloadsOf<Q>[N][],
  options: (payload: PayloadsOf<Q>[N]) => JobsOptions = () => ({}),
): Promise<string[]> {
  const jobDef = def.jobs[name];
  if (!jobDef) throw new Error(`queue ${def.name} has no job named ${name}`);
  if (payloads.length === 0) return [];
  const jobs = payloads.map((p) => ({ name, data: p, opts: { ...jobDef.options, ...options(p), jobId: jobDef.jobId(p) } }));
  await queueFor(def).addBulk(jobs);
  return jobs.map((j) => j.opts.jobId);
}

export async function closeQueues(): Promise<void> {
  const all = [...queues.values()];
  queues.clear();
  await Promise.all(all.map((q) => q.close()));
}
