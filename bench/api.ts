/**
 * `npm run bench:api`: throughput and latency of GET /v2/matches?limit=100 (the API's full
 * per-request work: request log, validation, cache lookup with the Redis version check, send)
 * against a bare Express route returning a body of the same size, both at 100 connections, each
 * server in its own process; then the same pair for clients sending Accept-Encoding: gzip (the
 * bare route returns the same compressed bytes). Also reports the cache counters of the API runs
 * and the latency of a cache miss (the page rendered from the listing's bodies). The ledger consumer runs
 * beside the load, as the settlement process does; its backlog and the ledger check are printed.
 * The machine may be shared: runs of the API and of the baseline alternate (--rounds), and the
 * figures are the mean throughput and the median p50/p99 over the rounds.
 * Usage: npm run bench:api [-- --events 3000 --duration 5 --rounds 3 --connections 100 --profile <dir>]
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { fork, type ChildProcess } from 'node:child_process';
import { processContext } from '../shared/app/processContext';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startLocalServices } from '../scripts/services';
import { addCredits, createAccount, createKey } from '../shared/app/billing/accounts';
import { chargesNotYetInLedger } from '../shared/platform/billing/credits';
import { checkLedger } from '../shared/app/billing/ledgerCheck';
import { startLedgerConsumer } from '../shared/platform/billing/ledgerConsumer';
import { bootstrapEnv, setEnvForChildren } from '../shared/platform/config';
import { bumpCacheVersion } from '../shared/platform/cache/versions';
import { publishEventWrites } from '../shared/platform/listing/store';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { clearReadData, COMPETITIONS, insertEvents, seedReference, type EventFixture } from '../test/helpers/fixtures';
import { integer, option } from './args';
import { dropRunData } from './run';

const EVENTS = integer('bench:api', 'events', 3000);
const DURATION = integer('bench:api', 'duration', 5);
const ROUNDS = integer('bench:api', 'rounds', 3);
const CONNECTIONS = integer('bench:api', 'connections', 100);
const PATH = '/v2/matches?limit=100';
/** --profile <dir>: the API server writes a V8 CPU profile there (where its time goes). */
const PROFILE_DIR = option('bench:api', 'profile', '');

function start(file: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const profile = PROFILE_DIR && file.includes('apiServer') ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : [];
  const child = fork(resolve(__dirname, file), args, { execArgv: ['--import', 'tsx', ...profile], env: { ...bootstrapEnv().all, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((res, rej) => {
    child.once('message', (m: { port: number }) => res({ child, port: m.port }));
    child.once('exit', (code) => rej(new Error(`${file} exited with ${code}`)));
  });
}

/** The raw gzip bytes the API sends a client that accepts gzip. */
function rawGzip(url: string, auth: Record<string, string>): Promise<Buffer> {
  return new Promise((res, rej) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip', ...auth } }, (r) => {
      if (r.headers['content-encoding'] !== 'gzip') return rej(new Error('the API did not answer gzip'));
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res(Buffer.concat(chunks)));
    }).on('error', rej);
  });
}

const ask = (child: ChildProcess) =>
  new Promise<Record<string, number>>((res) => {
    child.once('message', (m: { stats: Record<string, number> }) => res(m.stats));
    child.send({ cmd: 'stats' });
  });

interface Run {
  rps: number;
  p50: number;
  p99: number;
  mbps: number;
  /** The server process's CPU time per request answered (user + system), in microseconds. */
  cpuUs: number;
}

async function once(target: Target, headers: Record<string, string>, duration: number): Promise<Run> {
  const cpuBefore = (await ask(target.child)).cpuUs;
  const r = await autocannon({ url: target.url, headers, connections: CONNECTIONS, duration });
  const cpu = (await ask(target.child)).cpuUs - cpuBefore;
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${target.url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1e6, cpuUs: cpu / Math.max(1, r.requests.total) };
}

