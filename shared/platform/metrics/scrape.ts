import type { Job, Queue } from 'bullmq';
import { Gauge, Registry } from 'prom-client';
import { chargesNotYetInLedger } from '../billing/credits';
import { findProviderStatesForMetrics } from '../db/repositories/providers';

/**
 * State read when /metrics is scraped, by the web process that answers it: queue depth and age
 * (BullMQ's own counts in Redis), odds staleness and breaker state (ProviderState in MongoDB).
 * Reading the shared stores at scrape time gives one true value, where gauges published by each
 * worker would be as many copies of it, each as old as its last publish.
 */

/** The queues to read, given by the caller that owns them (the web process: every queue of the service). */
export type QueueSource = () => readonly Queue[];

export const COUNTED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;
export const AGED_STATES = ['waiting', 'active', 'delayed'] as const;
export type AgedState = (typeof AGED_STATES)[number];

export const BREAKER_VALUE: Record<string, number> = { closed: 0, halfOpen: 1, open: 2 };

/**
 * How long a job has been held in its state beyond the moment it could proceed: waiting since it
 * was enqueued (plus its delay, if any), active since it started, delayed past its due time (0
 * while it is not yet due: a designed delay is not a backlog).
 */
export function jobAgeMs(state: AgedState, job: Pick<Job, 'timestamp' | 'delay' | 'processedOn'>, now: number): number {
  const due = job.timestamp + (job.delay ?? 0);
  const since = state === 'active' ? (job.processedOn ?? job.timestamp) : due;
  return Math.max(0, now - since);
}

/** The job each state holds longest: the tail of the wait and active lists, the first of the delayed set. */
async function oldestJob(queue: Queue, state: AgedState): Promise<Job | undefined> {
  const [job] = await queue.getJobs([state], 0, 0, true);
  return job;
}

async function queueGauges(queues: QueueSource, registry: Registry, now: number): Promise<void> {
  const depth = new Gauge({ name: 'odds_queue_jobs', help: 'Jobs per queue and state, read from BullMQ at scrape time.', labelNames: ['queue', 'state'] as const, registers: [registry] });
  const age = new Gauge({
    name: 'odds_queue_oldest_job_age_seconds',
    help: 'Per queue and state, how long its oldest job has been held: waiting since it could run, active since it started, delayed past its due time.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  await Promise.all(
    queues().map(async (queue) => {
      const counts = await queue.getJobCounts(...COUNTED_STATES);
      for (const state of COUNTED_STATES) depth.set({ queue: queue.name, state }, counts[state] ?? 0);
      for (const state of AGED_STATES) {
        const job = await oldestJob(queue, state);
        age.set({ queue: queue.name, state }, job ? jobAgeMs(state, job, now) / 1000 : 0);
      }
    }),
  );
}

async function providerGauges(registry: Registry, now: number): Promise<void> {
  const staleness = new Gauge({
    name: 'odds_odds_staleness_seconds',
    help: "Seconds since the provider's last successful poll wrote its odds: the age of the newest odds served from it.",
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const stale = new Gauge({
    name: 'odds_provider_stale',
    help: "1 when the provider's last poll failed (its last snapshots are served marked stale), else 0.",
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const breaker = new Gauge({
    name: 'odds_provider_breaker_state',
    help: "The provider's circuit breaker as last recorded: 0 closed, 1 half-open, 2 open.",
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const states = await findProviderStatesForMetrics();
  for (const p of states) {
    const provider = String(p._id);
    if (p.lastSuccessAt) staleness.set({ provider }, Math.max(0, now - p.lastSuccessAt.getTime()) / 1000);
    stale.set({ provider }, p.stale ? 1 : 0);
    breaker.set({ provider }, BREAKER_VALUE[p.breaker ?? 'closed'] ?? 0);
  }
}

async function ledgerGauges(registry: Registry): Promise<void> {
  const backlog = new Gauge({
    name: 'odds_ledger_charges_pending',
    help: 'Charges of served requests in the Redis stream, not yet written to the MongoDB ledger (what a Redis loss would leave uncharged).',
    registers: [registry],
  });
  backlog.set(await chargesNotYetInLedger());
}

/**
 * A registry of this scrape's state. A store that does not answer leaves its gauges out and is
 * named in `odds_metrics_source_up`, so one down store never blanks the whole answer.
 */
export async function scrapeState(queues: QueueSource, now = Date.now()): Promise<Registry> {
  const status = new Registry();
  const up = new Gauge({ name: 'odds_metrics_source_up', help: 'Whether the store behind the scrape-time metrics answered (1) or not (0).', labelNames: ['source'] as const, registers: [status] });
  const parts: [string, (r: Registry, now: number) => Promise<void>][] = [
    ['queues', (r, t) => queueGauges(queues, r, t)],
    ['providers', providerGauges],
    ['ledger', ledgerGauges],
  ];
  const filled = await Promise.all(
    parts.map(async ([source, fill]) => {
      const part = new Registry();
      try {
        await withTimeout(fill(part, now));
        up.set({ source }, 1);
        return part;
      } catch {
        up.set({ source }, 0);
        return undefined;
      }
    }),
  );
  return Registry.merge([...filled.filter((r): r is Registry => r !== undefined), status]);
}

function withTimeout<T>(p: Promise<T>, ms = 3000): Promise<T> {
  return Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms).unref())]);
}
