/**
 * `npm run bench:pipeline [-- --events N --live N --speed 120 --minutes 5 --store sqlite|postgresql|embedded|<MONGODB_URI>]`:
 * the whole pipeline as deployed. Starts (or finds) the local services, then web, ingest, ai,
 * settlement and scheduler as separate processes on a database and Redis prefix of their own,
 * lets the simulated world run for --minutes at --speed, and prints what a client and an operator
 * would see: poll duration, staleness of /v2/matches/live, analysis lag, share of events analysed
 * before kickoff, settlement lag, peak `ai` backlog, memory per process. Then stops everything and
 * drops its database and keys. A table for people, then one `JSON:` line for machines.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { mkdtempSync } from 'node:fs';
import { processContext } from '../shared/app/processContext';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { aiQueue } from '../jobs/ai';
import { closeQueues, queueFor } from '../shared/platform/queues/client';
import { startLocalServices } from '../scripts/services';
import { createAccount, createKey } from '../shared/app/billing/accounts';
import { bootstrapEnv, getConfig, setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { syncWorldClock } from '../shared/platform/clock/worldClock';
import { createProvider } from '../shared/platform/providers/registry';
import { deleteKeysOfThisRun } from '../test/helpers/redisKeys';
import { ArgError, parsePipelineArgs, USAGE, type PipelineArgs } from './pipeline/args';
import { memoryOf, PROCESSES, startWorker, stopWorkers, type Worker } from './pipeline/children';
import { AnalysisLag, analysedBeforeKickoff, linearClock, settlementLag, type Clock } from './pipeline/measure';
import { mb, ms, spread, type Spread } from './pipeline/stats';
import { sizeWorld } from './pipeline/world';
import { counterDelta, readStoreCounters, totalWrites, type StoreCounters } from './pipeline/pgStats';

const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const say = (line: string) => process.stdout.write(`${line}\n`);
const SETTLE_GRACE_MS = 60_000;

function args(): PipelineArgs {
  try {
    return parsePipelineArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ArgError)) throw err;
    process.stderr.write(`bench:pipeline: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const freePort = () =>
  new Promise<number>((res) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });

/** Repeats `fn` every `everyMs` until `until()` says stop; a failed round is counted, not fatal. */
async function every(everyMs: number, until: () => boolean, fn: () => Promise<void>, errors: { n: number }): Promise<void> {
  while (!until()) {
    const t0 = Date.now();
    await fn().catch(() => void errors.n++);
    await sleep(Math.max(0, everyMs - (Date.now() - t0)));
  }
}

