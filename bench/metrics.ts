/**
 * `npm run bench:metrics`: what the metrics cost. (1) Recording: one HTTP request's metrics
 * (counter + histogram, as the middleware does) in a tight loop. (2) Publishing: the size of a
 * busy process's snapshot and the time to serialize and write it. (3) Scraping: GET /metrics
 * latency with --processes snapshots published (each as busy as (2)), summed by the web process
 * plus the scrape-time gauges read from Redis and MongoDB.
 * Usage: npm run bench:metrics [-- --processes 10 --scrapes 50]
 */
import { hostname } from 'node:os';
import { createApp } from '../api/app';
import { COST_TABLE } from '../shared/domain/billing/costs';
import { setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis, key } from '../shared/platform/db/redis';
import { closeQueues } from '../shared/platform/queues/client';
import { publishSnapshot } from '../shared/platform/metrics/publish';
import { httpDuration, httpRequests, jobDuration, jobsFinished, processRegistry } from '../shared/platform/metrics/registry';
import { startLocalServices } from '../scripts/services';
import { integer } from './args';
import { dropRunData } from './run';

const PROCESSES = integer('bench:metrics', 'processes', 10);
const SCRAPES = integer('bench:metrics', 'scrapes', 50);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Every route of the cost table at three statuses, and ten queue/job pairs: a busy process. */
function fillBusy(): void {
  for (const r of COST_TABLE)
    for (const status of ['200', '404', '401']) {
      httpRequests.inc({ method: 'GET', route: r.path, status });
      httpDuration.observe({ method: 'GET', route: r.path }, 0.01);
    }
  for (const [queue, job] of [
    ['ingest', 'poll'],
    ['ai', 'analyze-event'],
    ['ai', 'refit'],
    ['settlement', 'settle-event'],
    ['settlement', 'sweep'],
    ['settlement', 'rollup'],
    ['recharge', 'charge'],
    ['recharge', 'sweep'],
    ['x', 'a'],
    ['x', 'b'],
  ]) {
    jobDuration.observe({ queue, job }, 0.2);
    jobsFinished.inc({ queue, job, outcome: 'completed' });
  }
}

async function main(): Promise<void> {
  const services = await startLocalServices();
  setEnvForChildren({
    MONGODB_URI: services.mongodbUri,
    REDIS_URL: services.redisUrl,
    MONGODB_DB: `odds_bench_metrics_${process.pid}`,
    REDIS_PREFIX: `bench-metrics-${process.pid}`,
    LOG_LEVEL: 'warn',
    ADMIN_USER: 'bench',
    ADMIN_PASSWORD: 'bench-pass',
  });
  const server = createApp().listen(0, '127.0.0.1');
  try {
    await connectMongo();
    const N = 200_000;
    let t = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      httpRequests.inc({ method: 'GET', route: '/v2/matches', status: '200' });
      httpDuration.observe({ method: 'GET', route: '/v2/matches' }, 0.003);
    }
    const recordNs = Number(process.hrtime.bigint() - t) / N;

    fillBusy();
    const body = JSON.stringify(await processRegistry.getMetricsAsJSON());
    const publishMs: number[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      t = process.hrtime.bigint();
      await publishSnapshot(key('metrics', 'bench', `${hostname()}-${i}`), `bench-${i % 3}`, 600_000);
      publishMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }

    await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())));
    const { port } = server.address() as { port: number };
    const auth = { Authorization: `Basic ${Buffer.from('bench:bench-pass').toString('base64')}` };
    const scrapeMs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < SCRAPES; i++) {
      t = process.hrtime.bigint();
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: auth });
      bytes = (await res.text()).length;
      scrapeMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    process.stdout.write(
      [
        '',
        `record one request's metrics (counter + histogram): ${recordNs.toFixed(0)} ns`,
        `snapshot of a busy process: ${body.length.toLocaleString('en')} bytes JSON; publish p50 ${pct(publishMs, 50).toFixed(1)} ms`,
        `GET /metrics with ${PROCESSES} published processes + this one: p50 ${pct(scrapeMs, 50).toFixed(0)} ms, p99 ${pct(scrapeMs, 99).toFixed(0)} ms over ${SCRAPES} scrapes, ${bytes.toLocaleString('en')} bytes`,
        '',
      ].join('\n'),
    );
  } finally {
    server.close();
    await dropRunData();
    await closeQueues();
    await disconnectMongo();
    await closeAllRedis();
    await services.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench:metrics failed: ${(err as Error).message}\n`);
  process.exit(1);
});