interface Target {
  url: string;
  child: ChildProcess;
  before?: () => Promise<void>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Alternating rounds of two targets after a warm-up of each (JIT, connections, cache). */
async function compare(a: Target, b: Target, headers: Record<string, string> = {}): Promise<[Run, Run]> {
  await a.before?.();
  await once(a, headers, 2);
  await once(b, headers, 2);
  const runs: [Run[], Run[]] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    await a.before?.();
    runs[0].push(await once(a, headers, DURATION));
    runs[1].push(await once(b, headers, DURATION));
  }
  const summary = (rs: Run[]): Run => ({
    rps: rs.reduce((t, r) => t + r.rps, 0) / rs.length,
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    mbps: rs.reduce((t, r) => t + r.mbps, 0) / rs.length,
    cpuUs: median(rs.map((r) => r.cpuUs)),
  });
  return [summary(runs[0]), summary(runs[1])];
}

async function seed(): Promise<void> {
  await clearReadData();
  await seedReference();
  const comps = Object.values(COMPETITIONS);
  const now = Date.now();
  for (let i = 0; i < EVENTS; i += 250) {
    const batch = Array.from({ length: Math.min(250, EVENTS - i) }, (_, j): EventFixture => {
      const n = i + j;
      const live = n % 10 === 0;
      return {
        id: String(1_000_000 + n),
        competition: comps[n % comps.length],
        start: new Date(now + (live ? -3600_000 : n * 5 * 60_000)),
        status: live ? 'live' : 'upcoming',
        views: (n * 7919) % 500,
      };
    });
    await insertEvents(...batch);
  }
  await bumpCacheVersion('events', 'competitions');
}

const row = (name: string, r: Run) =>
  `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(6)} ${String(r.p99).padStart(6)} ${r.mbps.toFixed(1).padStart(8)} ${r.cpuUs.toFixed(0).padStart(8)}`;