/** Staleness of the live odds a client reads: now minus each live event's referenceTime (the poll that wrote it). */
async function sampleStaleness(baseUrl: string, apiKey: string, clock: Clock, page: number, out: number[]): Promise<number> {
  const res = await fetch(`${baseUrl}/v2/matches/live?limit=100&page=${page}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (!res.ok) throw new Error(`GET /v2/matches/live: ${res.status}`);
  const body = (await res.json()) as { data: { stats?: { referenceTime?: string } }[]; count: number };
  const now = Date.now();
  for (const e of body.data) {
    const ref = e.stats?.referenceTime ? Date.parse(e.stats.referenceTime) : NaN;
    if (!Number.isNaN(ref)) out.push(Math.max(0, now - clock.realOf(ref)));
  }
  return body.count;
}

async function main(): Promise<void> {
  const a = args();
  const runId = `pipebench_${process.pid}`;
  if (a.store.startsWith('mongodb')) setEnvForChildren({ MONGODB_URI: a.store });
  else setEnvForChildren({ MONGODB_URI: '', ...(a.store === 'embedded' ? {} : { FERRETDB_BACKEND: a.store }) });
  const local = await startLocalServices();
  let workers: Worker[] = [];
  let report: Report | undefined;
  // Whatever fails (a store that goes away, a sampling bug), the processes stop and the data goes.
  try {
    if ((a.store === 'sqlite' || a.store === 'postgresql') && !local.mongoKind.includes(`(${a.store} backend`)) {
      throw new Error(`--store ${a.store}: the bootstrap found ${local.mongoKind} instead (stop it, or use --store embedded)`);
    }
    const port = await freePort();
    setEnvForChildren({
      // As `npm start` runs them: FERRETDB_POSTGRES_URL too, which gives the GIN indexes, the planner settings and the vacuum.
      ...local.env,
      MONGODB_URI: local.mongodbUri,
      REDIS_URL: local.redisUrl,
      MONGODB_DB: runId,
      REDIS_PREFIX: runId,
      PROVIDERS: 'simulated',
      SIM_SPEED: String(a.speed),
      POLL_INTERVAL_MS: String(a.pollMs),
      SETTLEMENT_DELAY_MS: String(a.settlementDelayMs),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: '',
      LOG_LEVEL: 'warn', // this process's own; the workers log at info (the polls' durations)
      SHUTDOWN_TIMEOUT_MS: '5000',
      // The observer reads /v2/matches/live every second with a test key: neither its daily cap nor
      // its snapshots (answers kept TEST_KEY_SNAPSHOT_S) are what is measured.
      TEST_KEY_DAILY_REQUESTS: '100000000',
      TEST_KEY_SNAPSHOT_S: '0',
    });
    const world = await sizeWorld(bootstrapEnv().all, a.events, a.live);
    setEnvForChildren({ SIM_DENSITY: String(world.density), SIM_ROLLING_LIVE: String(world.rollingLive), SIM_ROLLING_AHEAD: String(world.rollingAhead) });
    const cfg = getConfig();
    // Anchors the run's simulated clock in Redis before the workers start: they adopt it (same settings).
    await syncWorldClock();
    const clock = linearClock((at) => createProvider('simulated', cfg).feedTime!(at), a.speed);

    say(`MongoDB-compatible server: ${local.mongoKind}\nRedis: ${local.redisKind}`);
    say(`World: ${world.events} events in the feed now (${world.live} live; density ${world.density}, ${world.rollingLive} rolling live slots, ${world.rollingAhead} ahead each)`);
    say(`SIM_SPEED=${a.speed} POLL_INTERVAL_MS=${a.pollMs} SETTLEMENT_DELAY_MS=${a.settlementDelayMs}, ${a.minutes} min; database and Redis prefix ${runId}`);

    await connectMongo();
    const account = await createAccount(processContext(), { name: 'bench:pipeline' });
    const apiKey = (await createKey(processContext(), { accountId: String(account.id), name: 'bench:pipeline', mode: 'test' })).key;

    const logDir = mkdtempSync(join(tmpdir(), `${runId}-`));
    const polls: { total: number; events: number; live: number; at: number }[] = [];
    const failures: { ingest: number; ai: number; settlement: number; firstError: Record<string, string> } = { ingest: 0, ai: 0, settlement: 0, firstError: {} };
    const onRecord = (rec: Record<string, unknown>) => {
      // A failed job is part of the result: figures from a run whose polls failed are not the pipeline's.
      if (rec.msg === 'job failed' && typeof rec.queue === 'string' && rec.queue in failures) {
        const q = rec.queue as 'ingest' | 'ai' | 'settlement';
        failures[q]++;
        failures.firstError[q] ??= String((rec.err as string | undefined) ?? '')
          .split('\n')[0]
          .slice(0, 300);
      }
      if (typeof rec.msg === 'string' && rec.msg.startsWith('provider polled') && rec.ms && typeof rec.ms === 'object') {
        polls.push({ total: Number((rec.ms as { total: number }).total), events: Number(rec.events), live: Number(rec.live), at: Date.now() });
      }
    };
    const startedAt = Date.now();
    workers = PROCESSES.map((name) => startWorker(name, { ...bootstrapEnv().all, LOG_LEVEL: 'info' }, logDir, onRecord));
    say(`Processes started (logs in ${logDir})`);

    let stopping = false;
    const deadline = startedAt + a.minutes * 60_000;
    const done = () => stopping || Date.now() >= deadline;
    process.once('SIGINT', () => (stopping = true));
    process.once('SIGTERM', () => (stopping = true));
    for (const w of workers) void w.exited.then((code) => !done() && process.stderr.write(`${w.name} exited early (code ${code}); see ${logDir}/${w.name}.log\n`));

    // PostgreSQL's own counters of the run's tables (FerretDB on PostgreSQL only): writes and
    // sequential scans of the first poll, then of the later ones.
    const pgUrl = local.env.FERRETDB_POSTGRES_URL;
    const counters = (): Promise<StoreCounters | null> => (pgUrl ? readStoreCounters(pgUrl, runId).catch(() => null) : Promise.resolve(null));
    const atStart = await counters();
    while (polls.length === 0 && !done()) await sleep(200);
    const firstPollAt = polls[0]?.at ?? Date.now();
    await sleep(1500); // the counters reach pg_stat within about a second
    const afterFirst = await counters();
    const pollsAfterFirst = polls.length;
    say(
      polls.length
        ? `First poll after ${((firstPollAt - startedAt) / 1000).toFixed(1)} s; measuring until ${new Date(deadline).toISOString()}`
        : `No poll finished within the run (see ${logDir}/ingest.log)`,
    );

    const staleness: number[] = [];
    const backlog = { peak: 0, peakActive: 0, last: 0 };
    const errors = { n: 0 };
    const analysis = new AnalysisLag(clock, startedAt);
    let livePages = 1;
    let round = 0;
    await Promise.all([
      every(
        1000,
        done,
        async () => {
          const count = await sampleStaleness(`http://127.0.0.1:${port}`, apiKey, clock, (round++ % livePages) + 1, staleness);
          livePages = Math.max(1, Math.ceil(count / 100));
        },
        errors,
      ),
      every(
        1000,
        done,
        async () => {
          const c = await queueFor(aiQueue).getJobCounts('waiting', 'prioritized', 'delayed', 'active');
          backlog.last = (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0);
          backlog.peak = Math.max(backlog.peak, backlog.last);
          backlog.peakActive = Math.max(backlog.peakActive, c.active ?? 0);
          for (const w of workers) w.peakRssKb = Math.max(w.peakRssKb, memoryOf(w.child.pid)?.rssKb ?? 0);
        },
        errors,
      ),
      // Each sample reads every upcoming event's prices and every insight (whole-collection reads on
      // FerretDB): no more often than the poll that can change them, so the observer's load stays small.
      every(Math.max(10_000, a.pollMs), done, () => analysis.sample(), errors),
    ]);

    const endedAt = Date.now();
    const atEnd = await counters();
    const laterPolls = polls.length - pollsAfterFirst;
    const store = atStart && afterFirst && atEnd ? storeReport(counterDelta(atStart, afterFirst), counterDelta(afterFirst, atEnd), laterPolls) : null;
    const memory = workers.map((w) => ({ name: w.name, rssKb: memoryOf(w.child.pid)?.rssKb ?? NaN, hwmKb: Math.max(w.peakRssKb, memoryOf(w.child.pid)?.hwmKb ?? 0) }));
    const [kickoff, settlement] = await Promise.all([analysedBeforeKickoff(clock, firstPollAt + 30_000, endedAt), settlementLag(clock, firstPollAt, endedAt, a.settlementDelayMs, SETTLE_GRACE_MS)]);
    report = {
      server: local.mongoKind,
      speed: a.speed,
      pollIntervalMs: a.pollMs,
      settlementDelayMs: a.settlementDelayMs,
      minutes: a.minutes,
      world,
      firstPollAfterStartMs: polls.length ? firstPollAt - startedAt : NaN,
      firstPollMs: polls[0]?.total ?? NaN,
      laterPollsMs: spread(polls.slice(1).map((p) => p.total)),
      store,
      polls: { ...spread(polls.map((p) => p.total)), maxEvents: Math.max(0, ...polls.map((p) => p.events)), maxLive: Math.max(0, ...polls.map((p) => p.live)) },
      stalenessMs: spread(staleness),
      analysisLagMs: analysis.result(endedAt),
      analysedBeforeKickoff: kickoff,
      settlementLagMs: settlement,
      firstSettledAfterStartMs: settlement.firstSettledReal === null ? null : settlement.firstSettledReal - startedAt,
      aiBacklog: backlog,
      jobFailures: failures,
      memory,
      samplingErrors: errors.n,
    };
  } finally {
    await stopWorkers(workers);
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    await deleteKeysOfThisRun().catch(() => undefined);
    await closeQueues().catch(() => undefined);
    await closeAllRedis().catch(() => undefined);
    await disconnectMongo().catch(() => undefined);
    await local.stop();
  }
  if (report) printReport(report);
}

