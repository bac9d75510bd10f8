import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { bootstrapEnv } from '../../../shared/platform/config';
import { dropDatabase, ferretDatabaseName, LOCAL_POSTGRES_URL } from '../../../scripts/postgres';
import { freePort, pidAlive } from '../../../scripts/services';
import { waitUntil } from '../../helpers/processes';

const ROOT = resolve(__dirname, '../../..');

interface Run {
  /** npm's pid, the id of the run's process group. */
  group: number;
  child: ChildProcess;
  output: () => string;
  /** Everything the run wrote, once its pipes have ended (at most 5 s after the call). */
  finalOutput: () => Promise<string>;
}

/** `npm start` (its arguments after `--`) in a process group of its own, on servers of `dir`'s own (LOCAL_SERVICES_DIR), the web on `port`. */
function npmStart(dir: string, port: number, args: string[] = []): Run {
  const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...bootstrapEnv().all,
      LOCAL_SERVICES_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MONGODB_DB: `ended_${port}`,
      REDIS_PREFIX: `ended_${port}`,
      LOG_LEVEL: 'warn',
      POLL_INTERVAL_MS: '5000',
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  // The pipes end when every process of the run holding them has exited; a look at /proc can
  // see them gone before their last lines were read.
  const ended = (s: NodeJS.ReadableStream) => new Promise<void>((res) => s.once('close', () => res()));
  const drained = Promise.all([ended(child.stdout), ended(child.stderr)]);
  const output = async () => {
    await Promise.race([drained, new Promise((res) => setTimeout(res, 5000))]);
    return out;
  };
  return { group: child.pid!, child, output: () => out, finalOutput: output };
}

interface Recorded {
  redis?: { pid: number };
  mongo?: { pid: number };
  watchdog?: { pid: number };
}

const record = (dir: string): Recorded => (existsSync(join(dir, 'services.json')) ? (JSON.parse(readFileSync(join(dir, 'services.json'), 'utf8')) as Recorded) : {});
const leases = (dir: string) => (existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : []);

/** The live processes of a process group (/proc/<pid>/stat: the fifth field is the group). */
function groupMembers(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

const kill = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
};

/** Waits until none of pids is alive; the milliseconds it took from `since`. */
async function goneWithin(what: string, pids: number[], since: number, timeoutMs: number): Promise<number> {
  await waitUntil(`${what} gone (pids ${pids.join(', ')})`, () => pids.every((p) => !pidAlive(p)), timeoutMs - (Date.now() - since), 100);
  return Date.now() - since;
}

/**
 * However a run ends, the servers it started are stopped once no live run uses them. `npm start`
 * stopped the way a harness stops it (SIGTERM to its process group) left FerretDB running with
 * the dead run's lease: tsx's CLI relays the signal to the node process it runs and SIGKILLs it
 * when it does not answer within 30 ms, before the run gave its lease back; and a run killed
 * outright (SIGKILL) runs no code at all. `npm start` now `exec`s node (no relaying parent: npm
 * relays a signal to the run itself, and the run stops when npm dies), and the servers' watchdog
 * (scripts/servicesWatchdog.ts) stops them when no live run has held a lease for 3 s. Each test runs `npm start` on servers of a directory of its own
 * (LOCAL_SERVICES_DIR: a redis-server and a FerretDB on free ports), never the machine's.
 */
