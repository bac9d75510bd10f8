/**
 * `npm run replay -- --seasons E0_2223,SP1_2021 [--speed 3000] [--data <folder>] [--out <folder>]`:
 * real seasons through the real pipeline. Starts the local services and the five Procfile
 * processes (`npm start`) with the replay provider on a fresh database and Redis prefix of its
 * own, waits until every replayed match is completed and every recommendation settled, then
 * prints the track record as /v2/ai/track-record serves it, checks it as a customer would
 * (verify-record over the whole chain, the record rebuilt from the chain alone) and checks that
 * the pipeline played the files as they are (each match's counts and closing line); with --out it
 * saves all of it and the three charts. Exit 0 only when the chain verifies and every match was
 * played faithfully. The simulated clock skips the stretches with nothing listed (between seasons).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, spawn } from 'node:child_process';
import { processContext } from '../shared/app/processContext';
import { existsSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bootstrapEnv, getConfigOrExit, setEnvForChildren } from '../shared/platform/config';
import { addCredits } from '../shared/app/billing/accounts';
import { demoKey } from './demoKey';
import { countRecommendationsMatching, countSettledRecommendations } from '../shared/platform/db/repositories/ai';
import { countEventsMatching } from '../shared/platform/db/repositories/events';
import { findEventsForSettlement } from '../shared/platform/db/repositories/settlementEvents';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { configuredReplayMatches } from '../shared/platform/providers/replay/configured';
import { replayFidelity } from '../shared/platform/providers/replay/fidelity';
import { downloadChain, remoteGetter, verifyRecord } from '../shared/app/commitments/verifyRemote';
import { breakdown, breakdownText, chainBets } from '../shared/domain/trackRecord/breakdown';
import { freePort, startLocalServices } from './services';

const ROOT = resolve(__dirname, '..');
const SEASON = /^[A-Z0-9]{1,4}_\d{4}$/;
const say = (msg: string) => process.stderr.write(`[replay] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ArgError extends Error {}

interface Options {
  seasons: string[];
  speed: number;
  data: string;
  pollMs: number;
  out: string | null;
  maxMinutes: number;
  json: boolean;
  /** The database and Redis prefix of an earlier replay to report on again (its API alone is started), or null. */
  reportOnly: string | null;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ArgError(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return n;
}

function reportOnlyStamp(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (!/^replay_[a-z0-9]{1,20}$/.test(raw)) throw new ArgError(`--report-only must name an earlier replay's database, like replay_mwws8jqr (got ${JSON.stringify(raw)})`);
  return raw;
}

/** Checks (10 s apart) without a match ending or a bet settling before the replay stops waiting and reports what is stuck. */
const STALLED_CHECKS = 30;

export function parseReplayArgs(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        seasons: { type: 'string' },
        speed: { type: 'string' },
        data: { type: 'string' },
        'poll-ms': { type: 'string' },
        out: { type: 'string' },
        'max-minutes': { type: 'string' },
        json: { type: 'boolean' },
        'report-only': { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new ArgError((err as Error).message);
  }
  const seasons = (values.seasons ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (seasons.length === 0) throw new ArgError('--seasons is required: season files without .csv, comma-separated (E0_2223,SP1_2021)');
  const bad = seasons.find((s) => !SEASON.test(s));
  if (bad) throw new ArgError(`--seasons: ${JSON.stringify(bad)} is not a season file name (like E0_2223)`);
  const data = resolve(values.data ?? resolve(ROOT, '../shared/data/football-data'));
  if (!existsSync(data) || !statSync(data).isDirectory()) throw new ArgError(`--data: ${data} is not a folder`);
  const missing = seasons.find((s) => !existsSync(join(data, `${s}.csv`)));
  if (missing) throw new ArgError(`--seasons: ${missing}.csv is not in ${data}`);
  return {
    seasons,
    speed: integer('speed', values.speed, 3000, 1, 100000),
    data,
    // POLL_INTERVAL_MS's own range starts at 1000: a smaller value would only fail the stack's config.
    pollMs: integer('poll-ms', values['poll-ms'], 2000, 1000, 60000),
    out: values.out ? resolve(values.out) : null,
    maxMinutes: integer('max-minutes', values['max-minutes'], 600, 1, 10000),
    json: values.json ?? false,
    reportOnly: reportOnlyStamp(values['report-only']),
  };
}

/** Real milliseconds between refits: two days of the replayed world, within REFIT_INTERVAL_MS's range. */
export function replayRefitIntervalMs(speed: number): number {
  return Math.min(86_400_000, Math.max(10_000, Math.round((2 * 86_400_000) / speed)));
}

async function get(url: string, key: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, text: await res.text() };
}

function stopStack(child: ChildProcess): Promise<void> {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res();
    child.once('exit', () => res());
    child.kill('SIGTERM');
  });
}

