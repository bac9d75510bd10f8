import { Counter, Histogram, Registry } from 'prom-client';

/**
 * Every metric a process records, declared once. Each process keeps them in its own registry,
 * labelled with its process name, and publishes the registry to Redis (./publish.ts); the web
 * process's GET /metrics sums the snapshots of every live process (./collect.ts). Only counters
 * and histograms are recorded here: they sum correctly across processes. Point-in-time state
 * (queue depth, staleness, breakers) is read at scrape time instead (./scrape.ts).
 *
 * Label values are bounded by construction: providers, queues and job names come from
 * configuration and the queue definitions, routes from the cost table or the Express route pattern, endpoints
 * from the cost table. No id or raw URL is ever a label.
 */
export const processRegistry = new Registry();
let processName = 'unknown';
processRegistry.setDefaultLabels({ process: processName });

/** The process label of everything this process publishes (`all` under `npm start`). */
export function setMetricsProcess(name: string): void {
  processName = name;
  processRegistry.setDefaultLabels({ process: name });
}

export const metricsProcess = (): string => processName;

const registers = [processRegistry];
const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_JOBS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SECONDS_LAG = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200];

export const pollDuration = new Histogram({
  name: 'odds_poll_duration_seconds',
  help: 'Duration of successful provider polls (fetch, read, plan, write), per provider.',
  labelNames: ['provider'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers,
});

export const polls = new Counter({
  name: 'odds_polls_total',
  help: 'Provider polls by outcome: ok, failed (provider error, breaker open, quota) or skipped (locked, stale slot).',
  labelNames: ['provider', 'status'] as const,
  registers,
});

export const eventsWritten = new Counter({
  name: 'odds_events_written_total',
  help: 'Event documents written by ingestion (upserts that matched or inserted), per provider.',
  labelNames: ['provider'] as const,
  registers,
});

export const marketsWritten = new Counter({
  name: 'odds_markets_written_total',
  help: 'Markets written by ingestion (the markets of events whose markets changed), per provider.',
  labelNames: ['provider'] as const,
  registers,
});

export const jobDuration = new Histogram({
  name: 'odds_job_duration_seconds',
  help: 'Run time of queue jobs (each attempt), per queue and job name.',
  labelNames: ['queue', 'job'] as const,
  buckets: SECONDS_JOBS,
  registers,
});

export const jobsFinished = new Counter({
  name: 'odds_jobs_finished_total',
  help: 'Job attempts finished, per queue, job name and outcome (completed or failed).',
  labelNames: ['queue', 'job', 'outcome'] as const,
  registers,
});

export const analysisLag = new Histogram({
  name: 'odds_analysis_lag_seconds',
  help: 'From the odds change that queued an event analysis to the recommendations written (analyses that wrote).',
  buckets: SECONDS_LAG,
  registers,
});

export const settlementLag = new Histogram({
  name: 'odds_settlement_lag_seconds',
  help: "From an event's end to its first settlement (includes the configured settlement delay).",
  buckets: SECONDS_LAG,
  registers,
});

export const creditsDebited = new Counter({
  name: 'odds_credits_debited_total',
  help: 'Credits charged for served requests (refunded answers excluded), per endpoint.',
  labelNames: ['endpoint'] as const,
  registers,
});

export const httpRequests = new Counter({
  name: 'odds_http_requests_total',
  help: 'HTTP requests answered, per method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'odds_http_request_duration_seconds',
  help: 'HTTP request duration until the response is written, per method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: SECONDS_FAST,
  registers,
});
