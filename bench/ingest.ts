/**
 * `npm run bench:ingest [-- --sizes 1000,5000 --polls 3 --cap 120 --compute-only]`: one poll-and-write cycle of
 * the simulated provider with N live events (every bookmaker, live stats, snapshots, history),
 * against the MongoDB-compatible server the bootstrap finds or starts (FerretDB on PostgreSQL by
 * default; FERRETDB_BACKEND=sqlite picks its SQLite backend). The first poll inserts everything (cold); the
 * following ones are the steady 30-second cycle: every live event's prices, stats and snapshots
 * rewritten. Prints the time of each phase and the process's peak memory.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { performance } from 'node:perf_hooks';
import { integer, option } from './args';
import { startBenchRun } from './run';
import type { PrevState } from '../shared/domain/ingest/plan'; // types only: the module itself is imported once the environment is set

function parseSizes(raw: string): number[] {
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 50_000)) {
    process.stderr.write(`bench:ingest: --sizes must be a comma list of integers 1..50000 (got "${raw}")\n`);
    process.exit(2);
  }
  return sizes;
}

const SIZES = parseSizes(option('bench:ingest', 'sizes', '1000,5000'));
const POLLS = integer('bench:ingest', 'polls', 3, 20);
const CAP_S = integer('bench:ingest', 'cap', 120, 86_400);
/** Only the worker's own share (provider + planner), no database: `--compute-only`. */
const COMPUTE_ONLY = process.argv.includes('--compute-only');

const mb = (b: number) => `${Math.round(b / 1048576)} MB`;

