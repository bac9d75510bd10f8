/**
 * `npm run bench:settlement [-- --events 10000 --per-event 10 --parlays 1000 --cap 300]`: the
 * settlement worker end to end. Seeds N completed events (with LiveEventData) x K
 * recommendations plus two-leg parlays in this bench's own database and Redis prefix (seeding
 * timed on its own), starts ONE real settlement worker process, enqueues one settle-event job per
 * event, and measures the wall time until every recommendation is settled: rate, the worker's
 * peak RSS (VmHWM) and the server kind. When the cap passes first it stops and prints the
 * progress, the measured rate and a linear extrapolation, labelled as such.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootstrapEnv } from '../shared/platform/config';
import { integer } from './args';
import { startBenchRun } from './run';
import { utcDay } from '../shared/domain/days';

const ROOT = resolve(__dirname, '..');

const EVENTS = integer('bench:settlement', 'events', 10_000, 50_000);
const PER_EVENT = integer('bench:settlement', 'per-event', 10, 100);
const PARLAYS = integer('bench:settlement', 'parlays', Math.floor(EVENTS / 10), EVENTS, 0);
const CAP_S = integer('bench:settlement', 'cap', 300, 86_400);
const CHUNK = 1000;
const DAYS = 7;

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const fmt = (n: number) => Math.round(n).toLocaleString('en');
/** A rate with a decimal where it is small (FerretDB). */
const rateFmt = (n: number) => (n < 10 ? n.toFixed(2) : fmt(n));
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Peak resident set of a live process, in kB (Linux /proc; null elsewhere or once it exited). */
function vmHwmKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { local } = await startBenchRun('bench_settle', { SHUTDOWN_TIMEOUT_MS: '5000' });
  const mongoose = (await import('mongoose')).default;
  const { connectMongo, disconnectMongo } = await import('../shared/platform/db/mongo');
  const { closeAllRedis, key, redis } = await import('../shared/platform/db/redis');
  const { closeQueues, enqueueMany, queueFor } = await import('../shared/platform/queues/client');
  const { settlementQueue } = await import('../jobs/settlement');
  const { insertEventsUnordered, insertLiveEventDataUnordered } = await import('../shared/platform/db/repositories/events');
  const { countSettledPicks, countSettledRecommendations, insertPicksUnordered, insertRecommendationsUnordered } = await import('../shared/platform/db/repositories/ai');
  const { marketTypesForSport } = await import('../shared/domain/markets/catalog');
  const { mulberry32 } = await import('../shared/domain/ai/random');

  say(
    `MongoDB-compatible server: ${local.mongoKind}\nRedis: ${local.redisKind}\nNode ${process.version}; ${fmt(EVENTS)} events x ${PER_EVENT} recommendations = ${fmt(EVENTS * PER_EVENT)}, ${fmt(PARLAYS)} two-leg parlays, cap ${CAP_S} s\n`,
  );
  await connectMongo();
  const cleanup = async () => {
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    await queueFor(settlementQueue)
      .obliterate({ force: true })
      .catch(() => undefined);
    let cursor = '0';
    do {
      const [next, keys] = await redis().scan(cursor, 'MATCH', `${key('')}*`, 'COUNT', 1000);
      if (keys.length) await redis().del(...keys);
      cursor = next;
    } while (cursor !== '0');
  };

  // --- Seed (seeded random, so runs are comparable) --------------------------------------------
  const rnd = mulberry32(42);
  const int = (max: number) => Math.floor(rnd() * (max + 1));
  const soccer = marketTypesForSport(1);
  const now = Date.now();
  const insert = async <T>(insertUnordered: (docs: T[]) => Promise<void>, docs: T[]) => {
    for (let i = 0; i < docs.length; i += CHUNK) await insertUnordered(docs.slice(i, i + CHUNK));
  };
  const eventId = (i: number) => String(9_000_000 + i);
  const seedT0 = performance.now();
  const events: object[] = [];
  const leds: object[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const id = eventId(i);
    // Spread over the last DAYS days, so the rollup refreshes touch several days.
    const start = new Date(now - (3 + (i % DAYS) * 24) * 3600_000);
    const h = int(4);
    const a = int(4);
    const stats = {
      homeGoals: h,
      awayGoals: a,
      homeGoalsFirstHalf: Math.min(h, int(2)),
      awayGoalsFirstHalf: Math.min(a, int(2)),
      homeCorners: int(10),
      awayCorners: int(8),
      homeYellowCards: int(4),
      awayYellowCards: int(4),
      homeRedCards: int(1) * int(1),
      awayRedCards: int(1) * int(1),
    };
    const name = (en: string) => ({ en });
    events.push({
      _id: id,
      sportId: 1,
      competitionId: 1,
      regionId: 1,
      homeTeam: { id: 1, name: name('Home FC') },
      awayTeam: { id: 2, name: name('Away FC') },
      competition: { id: 1, name: name('Bench League') },
      region: { id: 1, name: name('Bench') },
      startDateTime: start,
      startedAt: start,
      endedAt: new Date(start.getTime() + 2 * 3600_000),
      status: 'completed',
      stats: { ...stats, phase: 'FT' },
      resultVersion: 0,
      dataSource: 'simulated',
    });
    leds.push({ _id: id, eventId: id, ...stats, phaseSysname: 'FT', isLive: false, dataSource: 'simulated' });
  }
  await insert(insertEventsUnordered, events);
  await insert(insertLiveEventDataUnordered, leds);
  const seedEvents = performance.now() - seedT0;

  const recT0 = performance.now();
  const recs: Record<string, unknown>[] = [];
  const CONF = ['High', 'Medium', 'Low'] as const;
  for (let i = 0; i < EVENTS; i++) {
    const start = (events[i] as { startDateTime: Date }).startDateTime;
    for (let k = 0; k < PER_EVENT; k++) {
      const type = soccer[int(soccer.length - 1)];
      const code = type.outcomes[int(type.outcomes.length - 1)].code;
      const line =
        type.kind === 'total'
          ? Math.round(((type.stat === 'corners' ? 9 : type.stat === 'cards' ? 4 : 2.5) + rnd() * 2 - 1) * 4) / 4
          : type.kind === 'handicap'
            ? Math.round((rnd() * 2 - 1) * 1.5 * 4) / 4
            : null;
      const id = eventId(i);
      const item = `${id}-${type.sysname}${line === null ? '' : `@${line}`}-${code}`;
      recs.push({
        _id: `rec-${id}-${k}`,
        eventId: id,
        marketId: `${id}-${type.sysname}`,
        betItemId: item,
        betTypeSysname: type.sysname,
        code,
        line,
        sportId: 1,
        outcome: code,
        bookmaker: 'simulated',
        odds: Math.round((1.2 + rnd() * 3) * 100) / 100,
        probability: 0.5,
        fairOdds: 1.9,
        confidence: CONF[k % 3],
        edgePercentage: Math.round(rnd() * 1000) / 100,
        kellyFraction: 0.02,
        eventStartAt: start,
      });
    }
  }
  await insert(insertRecommendationsUnordered, recs);
  const seedRecs = performance.now() - recT0;

  const pickT0 = performance.now();
  const picks: object[] = [];
  for (let p = 0; p < PARLAYS && EVENTS > 1; p++) {
    // Two legs on two different events.
    const a = recs[((2 * p) % EVENTS) * PER_EVENT];
    const b = recs[((2 * p + 1) % EVENTS) * PER_EVENT];
    const legs = [a, b].map((r) => ({
      recommendationId: r._id,
      eventId: r.eventId,
      betItemId: r.betItemId,
      market: r.betTypeSysname,
      outcome: r.outcome,
      code: r.code,
      bookmaker: r.bookmaker,
      odds: r.odds,
      point: r.line,
      edgePercentage: r.edgePercentage,
      confidence: r.confidence,
    }));
    picks.push({
      _id: `pick-bench-${p}`,
      pickType: 'parlay',
      legs,
      eventIds: [a.eventId, b.eventId],
      totalOdds: (a.odds as number) * (b.odds as number),
      probability: 0.3,
      edgePercentage: 4,
      confidence: 'Medium',
      kellyFraction: 0.01,
      event: { id: a.eventId },
      featuredOrder: 1 + (p % 5),
      featuredDate: utcDay(a.eventStartAt as Date),
      startsAt: a.eventStartAt,
    });
  }
  await insert(insertPicksUnordered, picks);
  const seedPicks = performance.now() - pickT0;
  const total = recs.length;
  say(`seeding (insertMany in chunks of ${CHUNK}, not part of the settlement figure):`);
  say(`  ${fmt(EVENTS)} events + LiveEventData  ${s(seedEvents)}`);
  say(`  ${fmt(total)} recommendations        ${s(seedRecs)} (${fmt(total / (seedRecs / 1000))}/s)`);
  say(`  ${fmt(picks.length)} parlays                  ${s(seedPicks)}\n`);

  // --- One settlement worker process -----------------------------------------------------------
  let child: ReturnType<typeof spawn> | undefined;
  try {
    await settle();
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await cleanup();
    await disconnectMongo();
    await closeQueues();
    await closeAllRedis();
    await local.stop();
  }

  async function settle(): Promise<void> {
    const proc = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, 'workers/settlement.ts')], { cwd: ROOT, env: { ...bootstrapEnv().all }, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    proc.stdout.on('data', (d) => (output = (output + d).slice(-20_000)));
    proc.stderr.on('data', (d) => (output = (output + d).slice(-20_000)));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    const queue = queueFor(settlementQueue);
    const readyBy = Date.now() + 60_000;
    while ((await queue.getWorkers()).length === 0) {
      if (proc.exitCode !== null || Date.now() > readyBy) throw new Error(`the settlement worker did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    const t0 = performance.now();
    const payloads = Array.from({ length: EVENTS }, (_, i) => ({ eventId: eventId(i), resultVersion: 0 }));
    for (let i = 0; i < payloads.length; i += CHUNK) await enqueueMany(settlementQueue, 'settle-event', payloads.slice(i, i + CHUNK), () => ({ delay: 0 }));
    const enqueueMs = performance.now() - t0;

    // Progress from the queue (cheap); the settled count is read from the bets at the end (a count
    // scans the collection on FerretDB, which would slow the worker down if polled).
    let capped = false;
    let lastReport = 0;
    for (;;) {
      const c = await queue.getJobCounts('completed', 'failed');
      const elapsed = performance.now() - t0;
      if (c.completed + c.failed >= EVENTS) break;
      if (proc.exitCode !== null) throw new Error(`the settlement worker exited:\n${output}`);
      if (elapsed > CAP_S * 1000) {
        capped = true;
        break;
      }
      if (elapsed - lastReport >= 30_000) {
        lastReport = elapsed;
        say(`  ${s(elapsed)}: ${fmt(c.completed)} of ${fmt(EVENTS)} settle jobs done${c.failed ? `, ${c.failed} failed` : ''}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const wallMs = performance.now() - t0;
    const counts = await queue.getJobCounts('completed', 'failed');
    const peakKb = vmHwmKb(proc.pid!);
    // At the cap the worker is frozen first, so the count is of what it settled within the cap.
    proc.kill(capped ? 'SIGSTOP' : 'SIGTERM');
    const settled = await countSettledRecommendations();
    const picksSettled = await countSettledPicks();
    if (capped) proc.kill('SIGKILL');
    const killTimer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killTimer);
    const rate = settled / (wallMs / 1000);

    say(`\nsettlement by one worker process (SETTLEMENT_CONCURRENCY default, jobs enqueued in ${s(enqueueMs)} with addBulk):`);
    say(`  server               ${local.mongoKind}`);
    say(`  recommendations      ${fmt(settled)} of ${fmt(total)} settled${capped ? ` when the ${CAP_S} s cap passed` : ''}`);
    say(`  parlays              ${fmt(picksSettled)} of ${fmt(picks.length)} settled`);
    say(`  settle jobs          ${fmt(counts.completed)} completed, ${fmt(counts.failed)} failed of ${fmt(EVENTS)}`);
    say(`  wall time            ${s(wallMs)}${capped ? ' (capped)' : ''}`);
    say(`  rate                 ${rateFmt(rate)} recommendations/s`);
    say(`  worker peak RSS      ${peakKb === null ? 'unknown (no /proc)' : mb(peakKb)} (VmHWM)`);
    if (capped) {
      const etaS = rate > 0 ? total / rate : Infinity;
      say(
        `\n  EXTRAPOLATION (not measured): at the measured ${rateFmt(rate)}/s, all ${fmt(total)} would take about ${Number.isFinite(etaS) ? `${fmt(etaS)} s (${(etaS / 3600).toFixed(1)} h)` : 'forever'}.`,
      );
      if (/ferret/i.test(local.mongoKind)) say('  On FerretDB this is a lower bound: each update scans the collection, so the per-update cost grows with it.');
    }
  }
}

main()
  .then(() => process.exit(0))
  .catch((err) => failEntry('bench:settlement failed', err));