async function run(): Promise<void> {
  let opts: Options;
  try {
    opts = parseReplayArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ArgError)) throw err;
    process.stderr.write(
      `${err.message}\nusage: npm run replay -- --seasons E0_2223,SP1_2021 [--speed 3000] [--data <folder>] [--poll-ms 2000] [--out <folder>] [--max-minutes 600] [--json] [--report-only replay_<id>]\n`,
    );
    process.exit(2);
  }
  const stamp = opts.reportOnly ?? `replay_${Date.now().toString(36)}`;
  const port = await freePort();
  const local = await startLocalServices();
  setEnvForChildren({
    ...local.env,
    PROVIDERS: 'replay',
    REPLAY_DATA: opts.data,
    REPLAY_SEASONS: opts.seasons.join(','),
    SIM_SPEED: String(opts.speed),
    POLL_INTERVAL_MS: String(opts.pollMs),
    SETTLEMENT_DELAY_MS: '3000',
    SETTLEMENT_SWEEP_MS: '10000',
    // A refit every two days of the replayed world, whatever the speed (hourly, 3000x would refit every 125 days).
    REFIT_INTERVAL_MS: String(replayRefitIntervalMs(opts.speed)),
    MONGODB_DB: stamp,
    REDIS_PREFIX: stamp,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const cfg = getConfigOrExit();
  const matches = configuredReplayMatches(cfg);
  if (matches.length === 0) {
    say(`no playable match in ${opts.seasons.join(', ')} (see the log lines above)`);
    process.exit(1);
  }
  say(`${matches.length} matches of ${opts.seasons.join(', ')} at ${opts.speed}x, database and Redis prefix ${stamp}, API on port ${port}`);
  await connectMongo();
  const { key, accountId } = await demoKey(processContext(), 'live');
  await addCredits(processContext(), { accountId, packageCredits: 100000 });

  // The stack's log is kept (beside the results with --out): a match that did not play out is explained there.
  const logFile = join(opts.out ?? tmpdir(), `${stamp}-stack.log`);
  if (opts.out) mkdirSync(opts.out, { recursive: true });
  const log = openSync(logFile, 'a');
  const entry = opts.reportOnly ? 'workers/web.ts' : 'scripts/start.ts';
  const stack = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, entry)], { cwd: ROOT, env: bootstrapEnv().all, stdio: ['ignore', log, 'inherit'] });
  say(`the stack logs to ${logFile}`);
  let exited = false;
  stack.once('exit', () => (exited = true));
  const stop = async (code: number) => {
    await stopStack(stack);
    await disconnectMongo();
    await local.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(130));

  const started = Date.now();
  const deadline = started + opts.maxMinutes * 60_000;
  let done = 0;
  let stalled = 0;
  let last = '';
  /** One look at the replay: true when every match has ended and every bet is settled, or nothing moves any more. */
  const finished = async (): Promise<boolean> => {
    const [completed, open, settled] = await Promise.all([
      countEventsMatching({ dataSource: 'replay', status: { $in: ['completed', 'cancelled', 'postponed'] } }),
      countRecommendationsMatching({ settled: false }),
      countSettledRecommendations(),
    ]);
    say(`${Math.round((Date.now() - started) / 1000)} s: ${completed} of ${matches.length} matches ended, ${settled} bets settled, ${open} open`);
    done = completed >= matches.length && open === 0 ? done + 1 : 0;
    // Twice in a row: a settlement job may still be writing the last bets' rollups.
    if (done >= 2) return true;
    // A match the pipeline never saw end (it stays live) would hold the replay until --max-minutes: report it instead.
    stalled = `${completed}|${settled}` === last ? stalled + 1 : 0;
    last = `${completed}|${settled}`;
    if (stalled < STALLED_CHECKS) return false;
    say(`nothing ended or settled for ${STALLED_CHECKS} checks: reporting with ${matches.length - completed} matches not ended (named below)`);
    return true;
  };
  const apiAnswers = async () => (await fetch(`http://127.0.0.1:${port}/v2/health`).catch(() => null))?.status === 200;
  for (;;) {
    await sleep(opts.reportOnly ? 2_000 : 10_000);
    if (exited) {
      say(opts.reportOnly ? 'the API exited before it answered' : 'the stack exited before the replay finished');
      return stop(1);
    }
    if (await (opts.reportOnly ? apiAnswers() : finished())) break;
    if (Date.now() > deadline) {
      say(`not finished after --max-minutes ${opts.maxMinutes}: stopping (the database ${stamp} keeps what was done)`);
      return stop(1);
    }
  }
  const api = `http://127.0.0.1:${port}`;
  const base = `${api}/v2/ai/track-record`;
  const record = await get(`${base}?days=3650`, key);
  if (record.status !== 200) {
    say(`GET /v2/ai/track-record answered ${record.status}: ${record.text}`);
    return stop(1);
  }
  // What a customer would check: the whole chain recomputed, and the record rebuilt from it alone.
  const verified = await verifyRecord({ url: api, key, proofs: 20 });
  const chain = await downloadChain(remoteGetter(api, key));
  const rows = breakdown(chainBets(chain.links.map((l) => l.record)));
  // And whether the pipeline played the files as they are: a late poll would have captured a wrong close.
  const fidelity = replayFidelity(matches, await findEventsForSettlement(matches.map((m) => m.eventId)));
  const faithful = fidelity.ended === fidelity.matches && fidelity.countsEqual === fidelity.matches && fidelity.closingEqual === fidelity.matches;
  if (opts.out) {
    mkdirSync(opts.out, { recursive: true });
    // Every recommendation (a re-issue at new odds is another bet), and the first bet per outcome.
    for (const [per, suffix] of [
      ['recommendation', ''],
      ['outcome', '-first-per-outcome'],
    ])
      for (const kind of ['cumulative', 'clv', 'calibration']) {
        const svg = await get(`${base}/chart.svg?days=3650&kind=${kind}&per=${per}`, key);
        writeFileSync(join(opts.out, `track-record-${kind}${suffix}.svg`), svg.text);
      }
    writeFileSync(join(opts.out, 'track-record-first-per-outcome.json'), (await get(`${base}?days=3650&per=outcome`, key)).text);
    writeFileSync(join(opts.out, 'track-record.json'), record.text);
    writeFileSync(join(opts.out, 'breakdown.json'), `${JSON.stringify({ head: chain.head, rows }, null, 2)}\n`);
    writeFileSync(join(opts.out, 'verify-record.json'), `${JSON.stringify(verified, null, 2)}\n`);
    writeFileSync(join(opts.out, 'fidelity.json'), `${JSON.stringify(fidelity, null, 2)}\n`);
    // The chain itself, a link a line: with it anyone can recompute the head and the record offline.
    writeFileSync(join(opts.out, 'chain.jsonl'), chain.links.map((l) => `${JSON.stringify(l)}\n`).join(''));
    say(`charts, the record, its breakdown and the chain's verification saved in ${opts.out}`);
  }
  const body = JSON.parse(record.text) as RecordSummary;
  const played = [
    `played as the files say: ${fidelity.ended} of ${fidelity.matches} matches ended, ${fidelity.countsEqual} with the file's score, corners and cards, ${fidelity.closingEqual} with every book's closing price of the file in the closing line`,
    ...fidelity.differences.map((d) => `  differs: ${d}`),
  ].join('\n');
  const verdict = verified.ok ? `chain verified: ${verified.links} links, ${verified.proofsChecked} proofs` : `CHAIN BROKEN at link ${verified.firstBad?.seq}: ${verified.firstBad?.problem}`;
  process.stdout.write(
    opts.json
      ? `${JSON.stringify({ record: body, breakdown: rows, verified, fidelity })}\n`
      : `${summary(body, opts, (Date.now() - started) / 1000)}\n${verdict}\n${played}\n\n${breakdownText(chain.head, rows)}\n`,
  );
  if (!faithful) say('the pipeline did not play every match as its file says (see "differs"): its record is not the files\' (a slower --speed or a quieter machine)');
  return stop(verified.ok && faithful ? 0 : 1);
}

