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
const SECONDS_POLL = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SECONDS_JOBS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SECONDS_LAG = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200];

/** Metrics of this process's registry; the label names type their `inc` and `observe` calls. */
const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers });
const histogram = <L extends string = never>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) => new Histogram<L>({ name, help, buckets, labelNames, registers });

export const pollDuration = histogram('odds_poll_duration_seconds', 'Duration of successful provider polls (fetch, read, plan, write), per provider.', SECONDS_POLL, ['provider']);

export const polls = counter('odds_polls_total', 'Provider polls by outcome: ok, failed (provider error, breaker open, quota) or skipped (locked, stale slot).', ['provider', 'status']);

export const eventsWritten = counter('odds_events_written_total', 'Event documents written by ingestion (upserts that matched or inserted), per provider.', ['provider']);

export const marketsWritten = counter('odds_markets_written_total', 'Markets written by ingestion (the markets of events whose markets changed), per provider.', ['provider']);

export const jobDuration = histogram('odds_job_duration_seconds', 'Run time of queue jobs (each attempt), per queue and job name.', SECONDS_JOBS, ['queue', 'job']);

export const jobsFinished = counter('odds_jobs_finished_total', 'Job attempts finished, per queue, job name and outcome (completed or failed).', ['queue', 'job', 'outcome']);

export const analysisLag = histogram('odds_analysis_lag_seconds', 'From the odds change that queued an event analysis to the recommendations written (analyses that wrote).', SECONDS_LAG);

export const settlementLag = histogram('odds_settlement_lag_seconds', "From an event's end to its first settlement (includes the configured settlement delay).", SECONDS_LAG);

export const creditsDebited = counter('odds_credits_debited_total', 'Credits charged for served requests (refunded answers excluded) as the ledger consumer writes them, per endpoint.', ['endpoint']);

export const creditsUncharged = counter('odds_credits_uncharged_total', 'Credits of served requests the ledger could not charge (admitted on a balance seeded after a Redis loss), per endpoint.', [
  'endpoint',
]);

export const httpRequests = counter('odds_http_requests_total', 'HTTP requests answered, per method, route pattern and status.', ['method', 'route', 'status']);

export const httpDuration = histogram('odds_http_request_duration_seconds', 'HTTP request duration until the response is written, per method and route pattern.', SECONDS_FAST, ['method', 'route']);
