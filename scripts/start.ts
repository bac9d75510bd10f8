/**
 * `npm start`: the embedded default. Finds or starts Redis and MongoDB/FerretDB, then runs every
 * Procfile process (web, ingest, ai, settlement, scheduler) as its own child process, as
 * production does: the ai worker's model computing and the ingest worker's polls then use
 * separate cores instead of taking turns on one event loop. `npm start -- --one-process` runs
 * them all in this process instead (less memory, slower at demo speed).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bootstrapEnv, getConfigOrExit, setEnvForChildren, type Config } from '../shared/platform/config';
import { ALL_STARTERS } from '../workers/all';
import { runServices } from '../workers/runtime';
import { startLocalServices, type LocalServices } from './services';

const ROOT = resolve(__dirname, '..');
const PROCFILE = ['web', 'ingest', 'ai', 'settlement', 'scheduler'] as const;
/** A process that keeps dying is not restarted forever: past this many exits a minute, all stop. */
const MAX_RESTARTS_PER_MINUTE = 5;

const say = (msg: string) => process.stderr.write(`[start] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ready(url: string): void {
  process.stdout.write(`\nOdds API ready at ${url}/v2  (health: ${url}/v2/health)\n\n`);
}

async function onePerProcess(cfg: Config, local: LocalServices): Promise<void> {
  const children = new Map<string, ChildProcess>();
  const exits: number[] = [];
  let stopping = false;
  const env = { ...bootstrapEnv().all, ...local.env };

  const launch = (name: string) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, 'workers', `${name}.ts`)], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.set(name, child);
    child.once('exit', (code, signal) => {
      children.delete(name);
      if (stopping) return;
      const now = Date.now();
      exits.push(now);
      while (exits.length && exits[0] < now - 60_000) exits.shift();
      if (code === 78 || exits.length > MAX_RESTARTS_PER_MINUTE) {
        say(`${name} exited (${signal ?? `code ${code}`}); ${code === 78 ? 'a configuration error' : 'too many exits this minute'}: stopping everything`);
        void stop(1);
        return;
      }
      say(`${name} exited (${signal ?? `code ${code}`}); restarting it in 1 s`);
      setTimeout(() => {
        if (!stopping) launch(name);
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
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  for (const name of PROCFILE) launch(name);
  const url = cfg.PUBLIC_URL || `http://localhost:${cfg.PORT}`;
  if (cfg.PORT === 0) {
    say('PORT=0: the web process prints the port it got in its "listening" log line');
    return;
  }
  for (let i = 0; i < 240 && !stopping; i++) {
    const up = await fetch(`http://127.0.0.1:${cfg.PORT}/v2/health`).then(
      () => true,
      () => false,
    );
    if (up) return ready(url);
    await sleep(500);
  }
}

async function oneProcess(cfg: Config, local: LocalServices): Promise<void> {
  const { services, stopAll } = await runServices('all', Object.values(ALL_STARTERS));
  const web = services.find((s) => 'url' in s) as { url?: string } | undefined;
  ready(web?.url ?? '');
  const stop = () => {
    setTimeout(() => process.exit(1), cfg.SHUTDOWN_TIMEOUT_MS + 10000).unref();
    void stopAll()
      .then(() => local.stop())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Runs the stack on servers already found or started (this run's lease on them is `local`), as
 * `npm start` does; stopping it (SIGINT/SIGTERM) gives the lease back. The side-by-side test runs
 * two of these on servers of its own.
 */
export async function runStack(local: LocalServices, opts: { oneProcess?: boolean } = {}): Promise<void> {
  setEnvForChildren(local.env);
  const cfg = getConfigOrExit();
  await (opts.oneProcess ? oneProcess(cfg, local) : onePerProcess(cfg, local));
}

async function run(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.find((a) => a !== '--one-process');
  if (unknown) {
    process.stderr.write(`unknown argument ${unknown} (npm start [-- --one-process])\n`);
    process.exit(2);
  }
  await runStack(await startLocalServices(), { oneProcess: args.includes('--one-process') });
}

if (require.main === module) run().catch((err) => failEntry('start failed', err));