interface RecordSummary {
  bets: number;
  wins: number;
  losses: number;
  pushes: number;
  roi: number | null;
  roiStandardError: number | null;
  clv: { bets: number; mean: number | null; standardError: number | null; beatCloseShare: number | null };
  head: { hash: string; length: number };
}

/** The record in a few lines: what docs/track-record.md quotes. */
function summary(r: RecordSummary, opts: Options, seconds: number): string {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);
  return [
    opts.reportOnly
      ? `record of the replay ${opts.reportOnly} (${opts.seasons.join(', ')} at ${opts.speed}x), reported again`
      : `replayed ${opts.seasons.join(', ')} at ${opts.speed}x in ${Math.round(seconds)} s`,
    `bets ${r.bets}: ${r.wins} won, ${r.losses} lost, ${r.pushes} push; ROI ${pct(r.roi)} (s.e. ${pct(r.roiStandardError)})`,
    `mean CLV ${pct(r.clv.mean)} (s.e. ${pct(r.clv.standardError)}, ${r.clv.bets} bets with a closing line); beat the close ${pct(r.clv.beatCloseShare)}`,
    `chain head ${r.head.hash} (length ${r.head.length})`,
  ].join('\n');
}

if (require.main === module) run().catch((err) => failEntry('replay failed', err));
