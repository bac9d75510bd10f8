/**
 * `npm run soak -- [--minutes 3] [--chaos] [--seed 1]`: the whole service with replicas of every
 * process (`npm start -- --scale web=2,ingest=2,ai=2,settlement=2,scheduler=2`: a scheduler leader
 * and a standby) at demo speed, on servers of its own (a persistent redis-server, FerretDB on a
 * private PostgreSQL cluster) under .local/soak-<pid>, driven by the fuzz test's request mix from
 * several accounts (live and test keys, an auto-recharge on the test gateway's card, one on a
 * declining card, a small balance that runs out). With --chaos, at seeded random moments: SIGKILL
 * of a random worker process, Redis killed and started again, FerretDB and its PostgreSQL killed
 * and started again, a worker paused (SIGSTOP) past its lock time and continued. At the end it
 * prints each check as PASS or FAIL with its figure and exits 1 when any fails.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closeQueues, queueFor } from '../shared/platform/queues/client';
import { ALL_QUEUES } from '../jobs';
import { addCredits, createAccount, createKey, setAutoRecharge } from '../shared/app/billing/accounts';
import { checkLedger } from '../shared/app/billing/ledgerCheck';
import { checkPerformance, performanceCheckPassed } from '../shared/app/settlement/check';
import { recomputeAll } from '../shared/app/settlement/rollups';
import { maxSettlementDelayMs } from '../shared/app/settlement/sweep';
import { processContext } from '../shared/app/processContext';
import { verifyRecord } from '../shared/app/commitments/verifyRemote';
import { bootstrapEnv, getConfigOrExit, setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis, redis } from '../shared/platform/db/redis';
import { findSettlementsOverdue } from '../shared/platform/db/repositories/settlementEvents';
import { TEST_GATEWAY_LOG } from '../shared/platform/billing/gateway/testGateway';
import { syncWorldClock, toWorldTime } from '../shared/platform/clock/worldClock';
import { isRecord } from '../shared/domain/records';
import { hostileRequests, type HostileRequest } from '../test/helpers/hostileRequests';
import { rawRequest } from '../test/helpers/rawHttp';
import { freePort } from './services';
import { parseSoakArgs, SOAK_USAGE, type SoakOptions } from './soak/args';
import {
  chaosPlan,
  checkCaughtUp,
  checkGradedOnce,
  checkHealth,
  checkNotOverServed,
  checkRecharges,
  checkStatuses,
  checkStuckJobs,
  checkUniqueRefs,
  formatResult,
  recoveries,
  type AccountUsage,
  type Answer,
  type CheckResult,
  type Fault,
  type FaultKind,
  type GatewayCharge,
  type HealthSample,
  type JobRow,
} from './soak/checks';
import { mulberry32 } from '../shared/domain/ai/random';
import { betRows, endedEventCount, ledgerRows } from './soak/reads';
import { formatScale } from './soak/scale';
import { startSoakServers, type SoakServers } from './soak/servers';

const ROOT = resolve(__dirname, '..');
const say = (msg: string) => process.stderr.write(`[soak] ${new Date().toISOString().slice(11, 19)} ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const POLL_INTERVAL_MS = 2000;
const SETTLEMENT_LOCK_MS = 30_000;
/** How long a store stays down in a fault; a pause outlasts the longest job lock. */
const OUTAGE_MS = 5000;
const PAUSE_MS = SETTLEMENT_LOCK_MS + 5000;
const WARMUP_MS = 20_000;
const HEALTH_EVERY_MS = 1000;

interface SoakAccount {
  name: string;
  id: string;
  live: string;
  test: string;
  /** Share of the traffic. */
  weight: number;
  mix: HostileRequest[];
  next: number;
  served: number;
  refused: number;
}

/**
 * A port p with p .. p+n-1 all free (the web copies listen on consecutive ports), below the
 * ephemeral range (32768 and up on Linux), where the traffic's own connections would take them.
 */