async function main(): Promise<void> {
  const { local } = await startBenchRun('bench_ingest', { SETTLEMENT_DELAY_MS: '600000' });
  const mongoose = (await import('mongoose')).default;
  const { connectMongo, disconnectMongo } = await import('../shared/platform/db/mongo');
  const { closeAllRedis, key, redis } = await import('../shared/platform/db/redis');
  const { closeQueues, queueFor } = await import('../shared/platform/queues/client');
  const { aiQueue } = await import('../jobs/ai');
  const { settlementQueue } = await import('../jobs/settlement');
  const { pollProvider } = await import('../shared/app/ingest/poll');
  const { processContext } = await import('../shared/app/processContext');
  const { renewProcessScope } = await import('../shared/platform/processScope');
  const { createHandle } = await import('../shared/platform/providers/registry');
  const { SimulatedProvider } = await import('../shared/platform/providers/simulated');
  const { countAllEvents, countAllEventPrices, countAllOddsHistory } = await import('../shared/platform/db/repositories/events');

  process.stdout.write(
    `MongoDB-compatible server: ${local.mongoKind}\nRedis: ${local.redisKind}\nNode ${process.version}, ${POLLS} polls per size (the first inserts, the rest are the steady cycle)\n\n`,
  );
  const rows: string[] = [];
  let slot = 1;
  const cleanup = async () => {
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    for (const q of [aiQueue, settlementQueue])
      await queueFor(q)
        .obliterate({ force: true })
        .catch(() => undefined);
    await redis().del(key('ingest', 'slot', 'simulated'));
    renewProcessScope(); // what this process remembers of the dropped database
  };

  const { planIngest } = await import('../shared/domain/ingest/plan');
  /** The worker's own share of a cycle (provider + planning, no database), for each size. */
  const computeRows: string[] = [];
  for (const n of SIZES) {
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const anchor = Date.parse('2026-11-21T15:00:00Z');
    const p = new SimulatedProvider({ seed: 42, competitions: [], syntheticLive: n, syntheticAnchorMs: anchor });
    const signal = new AbortController().signal;
    const cycle = async (at: Date, previous: Map<string, PrevState>) => {
      const t0 = performance.now();
      const events = await p.listEvents({ at, signal });
      const [odds, live, results] = await Promise.all([p.fetchOdds({ at, signal }, events), p.fetchLiveStats({ at, signal }, events), p.fetchResults({ at, signal }, [])]);
      const t1 = performance.now();
      const plan = planIngest(
        {
          provider: 'simulated',
          capturedAt: at,
          events,
          odds: new Map(odds.map((o) => [o.eventId, o])),
          live: new Map(live.map((l) => [l.eventId, l])),
          results: new Map(results.map((r) => [r.eventId, r])),
        },
        previous,
        new Date(),
      );
      const t2 = performance.now();
      return { fetch: t1 - t0, plan: t2 - t1, plan$: plan };
    };
    const first = await cycle(new Date(anchor), new Map());
    // The stored state after the first poll, as the worker keeps it.
    const steady = await cycle(new Date(anchor + 30_000), first.plan$.next);
    const ops = steady.plan$.events.length + steady.plan$.liveData.length + steady.plan$.prices.length;
    clearInterval(sample);
    peak = Math.max(peak, process.memoryUsage().rss);
    computeRows.push(`| ${n} | ${Math.round(steady.fetch)} ms | ${Math.round(steady.plan)} ms | ${ops} writes + ${steady.plan$.history.length} history documents | ${mb(peak)} |`);
  }
  process.stdout.write(
    `Worker compute per steady cycle (simulated provider + planner, no database):\n\n| live events | provider (4 calls) | plan | document writes planned | RSS so far |\n|---|---|---|---|---|\n${computeRows.join('\n')}\n\n`,
  );

  if (COMPUTE_ONLY) {
    await local.stop();
    return;
  }
  await connectMongo();
  for (const n of SIZES) {
    await cleanup();
    await connectMongo();
    const anchor = Date.parse('2026-11-21T15:00:00Z');
    const handle = createHandle('simulated', new SimulatedProvider({ seed: 42, competitions: [], syntheticLive: n, syntheticAnchorMs: anchor }));
    let peakRss = 0;
    let peakHeap = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const times: { total: number; fetch: number; read: number; plan: number; write: number; prices: number; history: number }[] = [];
    let capped = false;
    for (let i = 0; i < POLLS; i++) {
      const started = performance.now();
      const run = pollProvider(processContext(), handle, { slot: slot++, at: new Date(anchor + i * 30_000) });
      const timer = new Promise<'cap'>((r) => setTimeout(() => r('cap'), CAP_S * 1000).unref());
      const r = await Promise.race([run, timer]);
      if (r === 'cap') {
        capped = true;
        process.stdout.write(`  ${n} live events, poll ${i + 1}: not finished after ${CAP_S} s - stopped\n`);
        break;
      }
      if (r.status !== 'ok') throw new Error(`poll ${i + 1} did not run: ${JSON.stringify(r)}`);
      times.push({ ...r.ms, total: performance.now() - started, prices: r.written.prices, history: r.written.history });
      process.stdout.write(
        `  ${n} live events, poll ${i + 1}: ${Math.round(performance.now() - started)} ms (fetch ${r.ms.fetch}, read ${r.ms.read}, plan ${r.ms.plan}, write ${r.ms.write}; ${r.written.events} events, ${r.written.prices} prices, ${r.written.liveEventData} live data, ${r.written.history} history documents)\n`,
      );
    }
    clearInterval(sampler);
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    const steady = times.slice(1);
    const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : NaN);
    const counts = capped ? null : { events: await countAllEvents(), prices: await countAllEventPrices(), history: await countAllOddsHistory() };
    rows.push(
      `| ${n} | ${times[0] ? `${Math.round(times[0].total)} ms` : `> ${CAP_S} s`} | ${steady.length ? `${avg(steady.map((t) => t.total))} ms` : capped ? `> ${CAP_S} s` : '-'} | ${steady.length ? `${avg(steady.map((t) => t.fetch + t.plan))} / ${avg(steady.map((t) => t.read))} / ${avg(steady.map((t) => t.write))} ms` : '-'} | ${mb(peakRss)} | ${mb(peakHeap)} | ${counts ? `${counts.events} / ${counts.prices} / ${counts.history}` : '-'} |`,
    );
    handle.breaker.shutdown();
    if (capped) break;
  }
  process.stdout.write(
    `\n| live events | first poll (insert) | steady poll-and-write cycle | of which compute / read / write | peak RSS | peak heap | events / price documents / history documents |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
  await cleanup();
  await disconnectMongo();
  await closeQueues();
  await closeAllRedis();
  await local.stop();
}

main()
  .then(() => process.exit(0))
  .catch((err) => failEntry('bench:ingest failed', err));