/** Store writes and scans: of the first poll, and per later poll (with the collections that took them). */
function storeReport(first: StoreCounters, later: StoreCounters, laterPolls: number) {
  const per = (v: number) => (laterPolls > 0 ? Math.round((v / laterPolls) * 10) / 10 : NaN);
  const byCollection = Object.fromEntries([...later].filter(([, v]) => v.writes > 0 || v.seqScans > 0).map(([k, v]) => [k, { writes: per(v.writes), seqScans: per(v.seqScans) }]));
  return {
    firstPoll: { writes: totalWrites(first), eventsSeqScans: first.get('events')?.seqScans ?? 0 },
    perLaterPoll: { polls: laterPolls, writes: per(totalWrites(later)), eventsSeqScans: per(later.get('events')?.seqScans ?? 0), byCollection },
  };
}

type Report = {
  firstPollMs: number;
  laterPollsMs: Spread;
  store: ReturnType<typeof storeReport> | null;
  server: string;
  speed: number;
  pollIntervalMs: number;
  settlementDelayMs: number;
  minutes: number;
  world: { events: number; live: number };
  firstPollAfterStartMs: number;
  polls: Spread & { maxEvents: number; maxLive: number };
  stalenessMs: Spread;
  analysisLagMs: { lag: Spread; pending: number };
  analysedBeforeKickoff: { kickoffs: number; analysed: number; share: number };
  settlementLagMs: { lag: Spread; bets: number; settled: number; overdue: number };
  firstSettledAfterStartMs: number | null;
  aiBacklog: { peak: number; peakActive: number; last: number };
  jobFailures: { ingest: number; ai: number; settlement: number; firstError: Record<string, string> };
  memory: { name: string; rssKb: number; hwmKb: number }[];
  samplingErrors: number;
};