async function consecutivePorts(n: number): Promise<number> {
  const pick = mulberry32(process.pid);
  for (let tries = 0; tries < 50; tries++) {
    const base = 20_000 + Math.floor(pick() * 10_000);
    let ok = true;
    for (let i = 0; i < n && ok; i++) ok = (await freePort(base + i)) === base + i;
    if (ok) return base;
  }
  throw new Error(`no ${n} consecutive free ports found from 20000 to 30000`);
}

/** The worker processes the stack runs: children of its `npm start`, read from /proc. */
function stackChildren(stackPid: number): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== stackPid) continue;
      const m = /workers\/(\w+)\.ts/.exec(readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
      if (m) out.push({ pid: Number(entry), name: m[1] });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function healthSample(port: number): Promise<HealthSample> {
  const at = Date.now();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v2/health`, { signal: AbortSignal.timeout(5000) });
    const body: unknown = await res.json().catch(() => null);
    const status = isRecord(body) && (body.status === 'ok' || body.status === 'degraded') ? body.status : null;
    const providers = isRecord(body) && Array.isArray(body.providers) ? body.providers : [];
    const ages = providers.map((p: unknown) => (isRecord(p) && typeof p.lastSuccessAgeMs === 'number' ? p.lastSuccessAgeMs : null));
    const staleMs = ages.length && ages.every((a): a is number => a !== null) ? Math.max(...ages) : null;
    const reasons = isRecord(body) && Array.isArray(body.reasons) ? body.reasons.filter((r): r is string => typeof r === 'string') : [];
    return { at, http: res.status, status, staleMs, reasons };
  } catch {
    return { at, http: 0, status: null, staleMs: null };
  }
}

async function createAccounts(): Promise<{ traffic: SoakAccount[]; verifierKey: string }> {
  const make = async (name: string, weight: number, setup: (id: string) => Promise<unknown>): Promise<SoakAccount> => {
    const { id } = await createAccount(processContext(), { name: `soak ${name}` });
    await setup(id);
    const live = (await createKey(processContext(), { accountId: id, name: 'live' })).key;
    const test = (await createKey(processContext(), { accountId: id, name: 'test', mode: 'test' })).key;
    return { name, id, live, test, weight, mix: [], next: 0, served: 0, refused: 0 };
  };
  const traffic = [
    await make('funded', 3, (id) => addCredits(processContext(), { accountId: id, packageCredits: 500_000 })),
    // 500 free credits, under its threshold at once: a recharge per 20,000-credit window.
    await make('recharging', 3, (id) => setAutoRecharge(processContext(), { accountId: id, threshold: 19_500, packageCredits: 20_000, paymentMethod: 'pm_card_visa', operator: true })),
    // A declining card: attempt 1 declined, attempt 2 delayed an hour, then it runs out.
    await make('declined-card', 1, (id) => setAutoRecharge(processContext(), { accountId: id, threshold: 400, packageCredits: 20_000, paymentMethod: 'pm_card_chargeDeclined', operator: true })),
    await make('small', 2, async () => undefined),
  ];
  // A test-key-only client: its "live" key is its test key.
  const tester = await make('test-only', 1, async () => undefined);
  tester.live = tester.test;
  traffic.push(tester);
  const verifier = await make('verifier', 0, (id) => addCredits(processContext(), { accountId: id, packageCredits: 2_000_000 }));
  return { traffic, verifierKey: verifier.live };
}

async function stopChild(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

async function runFault(kind: FaultKind, servers: SoakServers, stackPid: number, pick: () => number): Promise<Fault> {
  const workers = stackChildren(stackPid).filter((c) => c.name !== 'web');
  const target = workers.length ? workers[Math.floor(pick() * workers.length)] : undefined;
  const start = Date.now();
  switch (kind) {
    case 'kill-worker':
      if (target) process.kill(target.pid, 'SIGKILL');
      return { kind, target: target ? `${target.name} pid ${target.pid}` : 'none', start, end: Date.now() };
    case 'redis-restart':
      await servers.killRedis();
      await sleep(OUTAGE_MS);
      await servers.startRedis();
      return { kind, target: 'redis-server', start, end: Date.now() };
    case 'store-restart':
      await servers.killStore();
      await sleep(OUTAGE_MS);
      await servers.startStore();
      return { kind, target: servers.storeKind.startsWith('FerretDB and') ? 'ferretdb+postgresql' : 'ferretdb', start, end: Date.now() };
    case 'pause':
      if (!target) return { kind, target: 'none', start, end: start };
      process.kill(target.pid, 'SIGSTOP');
      await sleep(PAUSE_MS);
      try {
        process.kill(target.pid, 'SIGCONT');
      } catch {
        // it was killed meanwhile
      }
      return { kind, target: `${target.name} pid ${target.pid}`, start, end: Date.now() };
  }
}

/** The first line of raw request bytes (the fuzz mix holds some that are not HTTP at all). */
function requestLine(bytes: string | Buffer): string {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  return text.split('\r\n', 1)[0].slice(0, 120);
}

async function queueJobs(): Promise<JobRow[]> {
  const now = Date.now();
  const rows: JobRow[] = [];
  for (const q of ALL_QUEUES) {
    const queue = queueFor(q);
    for (const state of ['active', 'waiting', 'delayed', 'failed'] as const) {
      for (const j of await queue.getJobs([state], 0, 199)) {
        if (!j) continue;
        const age =
          state === 'active'
            ? now - (j.processedOn ?? now)
            : state === 'delayed'
              ? Math.max(0, now - (j.timestamp + (j.delay ?? 0)))
              : state === 'failed'
                ? now - (j.finishedOn ?? now)
                : now - j.timestamp;
        rows.push({ queue: q.name, id: j.id ?? '?', name: j.name, state, ageMs: age, ...(j.failedReason ? { failedReason: j.failedReason } : {}) });
      }
    }
  }
  return rows;
}

function gatewayCharges(raw: string[]): GatewayCharge[] {
  return raw.flatMap((line) => {
    const v: unknown = JSON.parse(line);
    return isRecord(v) && typeof v.status === 'string' && typeof v.idempotencyKey === 'string' ? [{ status: v.status, idempotencyKey: v.idempotencyKey }] : [];
  });
}

async function main(opts: SoakOptions): Promise<number> {
  const dir = join(ROOT, '.local', `soak-${process.pid}`);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  say(`servers of its own under ${dir}`);
  const servers = await startSoakServers(dir, say);
  say(`store fault kills ${servers.storeKind}`);
  const basePort = await consecutivePorts(opts.scale.web);
  const webPorts = Array.from({ length: opts.scale.web }, (_, i) => basePort + i);
  const env: Record<string, string> = {
    ...servers.env,
    MONGODB_DB: 'soak',
    REDIS_PREFIX: 'soak',
    SIM_SPEED: '120',
    POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    SETTLEMENT_DELAY_MS: '3000',
    SETTLEMENT_SWEEP_MS: '15000',
    SETTLEMENT_LOCK_MS: String(SETTLEMENT_LOCK_MS),
    PAYMENT_GATEWAY: 'test',
    PORT: String(basePort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  setEnvForChildren(env);
  const cfg = getConfigOrExit();
  await connectMongo();
  await syncWorldClock();

  const stackLog = openSync(join(dir, 'logs', 'stack.log'), 'a');
  say(`starting the stack: npm start -- --scale ${formatScale(opts.scale)} (web on ${webPorts.join(', ')}; log ${join(dir, 'logs', 'stack.log')})`);
  const stack = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'scripts', 'start.ts'), '--scale', formatScale(opts.scale)], {
    cwd: ROOT,
    env: { ...bootstrapEnv().all, ...env },
    stdio: ['ignore', stackLog, stackLog],
  });
  closeSync(stackLog);
  let stackExited = false;
  stack.once('exit', (code, signal) => {
    stackExited = true;
    say(`the stack exited (${signal ?? `code ${code}`})`);
  });
  const stackPid = stack.pid ?? 0;
  const results: CheckResult[] = [];
  try {
    // Up when every web copy answers and a poll has landed.
    const upBy = Date.now() + 240_000;
    for (;;) {
      if (stackExited) throw new Error(`the stack exited before it was up (see ${dir}/logs/stack.log)`);
      const samples = await Promise.all(webPorts.map(healthSample));
      if (samples.every((s) => s.http === 200 && s.staleMs !== null)) break;
      if (Date.now() > upBy) throw new Error(`the stack was not up within 4 minutes (see ${dir}/logs/stack.log)`);
      await sleep(1000);
    }
    const processes = stackChildren(stackPid);
    say(`stack up: ${processes.length} processes (${processes.map((p) => p.name).join(', ')}); first poll landed`);

    const { traffic: accounts, verifierKey } = await createAccounts();
    // The fuzz test's mix for each account, naming events that exist.
    const listed = await fetch(`http://127.0.0.1:${basePort}/v2/matches?limit=40&status=upcoming,live`, { headers: { Authorization: `Bearer ${verifierKey}` } });
    const body: unknown = await listed.json().catch(() => null);
    const eventIds = isRecord(body) && Array.isArray(body.data) ? body.data.flatMap((e: unknown) => (isRecord(e) && typeof e.id === 'string' ? [e.id] : [])) : [];
    accounts.forEach((a, i) => (a.mix = hostileRequests(opts.seed * 101 + i, 20_000, { live: a.live, test: a.test, eventIds })));
    say(
      `${accounts.length} accounts driving traffic: ${accounts.map((a) => a.name).join(', ')}; ${opts.concurrency} requests at a time${opts.rps ? `, ${opts.rps} a second` : ', unpaced'} for ${opts.minutes} min${opts.chaos ? ', with chaos' : ''}`,
    );

    const t0 = Date.now();
    const deadline = t0 + opts.minutes * 60_000;
    const answers: Answer[] = [];
    const samples: HealthSample[] = [];
    const faults: Fault[] = [];
    const consumed = new Map<string, number>();
    const pick = mulberry32(opts.seed);
    const totalWeight = accounts.reduce((n, a) => n + a.weight, 0);
    let sent = 0;
    // Requests leave at most `rps` a second, one slot each, shared by every connection.
    let nextSlot = Date.now();
    const slotWaitMs = () => {
      if (opts.rps === 0) return 0;
      const now = Date.now();
      const at = Math.max(nextSlot, now);
      nextSlot = at + 1000 / opts.rps;
      return at - now;
    };

    const driver = async () => {
      while (Date.now() < deadline) {
        const wait = slotWaitMs();
        if (wait > 0) await sleep(wait);
        if (Date.now() >= deadline) break;
        let r = pick() * totalWeight;
        const account = accounts.find((a) => (r -= a.weight) < 0) ?? accounts[0];
        const request = account.mix[account.next++ % account.mix.length];
        const port = webPorts[sent++ % webPorts.length];
        const at = Date.now();
        const answer = await rawRequest(`http://127.0.0.1:${port}`, request.bytes, 30_000);
        answers.push({ at, doneAt: Date.now(), status: answer.status, ...(answer.status >= 500 ? { what: `${requestLine(request.bytes)} -> ${answer.body.slice(0, 160)}` } : {}) });
        const spent = Number(answer.headers['x-credits-consumed'] ?? 0);
        if (answer.status >= 200 && answer.status < 400 && Number.isFinite(spent)) consumed.set(account.name, (consumed.get(account.name) ?? 0) + spent);
        if (answer.status === 402 || answer.status === 403) account.refused++;
        if (answer.status === 0) await sleep(200); // a web copy restarting: do not spin
      }
    };
    let sampling = true;
    const sampler = async () => {
      let i = 0;
      while (sampling) {
        samples.push(await healthSample(webPorts[i++ % webPorts.length]));
        await sleep(HEALTH_EVERY_MS);
      }
    };
    const chaos = async () => {
      if (!opts.chaos) return;
      const plan = chaosPlan(opts.seed, deadline - t0 - WARMUP_MS - 20_000, opts.gapS, (k) => (k === 'pause' ? PAUSE_MS + 2000 : k === 'kill-worker' ? 2000 : OUTAGE_MS + 10_000));
      say(`chaos plan (seed ${opts.seed}): ${plan.map((p) => `${p.kind} after ${Math.round(p.afterMs / 1000)} s`).join(', ') || 'no fault fits the time'}`);
      await sleep(WARMUP_MS);
      for (const step of plan) {
        await sleep(step.afterMs);
        if (Date.now() >= deadline || stackExited) break;
        const fault = await runFault(step.kind, servers, stackPid, pick);
        faults.push(fault);
        say(`fault ${fault.kind} (${fault.target}) at +${Math.round((fault.start - t0) / 1000)} s, undone after ${((fault.end - fault.start) / 1000).toFixed(1)} s`);
      }
    };
    const sampling$ = sampler();
    await Promise.all([...Array.from({ length: opts.concurrency }, driver), chaos()]);
    say(`traffic done: ${answers.length} answers in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

    // Drain: until health is ok and nothing ended is overdue for settlement, at most the recovery time plus a minute.
    const drainBy = Date.now() + opts.recoveryS * 1000 + 60_000;
    while (Date.now() < drainBy && !stackExited) {
      const last = samples.at(-1);
      if (last && last.http === 200 && last.status === 'ok' && Date.now() - (faults.at(-1)?.end ?? 0) > 10_000) break;
      await sleep(1000);
    }
    sampling = false;
    await sampling$;
    const jobs = await queueJobs();
    say(`drained; stopping the stack`);
    // Settlements are judged as of this moment: the stack settles nothing after it.
    const stoppedAt = Date.now();
    await stopChild(stack, 60_000);

    // The final reads through one web process of its own, with nothing else writing.
    const web = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'workers', 'web.ts')], { cwd: ROOT, env: { ...bootstrapEnv().all, ...env }, stdio: 'ignore' });
    try {
      for (let i = 0; i < 120 && (await healthSample(basePort)).http !== 200; i++) await sleep(500);
      const url = `http://127.0.0.1:${basePort}`;

      // Settlement.
      const dueBefore = stoppedAt - maxSettlementDelayMs(cfg) - 60_000;
      await syncWorldClock();
      const overdue = await findSettlementsOverdue({ createdBefore: new Date(dueBefore), endedFrom: new Date(0), endedBefore: new Date(toWorldTime(dueBefore)) });
      const ended = await endedEventCount();
      // Each overdue event with its settle jobs as the queue held them at the end (none: the job was lost or completed early).
      const jobsOf = (eventId: string) => jobs.filter((j) => j.queue === 'settlement' && j.id.includes(eventId)).map((j) => `${j.id} ${j.state}${j.failedReason ? ` (${j.failedReason})` : ''}`);
      results.push({
        name: 'every ended event settled',
        pass: overdue.length === 0,
        figure: `${ended} ended events, ${overdue.length} unsettled a minute past due`,
        details: overdue.slice(0, 10).map((id) => `${id}: settle jobs ${jobsOf(id).join(', ') || 'none (not queued, or completed/removed)'}`),
      });
      results.push(checkGradedOnce('recommendation', await betRows('Recommendation')));
      results.push(checkGradedOnce('pick', await betRows('Pick')));
      const ledger = await ledgerRows();
      results.push(checkUniqueRefs(ledger.map((e) => e.ref)));

      // Performance: the stored rollups equal the recount (check-performance), and the API serves them.
      const perf = await checkPerformance(processContext());
      const recount = (await recomputeAll(processContext())).rollups.reduce((s, r) => ({ total: s.total + r.total, wins: s.wins + r.wins, losses: s.losses + r.losses, pushes: s.pushes + r.pushes }), {
        total: 0,
        wins: 0,
        losses: 0,
        pushes: 0,
      });
      const served: unknown = await (await fetch(`${url}/v2/ai/performance?days=365`, { headers: { Authorization: `Bearer ${verifierKey}` } })).json().catch(() => null);
      const api = isRecord(served) && isRecord(served.recommendations) ? served.recommendations : {};
      const apiSame = (['total', 'wins', 'losses', 'pushes'] as const).every((k) => api[k] === recount[k]);
      results.push({
        name: '/v2/ai/performance equal to a recount from the stored results',
        pass: performanceCheckPassed(perf) && apiSame,
        figure: `check-performance: ${perf.storedRollups} rollups, ${perf.mismatches.length} mismatches, ${perf.invalidBets.length} invalid bets over ${perf.settledRecommendations} settled; API total/wins/losses/pushes ${['total', 'wins', 'losses', 'pushes'].map((k) => String(api[k])).join('/')} vs recount ${recount.total}/${recount.wins}/${recount.losses}/${recount.pushes}`,
      });

      // Billing.
      const lc = await checkLedger(processContext());
      results.push({
        name: "every account's balance equal to its ledger (check-ledger)",
        pass: lc.problems.length === 0,
        figure: `${lc.accounts} accounts, ${lc.entries} entries, ${lc.problems.length} problems, ${lc.chargesPending} charges still on their way`,
        details: lc.problems.map((p) => `${p.accountId}: ${p.problem}`),
      });
      const usage: AccountUsage[] = accounts.map((a) => {
        const rows = ledger.filter((e) => e.accountId === a.id);
        return {
          name: a.name,
          servedCredits: consumed.get(a.name) ?? 0,
          paidCredits: rows.filter((e) => e.kind === 'grant' || e.kind === 'purchase' || e.kind === 'recharge').reduce((n, e) => n + e.delta, 0),
          ledgerDebited: -rows.filter((e) => e.kind === 'debit' || e.kind === 'refund').reduce((n, e) => n + e.delta, 0),
          refusedForCredits: a.refused,
        };
      });
      results.push(checkNotOverServed(usage));
      results.push(checkRecharges(gatewayCharges(await redis().lrange(TEST_GATEWAY_LOG(), 0, -1)), ledger.filter((e) => e.kind === 'recharge').length));

      // The commitments chain, as a customer verifies it.
      const chain = await verifyRecord({ url, key: verifierKey, proofs: 20 });
      results.push({
        name: 'the commitments chain verifies end to end (verify-record)',
        pass: chain.ok,
        figure: chain.firstBad
          ? `broken at link ${chain.firstBad.seq}: ${chain.firstBad.problem}`
          : `${chain.links} links, ${chain.publishedHeadsChecked} published heads, ${chain.proofsChecked} proofs agree`,
      });

      // Service under faults.
      const graceMs = opts.recoveryS * 1000;
      results.push(checkStatuses(answers, faults, graceMs));
      const rs = recoveries(faults, samples, 3 * cfg.POLL_INTERVAL_MS);
      results.push(checkHealth(rs, samples, graceMs, t0));
      results.push(checkStuckJobs(jobs));
      results.push(checkCaughtUp(rs, samples, 3 * cfg.POLL_INTERVAL_MS, graceMs));
    } finally {
      await stopChild(web, 30_000);
    }
  } finally {
    await stopChild(stack, 60_000);
    await closeQueues();
    await closeAllRedis();
    await disconnectMongo();
  }
  process.stdout.write(
    `\nsoak: ${opts.minutes} min, scale ${formatScale(opts.scale)}, ${opts.chaos ? `chaos seed ${opts.seed}` : 'no chaos'}, concurrency ${opts.concurrency}, ${opts.rps ? `${opts.rps} requests a second` : 'unpaced'}; store faults kill ${servers.storeKind}\n\n${results.map(formatResult).join('\n')}\n\n${results.filter((r) => !r.pass).length} of ${results.length} checks failed\n`,
  );
  return results.every((r) => r.pass) ? 0 : 1;
}

if (require.main === module) {
  let opts: SoakOptions;
  try {
    opts = parseSoakArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\nusage: ${SOAK_USAGE}\n`);
    process.exit(2);
  }
  process.once('SIGINT', () => process.exit(130));
  main(opts)
    .then((code) => process.exit(code))
    .catch((err) => failEntry('soak failed', err));
}