describe('local services: the servers of runs that ended', function () {
  this.timeout(180000);
  const runs: Run[] = [];
  const dirs: string[] = [];
  const seen = new Set<number>();
  /** Remembers the recorded pids (servers and watchdog), for the cleanup. */
  const servers = (dir: string) => {
    const r = record(dir);
    const pids = [r.mongo?.pid, r.redis?.pid].filter((p): p is number => Boolean(p));
    for (const p of [...pids, r.watchdog?.pid ?? 0]) if (p) seen.add(p);
    return { pids, watchdog: r.watchdog?.pid };
  };

  afterEach(async () => {
    for (const r of runs.splice(0)) kill(-r.group, 'SIGKILL');
    for (const p of seen) if (pidAlive(p)) kill(p, 'SIGKILL');
    seen.clear();
    for (const dir of dirs.splice(0)) {
      await dropDatabase(LOCAL_POSTGRES_URL, ferretDatabaseName(dir)).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const start = async (name: string, args: string[] = [], dir?: string) => {
    const port = await freePort();
    const own = dir ?? join(ROOT, '.local', `ended-${name}-${port}`);
    if (!dir) dirs.push(own);
    const run = npmStart(own, port, args);
    runs.push(run);
    await waitUntil('the stack ready', () => run.output().includes('Odds API ready at') || run.child.exitCode !== null, 150000, 250);
    expect(run.output(), `npm start ready (exit code ${run.child.exitCode}); its output:\n${run.output().slice(-3000)}`).to.include('Odds API ready at');
    const s = servers(own);
    expect(s.pids, 'a redis-server and a FerretDB started').to.have.length(2);
    expect(s.watchdog, 'their watchdog recorded').to.be.a('number');
    return { run, dir: own, ...s };
  };

  it('happy: npm start (every Procfile process) stopped by SIGTERM to its process group stops its servers, its lease given back by the run itself', async () => {
    const { run, dir, pids, watchdog } = await start('term');
    expect(leases(dir)).to.have.length(1);
    const t0 = Date.now();
    kill(-run.group, 'SIGTERM');
    const ms = await goneWithin('FerretDB and redis-server', pids, t0, 10000);
    await goneWithin('every process of the run', groupMembers(run.group), t0, 10000);
    await goneWithin('the watchdog', [watchdog!], t0, 10000);
    expect(leases(dir), 'no lease left').to.deep.equal([]);
    expect(existsSync(join(dir, 'services.json')), 'record removed').to.equal(false);
    // Stopped by the run's own release (the last run out), not by the watchdog after it.
    const out = await run.finalOutput();
    expect(out, out).to.match(/the last run out stopped FerretDB .* and redis-server/);
    process.stdout.write(`      (servers gone ${(ms / 1000).toFixed(1)} s after the SIGTERM)\n`);
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`happy: npm start whose npm process alone gets ${signal} ends, and the run stops its servers`, async () => {
      const { run, dir, pids } = await start(`npm-${signal.toLowerCase()}`, ['--one-process']);
      const t0 = Date.now();
      kill(run.group, signal); // npm only: it relays a SIGTERM to the run; a SIGKILL leaves the run without a parent
      const ms = await goneWithin('FerretDB and redis-server', pids, t0, 10000);
      await goneWithin('every process of the run', groupMembers(run.group), t0, 10000);
      expect(leases(dir), 'no lease left').to.deep.equal([]);
      const out = await run.finalOutput();
      expect(out, out).to.match(/the last run out stopped FerretDB .* and redis-server/);
      if (signal === 'SIGKILL') expect(out).to.match(/npm \(pid \d+\) is gone: stopping/);
      process.stdout.write(`      (servers gone ${(ms / 1000).toFixed(1)} s after the ${signal})\n`);
    });
  }

  it('error: npm start whose run is killed outright (SIGKILL) has its servers stopped by their watchdog', async () => {
    const { run, dir, pids, watchdog } = await start('kill', ['--one-process']);
    const [lease] = leases(dir).map(Number);
    expect(lease, 'the lease of the run').to.be.a('number');
    const t0 = Date.now();
    kill(lease, 'SIGKILL');
    const ms = await goneWithin('FerretDB and redis-server', pids, t0, 10000);
    await goneWithin('every process of the run', groupMembers(run.group), t0, 10000);
    await goneWithin('the watchdog, once done', [watchdog!], t0, 10000);
    expect(leases(dir), 'the dead run lease removed').to.deep.equal([]);
    expect(existsSync(join(dir, 'services.json')), 'record removed').to.equal(false);
    expect(readFileSync(join(dir, 'logs', 'watchdog.log'), 'utf8')).to.match(/no live run for .* stopped FerretDB .* and redis-server/);
    process.stdout.write(`      (servers gone ${(ms / 1000).toFixed(1)} s after the SIGKILL)\n`);
  });

  it('error: a run that finds the servers of a dead run (its watchdog dead too) reuses them and starts a watchdog that stops them after it', async () => {
    const first = await start('reuse', ['--one-process']);
    // The run and the watchdog killed outright: the servers are left with nobody to stop them.
    kill(first.watchdog!, 'SIGKILL');
    kill(-first.run.group, 'SIGKILL');
    await goneWithin('the first run and its watchdog', [first.watchdog!, ...groupMembers(first.run.group)], Date.now(), 10000);
    expect(first.pids.every(pidAlive), 'servers left running').to.equal(true);

    const second = await start('reuse', ['--one-process'], first.dir);
    expect(second.run.output()).to.match(/already running, shared/);
    expect(second.pids.sort(), 'the same servers').to.deep.equal([...first.pids].sort());
    expect(second.watchdog, 'a new watchdog').to.not.equal(first.watchdog);
    const t0 = Date.now();
    kill(-second.run.group, 'SIGKILL');
    const ms = await goneWithin('FerretDB and redis-server', second.pids, t0, 10000);
    await goneWithin('the new watchdog, once done', [second.watchdog!], t0, 10000);
    expect(leases(first.dir)).to.deep.equal([]);
    expect(existsSync(join(first.dir, 'services.json')), 'record removed').to.equal(false);
    process.stdout.write(`      (servers gone ${(ms / 1000).toFixed(1)} s after the SIGKILL)\n`);
  });
});