async function main(): Promise<void> {
  const services = await startLocalServices();
  const env = {
    ...services.env,
    MONGODB_DB: 'odds_bench',
    REDIS_PREFIX: `bench-${process.pid}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PAYMENT_GATEWAY: 'none',
    // Throughput, not the limiter, is measured: the paying client's key is not rate-limited.
    RATE_LIMIT_LIVE_RPS: '1000000',
  };
  setEnvForChildren(env);
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const children: ChildProcess[] = [];
  try {
    await connectMongo();
    process.stderr.write(`seeding ${EVENTS} events...\n`);
    await seed();
    // The API is called as a paying client: every request is metered (key check, debit on the
    // account's ledger, credit headers), which is the work the service really does per request.
    const account = await createAccount(processContext(), { name: 'bench client' });
    for (let i = 0; i < 5; i++) await addCredits(processContext(), { accountId: String(account.id), packageCredits: 2000000 });
    const auth = { Authorization: `Bearer ${(await createKey(processContext(), { accountId: String(account.id), name: 'bench' })).key}` };

    // The ledger consumer runs as it does in the service (the settlement process), on this machine.
    const consumer = startLedgerConsumer();
    const api = await start('servers/apiServer.ts', [], env);
    children.push(api.child);
    const apiUrl = `http://127.0.0.1:${api.port}${PATH}`;
    const first = await fetch(apiUrl, { headers: auth });
    if (first.status !== 200) throw new Error(`the API answered ${first.status}`);
    const body = Buffer.from(await first.arrayBuffer());
    const gzipped = await rawGzip(apiUrl, auth);
    writeFileSync(join(dir, 'body.json'), body);
    writeFileSync(join(dir, 'body.json.gz'), gzipped);
    const bare = await start('servers/bareServer.ts', [join(dir, 'body.json'), join(dir, 'body.json.gz')], env);
    children.push(bare.child);
    const gz = { 'Accept-Encoding': 'gzip', ...auth };

    process.stderr.write(`load: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s after a 2 s warm-up\n`);
    // Each API round starts on a freshly rendered page so no entry reaches CACHE_TTL_S (30 s)
    // during it: the rounds measure the hit path; a miss is measured on its own below.
    const fresh = async () => {
      await bumpCacheVersion('events');
      await (await fetch(apiUrl, { headers: auth })).arrayBuffer();
    };
    const before = await ask(api.child);
    const [apiRun, bareRun] = await compare({ url: apiUrl, child: api.child, before: fresh }, { url: `http://127.0.0.1:${bare.port}/bare`, child: bare.child }, auth);
    const [apiGzRun, bareGzRun] = await compare({ url: apiUrl, child: api.child, before: fresh }, { url: `http://127.0.0.1:${bare.port}/bare-gzip`, child: bare.child }, gz);
    const after = await ask(api.child);

    // A miss renders the page from the listing and its bodies: measured on a server with the page
    // cache off. Cold: a fresh process (the listing read at its start, as the web process does,
    // and the page's bodies read). Then after a write of 20 and of all 100 of the page's events
    // (what a poll that repriced them leaves: their bodies read again from Redis). Apart, not a
    // miss a poll leaves: after a rebuild of the listing every body is read from the store.
    const uncached = await start('servers/apiServer.ts', [], { ...env, CACHE_TTL_S: '0' });
    children.push(uncached.child);
    const timed = async () => {
      const t = performance.now();
      const r = await fetch(`http://127.0.0.1:${uncached.port}${PATH}`, { headers: auth });
      const page = (await r.json()) as { data: { id: string }[] };
      return { ms: performance.now() - t, ids: page.data.map((e) => e.id) };
    };
    const cold = await timed();
    const missMs: Record<string, number[]> = { 'cold process': [cold.ms], '20 of 100 changed': [], '100 of 100 changed': [] };
    for (const [label, n] of [
      ['20 of 100 changed', 20],
      ['100 of 100 changed', 100],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        await publishEventWrites({ events: [], prices: [], liveData: cold.ids.slice(0, n).map((id) => ({ id, set: {} })) });
        missMs[label].push((await timed()).ms);
      }
    }
    await bumpCacheVersion('events');
    const afterRebuild = await timed();
    const backlogAtEnd = await chargesNotYetInLedger();
    const drainStart = performance.now();
    await consumer.drained(300000);
    const drainMs = performance.now() - drainStart;
    await consumer.stop();
    const ledger = await checkLedger(processContext());

    // Each fresh() renders one page: those misses happen outside the measured rounds.
    const forced = 2 * (ROUNDS + 1);
    const during = (k: string) => after[k] - before[k];
    const hits = during('memoryHits') + during('redisHits');
    const misses = during('misses') - forced;
    const out = [
      '',
      `GET ${PATH}: ${body.length.toLocaleString('en')} bytes (${gzipped.length.toLocaleString('en')} gzipped), ${EVENTS} events stored, ${CONNECTIONS} connections, mean of ${ROUNDS} rounds`,
      `${'server'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(6)} ${'p99 ms'.padStart(6)} ${'MB/s'.padStart(8)} ${'CPU µs'.padStart(8)}`,
      row('API, cached, metered (live key)', apiRun),
      row('bare Express, same body', bareRun),
      row('API, cached, metered, gzip', apiGzRun),
      row('bare Express, same gzip body', bareGzRun),
      '',
      `ratio API / bare: ${(apiRun.rps / bareRun.rps).toFixed(2)} (identity), ${(apiGzRun.rps / bareGzRun.rps).toFixed(2)} (gzip); CPU µs: the server process's CPU time (all its threads) per request answered`,
      `cache during the API load (warm-ups included): ${hits} hits (${during('memoryHits')} memory, ${during('redisHits')} redis), ${misses} misses, hit rate ${((100 * hits) / Math.max(1, hits + misses)).toFixed(2)} %, ${during('hot')} of them answered on the hot path (${during('fromBlocks')} by the front door from ${during('blocksTaken')} credit blocks, charged in ${during('blockSteps')} steps); API RSS ${after.rssMb} MB`,
      `cache miss (page rendered, page cache off): ${Object.entries(missMs)
        .map(([label, ms]) => `${label} ${ms.map((m) => m.toFixed(0)).join(', ')} ms`)
        .join('; ')}; after a rebuild of the listing (its rebuild and every body read from the store) ${afterRebuild.ms.toFixed(0)} ms`,
      `ledger: ${backlogAtEnd} charges not yet written when the load stopped, written in ${drainMs.toFixed(0)} ms; ledger check ${ledger.problems.length === 0 ? 'OK' : JSON.stringify(ledger.problems)} (${ledger.entries} entries)`,
      '',
    ];
    process.stdout.write(out.join('\n'));
  } finally {
    for (const c of children) c.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    await dropRunData();
    await disconnectMongo();
    await closeAllRedis();
    await services.stop();
  }
}

main().catch((err) => failEntry('bench:api failed', err));
