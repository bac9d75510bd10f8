import type { Worker } from 'bullmq';
import { getConfig, getConfigOrExit } from '../shared/platform/config';
import { closeQueues } from '../shared/platform/queues/client';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { startWorldClock } from '../shared/platform/clock/worldClock';
import { childLogger, logger } from '../shared/platform/logger';
import { startMetricsPublisher } from '../shared/platform/metrics/publish';

/** A running part of a process (an HTTP server, a queue worker, the clock). */
export interface Service {
  readonly name: string;
  stop(): Promise<void>;
}

export type Starter = () => Promise<Service>;

const sleep = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());

/**
 * Stops taking jobs and lets active ones finish within the shutdown timeout. Past it, the process
 * stops waiting: BullMQ's close(true) would return the close already under way, which still waits
 * for the job. The unfinished job keeps its lock until it expires; then another worker's
 * stalled-job check puts it back to wait. A job is retried, never lost.
 */
export async function stopWorker(worker: Worker, timeoutMs = getConfig().SHUTDOWN_TIMEOUT_MS): Promise<void> {
  const outcome = await Promise.race([worker.close().then(() => 'closed' as const), sleep(timeoutMs)]);
  if (outcome === 'timeout') {
    childLogger({ queue: worker.name }).warn({ timeoutMs }, 'active jobs did not finish in time; released for retry');
  }
}

export function workerService(worker: Worker): Service {
  void worker.run().catch((err: unknown) => childLogger({ queue: worker.name }).error({ err: (err as Error).message }, 'worker stopped'));
  return { name: `worker:${worker.name}`, stop: () => stopWorker(worker) };
}

/** Starts the given parts in this process and stops them in reverse order on SIGTERM/SIGINT. */
export async function runServices(processName: string, starters: Starter[]): Promise<{ services: Service[]; stopAll: () => Promise<void> }> {
  const log = childLogger({ process: processName });
  await connectMongo();
  // First so they stop last: metrics stay published until the other parts stopped, and every
  // part reads the one simulated clock before it serves, polls or analyses anything.
  const services: Service[] = [await startMetricsPublisher(processName), await startWorldClock()];
  for (const start of starters) services.push(await start());
  log.info({ services: services.map((s) => s.name) }, 'started');

  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      log.info('stopping');
      for (const s of [...services].reverse()) {
        await s.stop().catch((err: unknown) => log.error({ service: s.name, err: (err as Error).message }, 'stop failed'));
      }
      await closeQueues();
      await closeAllRedis();
      await disconnectMongo();
      log.info('stopped');
    })());
  return { services, stopAll };
}

/** Entry point of a Procfile process: config first (fail fast), then services, then signals. */
export function main(processName: string, starters: Starter[]): void {
  const cfg = getConfigOrExit();
  runServices(processName, starters)
    .then(({ stopAll }) => {
      const onSignal = (signal: string) => {
        logger().info({ signal }, 'signal received');
        // A stuck stop must not keep the process alive past its deadline.
        setTimeout(() => process.exit(1), cfg.SHUTDOWN_TIMEOUT_MS + 5000).unref();
        void stopAll().then(() => process.exit(0));
      };
      // `on`, not `once` (stopAll runs once): under `npm start` a SIGTERM to the process group
      // reaches this process, then again from scripts/start.ts stopping its children; a second
      // one without a listener would kill it mid-stop (active jobs neither finished nor released).
      process.on('SIGTERM', () => onSignal('SIGTERM'));
      process.on('SIGINT', () => onSignal('SIGINT'));
      // Started by `npm start` (an IPC channel to it): a parent that died, even by SIGKILL, stops it too.
      if (process.connected) process.once('disconnect', () => onSignal('parent exited'));
    })
    .catch((err: unknown) => {
      logger().fatal({ err: (err as Error).message }, `${processName} failed to start`);
      process.exit(1);
    });
}
