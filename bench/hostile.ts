/**
 * `npm run bench:hostile`: latency of the fuzz test's mix of random and hostile requests (raw
 * bytes, oversize lines and headers, bad parameters, unknown paths and keys, other methods) plus
 * plain reads, against the API in its own process on the local store, metered with a funded live
 * key. Prints p50/p99/max per kind of request and per status, served reads and refusals apart, and
 * the slowest requests, for each connection count.
 * - `--stack seeded` (default): 300 seeded events, nothing else running (the API alone);
 * - `--stack demo`: a fresh stack as the suite and a demo run have it: ingest, ai, settlement and
 *   scheduler at SIM_SPEED=120, POLL_INTERVAL_MS=2000, the mix sent once the first poll landed,
 *   while polls invalidate the cached pages and analyses run.
 * Usage: npm run bench:hostile [-- --requests 5000 --connections 16,64 --stack seeded|demo --seed 7]
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { fork, type ChildProcess } from 'node:child_process';
import { processContext } from '../shared/app/processContext';
import { resolve } from 'node:path';
import mongoose from 'mongoose';
import { startLocalServices } from '../scripts/services';
import { addCredits, createAccount, createKey } from '../shared/app/billing/accounts';
import { COST_TABLE, priceOf } from '../shared/domain/billing/costs';
import { bootstrapEnv, setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis, key, redis } from '../shared/platform/db/redis';
import { COMPETITIONS, insertEvents, seedReference, type EventFixture } from '../test/helpers/fixtures';
import { hostileRequests, type HostileRequest } from '../test/helpers/hostileRequests';
import { rawRequest } from '../test/helpers/rawHttp';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail, integer, option } from './args';
import { startWorker, stopWorkers, type Worker } from './pipeline/children';

const REQUESTS = integer('bench:hostile', 'requests', 5000);
const CONNECTION_COUNTS = option('bench:hostile', 'connections', '16')
  .split(',')
  .map((c) => Number(c));
if (!CONNECTION_COUNTS.every((c) => Number.isInteger(c) && c >= 1 && c <= 1024)) fail('bench:hostile', '--connections must be integers 1..1024, comma-separated (e.g. 16,64)');
const STACK = option('bench:hostile', 'stack', 'seeded');
if (STACK !== 'seeded' && STACK !== 'demo') fail('bench:hostile', `--stack must be seeded or demo (got "${STACK}")`);
const SEED = integer('bench:hostile', 'seed', 20261125);

interface Timed {
  request: HostileRequest;
  status: number;
  ms: number;
}

function startApi(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(resolve(__dirname, 'servers/apiServer.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...bootstrapEnv().all, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((res, rej) => {
    child.once('message', (m: { port: number }) => res({ child, port: m.port }));
    child.once('exit', (code) => rej(new Error(`api server exited with ${code}`)));
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function table(title: string, groups: Map<string, number[]>): string[] {
  const lines = [title, `${''.padEnd(46)} ${'count'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`];
  for (const [name, xs] of [...groups].sort()) {
    const s = [...xs].sort((a, b) => a - b);
    lines.push(`${name.padEnd(46)} ${String(s.length).padStart(6)} ${pct(s, 50).toFixed(1).padStart(8)} ${pct(s, 99).toFixed(1).padStart(8)} ${s[s.length - 1].toFixed(1).padStart(8)}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const services = await startLocalServices();
  const env = {
    ...services.env,
    MONGODB_DB: `odds_bench_hostile_${process.pid}`,
    REDIS_PREFIX: `bench-hostile-${process.pid}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PAYMENT_GATEWAY: 'none',
    // The handlers are measured, not the limiter.
    RATE_LIMIT_LIVE_RPS: '1000000',
    RATE_LIMIT_TEST_RPS: '1000000',
    // The test key's path is measured as it was: no daily cap, no snapshots.
    TEST_KEY_DAILY_REQUESTS: '100000000',
    TEST_KEY_SNAPSHOT_S: '0',
  };
  setEnvForChildren(env);
  let api: { child: ChildProcess; port: number } | undefined;
  let workers: Worker[] = [];
  try {
    await connectMongo();
    let eventIds: string[] = [];
    if (STACK === 'seeded') {
      await seedReference();
      const start = Date.now();
      eventIds = Array.from({ length: 300 }, (_, i) => String(6_100_000 + i));
      await insertEvents(
        ...eventIds.map((id, i): EventFixture => ({
          id,
          competition: COMPETITIONS.premierLeague,
          start: new Date(start + (i - 100) * 600_000),
          status: i < 80 ? 'completed' : i < 100 ? 'live' : 'upcoming',
        })),
      );
    }
    const account = await createAccount(processContext(), { name: 'bench hostile' });
    await addCredits(processContext(), { accountId: String(account.id), packageCredits: 2_000_000 });
    const live = (await createKey(processContext(), { accountId: String(account.id), name: 'bench' })).key;
    const test = (await createKey(processContext(), { accountId: String(account.id), name: 'bench test', mode: 'test' })).key;
    api = await startApi(env);
    const url = `http://127.0.0.1:${api.port}`;
    if (STACK === 'demo') {
      const demoEnv = { ...bootstrapEnv().all, ...env, PROVIDERS: 'simulated', SIM_SPEED: '120', POLL_INTERVAL_MS: '2000', SETTLEMENT_DELAY_MS: '3000', LOG_LEVEL: 'info' };
      const logDir = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
      let polled = false;
      workers = (['ingest', 'ai', 'settlement', 'scheduler'] as const).map((name) => startWorker(name, demoEnv, logDir, (rec) => void (rec.msg === 'provider polled' && (polled = true))));
      const until = Date.now() + 120_000;
      while (!polled && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      if (!polled) throw new Error(`no poll within 2 minutes (logs in ${logDir})`);
      const listed = (await (await fetch(`${url}/v2/matches?limit=40&status=upcoming,live`, { headers: { Authorization: `Bearer ${live}` } })).json()) as { data: { id: string }[] };
      eventIds = listed.data.map((e) => e.id);
      process.stderr.write(`demo stack up: first poll landed, ${eventIds.length} events named in the mix (logs in ${logDir})\n`);
    }
    const requests = hostileRequests(SEED, REQUESTS, { live, test, eventIds: eventIds.slice(0, 40) });

    // At rest first: each endpoint alone, so the mix's figures can be read against them.
    // A stream (priced per minute) answers with a body that never ends: not timed here.
    const calm = new Map<string, number[]>();
    for (const row of COST_TABLE.filter((r) => !('per' in r))) {
      const path = row.path.replace(/\{[A-Za-z]+\}/g, eventIds[150 % eventIds.length]);
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await (await fetch(url + path, { headers: { Authorization: `Bearer ${live}` }, signal: AbortSignal.timeout(30_000) })).arrayBuffer();
        (calm.get(row.path) ?? calm.set(row.path, []).get(row.path)!).push(performance.now() - t);
      }
    }
    process.stdout.write(`${table('each endpoint alone, 5 sequential requests (live key)', calm).join('\n')}\n`);

    for (const CONNECTIONS of CONNECTION_COUNTS) {
      process.stderr.write(`${REQUESTS} requests, ${CONNECTIONS} at a time, stack ${STACK}, store: ${services.mongoKind}\n`);
      const timed: Timed[] = [];
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (next < requests.length) {
            const request = requests[next++];
            const t = performance.now();
            const answer = await rawRequest(url, request.bytes, 30000);
            timed.push({ request, status: answer.status, ms: performance.now() - t });
          }
        }),
      );
      const wall = (performance.now() - t0) / 1000;
      const server = await new Promise<Record<string, number>>((res) => {
        api!.child.once('message', (m: { stats: Record<string, number> }) => res(m.stats));
        api!.child.send({ cmd: 'stats' });
      });

      const byKind = new Map<string, number[]>();
      // A served read is a 2xx/3xx answer; a refusal any 4xx (the hostile part of the mix); 5xx and timeouts apart.
      const byOutcome = new Map<string, number[]>();
      for (const t of timed) {
        const o = t.status >= 200 && t.status < 400 ? 'served reads' : t.status >= 400 && t.status < 500 ? 'refusals (4xx)' : t.status >= 500 ? 'server errors (5xx)' : 'no answer';
        (byOutcome.get(o) ?? byOutcome.set(o, []).get(o)!).push(t.ms);
      }
      // Served reads by the route that served them (its cost table row): where the tail comes from.
      const byRoute = new Map<string, number[]>();
      for (const t of timed) {
        if (t.status < 200 || t.status >= 400) continue;
        const target = t.request.bytes.toString('latin1').split(' ')[1] ?? '';
        const route = priceOf(t.request.method, target.split('?')[0])?.path ?? '(unpriced)';
        (byRoute.get(route) ?? byRoute.set(route, []).get(route)!).push(t.ms);
      }
      const byStatus = new Map<string, number[]>();
      const byKey = new Map<string, number[]>();
      for (const t of timed) {
        const head = t.request.bytes.toString('latin1');
        const who = head.includes(live) ? `live key, ${t.status < 400 ? 'served' : 'refused'}` : head.includes(test) ? 'test key' : 'no or bad key';
        (byKey.get(who) ?? byKey.set(who, []).get(who)!).push(t.ms);
        (byKind.get(t.request.kind) ?? byKind.set(t.request.kind, []).get(t.request.kind)!).push(t.ms);
        const s = String(t.status);
        (byStatus.get(s) ?? byStatus.set(s, []).get(s)!).push(t.ms);
      }
      byKind.set(
        '(all)',
        timed.map((t) => t.ms),
      );
      const slowest = [...timed].sort((a, b) => b.ms - a.ms).slice(0, 8);
      const out = [
        '',
        `${timed.length} requests in ${wall.toFixed(1)} s (${(timed.length / wall).toFixed(0)} req/s), ${CONNECTIONS} connections, seed ${SEED}`,
        `API process event-loop delay: p99 ${server.loopP99Ms} ms, max ${server.loopMaxMs} ms`,
        ...table('served reads and refusals', byOutcome),
        '',
        ...table('by kind of request', byKind),
        '',
        ...table('served reads by route', byRoute),
        '',
        ...table('by status', byStatus),
        '',
        ...table('by key', byKey),
        '',
        'slowest:',
        ...slowest.map((t) => `  ${t.ms.toFixed(0).padStart(6)} ms  ${t.status}  [${t.request.kind}] ${t.request.bytes.subarray(0, 110).toString('latin1').split('\r\n')[0]}`),
      ];
      process.stdout.write(`${out.join('\n')}\n`);
    }
  } finally {
    await stopWorkers(workers);
    api?.child.kill();
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    const keys = await redis().keys(key('*'));
    if (keys.length) await redis().del(...keys);
    await disconnectMongo();
    await closeAllRedis();
    await services.stop();
  }
}

main().catch((err) => failEntry('bench:hostile failed', err));
