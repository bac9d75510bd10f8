/**
 * `npm start`: the embedded default. Finds or starts Redis and MongoDB/FerretDB, then runs every
 * Procfile process (web, ingest, ai, settlement, scheduler) as its own child process, as
 * production does: the ai worker's model computing and the ingest worker's polls then use
 * separate cores instead of taking turns on one event loop. `npm start -- --one-process` runs
 * them all in this process instead (less memory, slower at demo speed). `npm start -- --scale
 * web=2,ingest=2,ai=2,settlement=2,scheduler=2` runs that many copies of each (web copies on
 * consecutive ports from PORT; a second scheduler stands by for the leader's lease).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bootstrapEnv, getConfigOrExit, setEnvForChildren, type Config } from '../shared/platform/config';
import { ALL_STARTERS } from '../workers/all';
import { runServices } from '../workers/runtime';
import { endWithNpm, startLocalServices, type LocalServices } from './services';
import { instances, ONE_EACH, parseScale, type Scale } from './soak/scale';

const ROOT = resolve(__dirname, '..');
/** A process that keeps dying is not restarted forever: past this many exits a minute, all stop. */
const MAX_RESTARTS_PER_MINUTE = 5;

const say = (msg: string) => process.stderr.write(`[start] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ready(url: string): void {
  process.stdout.write(`\nOdds API ready at ${url}/v2  (health: ${url}/v2/health)\n\n`);
}

async function onePerProcess(cfg: Config, local: LocalServices, scale: Scale): Promise<void> {
  const children = new Map<string, ChildProcess>();
  const exits: number[] = [];
  let stopping = false;
  const env = { ...bootstrapEnv().all, ...local.env };
  if (scale.web > 1 && cfg.PORT === 0) {
    say(`--scale web=${scale.web} puts the web copies on consecutive ports from PORT: set PORT (not 0)`);
    await local.stop();
    process.exit(2);
  }
  const all = instances(scale, cfg.PORT);
  // Copies die together when a server they share goes away: the limit grows with the copies.
  const maxExits = MAX_RESTARTS_PER_MINUTE * Math.max(...Object.values(scale));

  const launch = (instance: (typeof all)[number]) => {
    const { id, name, port } = instance;
    const childEnv = port === undefined || port === cfg.PORT ? env : { ...env, PORT: String(port) };
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, 'workers', `${name}.ts`)], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.set(id, child);
    child.once('exit', (code, signal) => {
      children.delete(id);
      if (stopping) return;
      const now = Date.now();
      exits.push(now);
      while (exits.length && exits[0] < now - 60_000) exits.shift();
      if (code === 78 || exits.length > maxExits) {
        say(`${id} exited (${signal ?? `code ${code}`}); ${code === 78 ? 'a configuration error' : 'too many exits this minute'}: stopping everything`);
        void stop(1);
        return;
      }
      say(`${id} exited (${signal ?? `code ${code}`}); restarting it in 1 s`);
      setTimeout(() => {
        if (!stopping) launch(instance);
      }, 1000);
    });
  };

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const all = [...children.values()];
    await Promise.all(
      all.map(
        (c) =>
          new Promise<void>((res) => {
            if (c.exitCode !== null || c.signalCode !== null) return res();
            c.once('exit', () => res());
            c.kill('SIGTERM');
            setTimeout(() => c.exitCode === null && c.kill('SIGKILL'), cfg.SHUTDOWN_TIMEOUT_MS + 5000).unref();
          }),
      ),
    );
    await local.stop();
    process.exit(code);
  };
  // `on`, not `once` (stop runs once): a SIGTERM to the process group reaches this process and
  // may come again relayed by a parent; a second one without a listener would end it at once,
  // before it stops its children and gives its lease back.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  for (const instance of all) launch(instance);
  const url = cfg.PUBLIC_URL || `http://localhost:${cfg.PORT}`;
  if (cfg.PORT === 0) {
    say('PORT=0: the web process prints the port it got in its "listening" log line');
    return;
  }
  const ports = all.flatMap((i) => (i.port === undefined ? [] : [i.port]));
  for (let i = 0; i < 240 && !stopping; i++) {
    const up = await Promise.all(
      ports.map((port) =>
        fetch(`http://127.0.0.1:${port}/v2/health`).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (up.every(Boolean)) {
      if (ports.length > 1) say(`${ports.length} web copies on ports ${ports.join(', ')}`);
      return ready(url);
    }
    await sleep(500);
  }
}

async function oneProcess(cfg: Config, local: LocalServices): Promise<void> {
  const { services, stopAll } = await runServices('all', Object.values(ALL_STARTERS));
  const web = services.find((s) => 'url' in s) as { url?: string } | undefined;
  ready(web?.url ?? '');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), cfg.SHUTDOWN_TIMEOUT_MS + 10000).unref();
    void stopAll()
      .then(() => local.stop())
      .then(() => process.exit(0));
  };
  // `on`, not `once`: see onePerProcess.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Runs the stack on servers already found or started (this run's lease on them is `local`), as
 * `npm start` does; stopping it (SIGINT/SIGTERM) gives the lease back. The side-by-side test runs
 * two of these on servers of its own.
 */
export async function runStack(local: LocalServices, opts: { oneProcess?: boolean; scale?: Scale } = {}): Promise<void> {
  setEnvForChildren(local.env);
  const cfg = getConfigOrExit();
  await (opts.oneProcess ? oneProcess(cfg, local) : onePerProcess(cfg, local, opts.scale ?? ONE_EACH));
}

const USAGE = 'npm start [-- --one-process | --scale web=2,ingest=2,ai=2,settlement=2,scheduler=2]';

/** The command line: `--one-process`, or `--scale <pairs>` (also `--scale=<pairs>`); a bad one exits 2 naming it. */
function parseStartArgs(args: string[]): { oneProcess: boolean; scale?: Scale } {
  const usage = (msg: string): never => {
    process.stderr.write(`${msg} (${USAGE})\n`);
    process.exit(2);
  };
  let oneProcess = false;
  let scale: Scale | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--one-process') oneProcess = true;
    else if (a === '--scale' || a.startsWith('--scale=')) {
      const value = a === '--scale' ? args[++i] : a.slice('--scale='.length);
      if (value === undefined) return usage('--scale needs a value');
      try {
        scale = parseScale(value);
      } catch (err) {
        return usage(err instanceof Error ? err.message : String(err));
      }
    } else return usage(`unknown argument ${a}`);
  }
  if (oneProcess && scale) return usage('--scale runs each copy as its own process: it does not go with --one-process');
  return { oneProcess, scale };
}

async function run(): Promise<void> {
  const opts = parseStartArgs(process.argv.slice(2));
  const local = await startLocalServices();
  endWithNpm();
  await runStack(local, opts);
}

if (require.main === module) run().catch((err) => failEntry('start failed', err));