function printReport(r: Report): void {
  const mark = (ok: boolean) => (ok ? 'yes' : 'NO');
  const pct = (v: number) => (Number.isNaN(v) ? '-' : `${(v * 100).toFixed(1)} %`);
  const s = r.settlementLagMs;
  const rows: [string, string, string][] = [
    ['first poll after start (5 processes booting)', ms(r.firstPollAfterStartMs), ''],
    ['first poll (empty store) / later polls p99', `${ms(r.firstPollMs)} / ${ms(r.laterPollsMs.p99)} (${r.laterPollsMs.n} later polls)`, ''],
    ...(r.store
      ? ([
          ['store writes: first poll / per later poll', `${r.store.firstPoll.writes} / ${r.store.perLaterPoll.writes}`, ''],
          ['seq scans of events: first poll / per later poll', `${r.store.firstPoll.eventsSeqScans} / ${r.store.perLaterPoll.eventsSeqScans}`, ''],
          ...Object.entries(r.store.perLaterPoll.byCollection).map(([k, v]): [string, string, string] => [`  per later poll: ${k}`, `${v.writes} writes, ${v.seqScans} seq scans`, '']),
        ] as [string, string, string][])
      : []),
    [
      'poll duration p50 / p99',
      `${ms(r.polls.p50)} / ${ms(r.polls.p99)} (${r.polls.n} polls, up to ${r.polls.maxEvents} events, ${r.polls.maxLive} live)`,
      `p99 < ${ms(r.pollIntervalMs)}: ${mark(r.polls.p99 < r.pollIntervalMs)}`,
    ],
    [
      'odds staleness p50 / p99 (/v2/matches/live)',
      `${ms(r.stalenessMs.p50)} / ${ms(r.stalenessMs.p99)} (${r.stalenessMs.n} samples)`,
      `p99 < ${ms(3 * r.pollIntervalMs)}: ${mark(r.stalenessMs.p99 < 3 * r.pollIntervalMs)}`,
    ],
    ['analysis lag p50 / p99', `${ms(r.analysisLagMs.lag.p50)} / ${ms(r.analysisLagMs.lag.p99)} (${r.analysisLagMs.lag.n} price changes, ${r.analysisLagMs.pending} unanalysed at the end)`, ''],
    [
      'analysed before kickoff',
      `${pct(r.analysedBeforeKickoff.share)} (${r.analysedBeforeKickoff.analysed} of ${r.analysedBeforeKickoff.kickoffs} kickoffs)`,
      `>= 99 %: ${mark(r.analysedBeforeKickoff.share >= 0.99)}`,
    ],
    [
      'settlement lag p50 / p99 (after the delay)',
      `${ms(s.lag.p50)} / ${ms(s.lag.p99)} (${s.settled} of ${s.bets} bets settled, ${s.overdue} overdue)`,
      `all within 60 s: ${s.bets === 0 ? 'no bets to settle' : mark(s.overdue === 0 && !(s.lag.max > SETTLE_GRACE_MS))}`,
    ],
    [
      'first settled recommendation after start',
      r.firstSettledAfterStartMs === null ? 'none' : ms(r.firstSettledAfterStartMs),
      `< 3 min: ${mark(r.firstSettledAfterStartMs !== null && r.firstSettledAfterStartMs < 180_000)}`,
    ],
    ['peak ai backlog (waiting)', `${r.aiBacklog.peak} (at the end ${r.aiBacklog.last}; up to ${r.aiBacklog.peakActive} active)`, ''],
    ...r.memory.map((m): [string, string, string] => [`RSS ${m.name} (now / peak)`, `${mb(m.rssKb)} / ${mb(m.hwmKb)}`, '']),
  ];
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  say(`\n${r.server}; SIM_SPEED=${r.speed}, POLL_INTERVAL_MS=${r.pollIntervalMs}, SETTLEMENT_DELAY_MS=${r.settlementDelayMs}; world ${r.world.events} events, ${r.world.live} live\n`);
  for (const [k, v, t] of rows) say(`${k.padEnd(w0)}  ${v.padEnd(w1)}  ${t}`);
  if (r.samplingErrors) say(`(${r.samplingErrors} sampling rounds failed)`);
  for (const [queue, err] of Object.entries(r.jobFailures.firstError)) {
    say(`WARNING: ${r.jobFailures[queue as 'ingest']} ${queue} jobs failed; the first: ${err}`);
  }
  say(`\nJSON: ${JSON.stringify(r)}`);
}

main()
  .then(() => process.exit(0))
  .catch((err) => failEntry('bench:pipeline failed', err));
