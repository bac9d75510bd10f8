import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { bootstrapEnv } from '../../shared/platform/config';
import { spawnEntry } from '../helpers/processes';

const ROOT = resolve(__dirname, '../..');
const STACK_LINE = /^\s+at /m;

interface Run {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Runs a command as a real child process; a stuck one is killed so the test fails instead of hanging. */
function run([cmd, args]: Command, env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(cmd, [...args], { cwd: ROOT, env: { ...bootstrapEnv().all, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr });
    });
  });
}

type Command = readonly [string, readonly string[]];
const npm = (...args: string[]): Command => ['npm', args];
/** As the Procfile runs a process: one node with the TypeScript loader. */
const node = (entry: string, ...args: string[]): Command => [process.execPath, ['--require', 'tsx/cjs', entry, ...args]];

/** Every entry point, each with a different bad variable. */
const CASES: { entry: string; command: Command; env: Record<string, string>; variable: string }[] = [
  { entry: 'npm start', command: npm('start'), env: { PORT: 'abc' }, variable: 'PORT' },
  { entry: 'npm test', command: npm('test', '--', 'test/unit/config.test.ts'), env: { POLL_INTERVAL_MS: '-1' }, variable: 'POLL_INTERVAL_MS' },
  { entry: 'npm run cli', command: npm('run', 'cli', '--', 'list-keys', '--account', 'x'), env: { MONGODB_URI: 'nope' }, variable: 'MONGODB_URI' },
  { entry: 'npm run services', command: npm('run', 'services'), env: { SIM_SPEED: '0' }, variable: 'SIM_SPEED' },
  { entry: 'npm run backtest', command: npm('run', 'backtest'), env: { LOG_LEVEL: 'loud' }, variable: 'LOG_LEVEL' },
  { entry: 'web', command: node('workers/web.ts'), env: { PORT: '99999' }, variable: 'PORT' },
  { entry: 'ingest', command: node('workers/ingest.ts'), env: { PROVIDERS: 'simulated,bogus' }, variable: 'PROVIDERS' },
  { entry: 'ai', command: node('workers/ai.ts'), env: { AI_MIN_EDGE: '99' }, variable: 'AI_MIN_EDGE' },
  { entry: 'settlement', command: node('workers/settlement.ts'), env: { SETTLEMENT_CONCURRENCY: '0' }, variable: 'SETTLEMENT_CONCURRENCY' },
  { entry: 'scheduler', command: node('workers/scheduler.ts'), env: { LOG_LEVEL: 'loud' }, variable: 'LOG_LEVEL' },
  { entry: 'npm run bench:api', command: npm('run', 'bench:api'), env: { SIM_EPOCH: 'yesterday' }, variable: 'SIM_EPOCH' },
  { entry: 'npm run bench:ingest', command: npm('run', 'bench:ingest'), env: { SIM_SPEED: '0' }, variable: 'SIM_SPEED' },
  { entry: 'npm run bench:metering', command: npm('run', 'bench:metering'), env: { ADMIN_USER: 'admin' }, variable: 'ADMIN_PASSWORD' },
  { entry: 'npm run bench:settlement', command: npm('run', 'bench:settlement'), env: { CACHE_TTL_S: 'x' }, variable: 'CACHE_TTL_S' },
  { entry: 'npm run bench:ai', command: npm('run', 'bench:ai'), env: { NODE_ENV: 'staging' }, variable: 'NODE_ENV' },
  { entry: 'npm run bench:pipeline', command: npm('run', 'bench:pipeline', '--', '--minutes', '1'), env: { SIM_SEED: '-5' }, variable: 'SIM_SEED' },
  { entry: 'npm run bench:grading', command: npm('run', 'bench:grading'), env: { MONGODB_DB: 'a/b' }, variable: 'MONGODB_DB' },
];

/** Runs at most `limit` at once: the machine is small and each entry loads the TypeScript loader. */
async function inBatches<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

describe('a bad configuration variable at any entry point', function () {
  this.timeout(180000);
  // A listener that never answers stands in for MongoDB and Redis and counts who connects.
  let trap: Server;
  let connections = 0;
  let trapUrl: (scheme: string) => string;
  const results = new Map<string, Run>();

  before(async () => {
    trap = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const port = (trap.address() as AddressInfo).port;
    trapUrl = (scheme) => `${scheme}://127.0.0.1:${port}`;
    const runs = await inBatches(CASES, 4, (c) => run(c.command, { MONGODB_URI: trapUrl('mongodb'), REDIS_URL: trapUrl('redis'), ...c.env }));
    CASES.forEach((c, i) => results.set(c.entry, runs[i]));
  });

  after(() => trap.close());

  describe('error', () => {
    for (const c of CASES) {
      it(`${c.entry} exits 78 with one line naming ${c.variable}, no stack trace`, () => {
        const r = results.get(c.entry)!;
        expect(r.code, r.stderr).to.equal(78);
        expect(r.stderr).to.match(new RegExp(`^Configuration error: ${c.variable} `, 'm'));
        expect(r.stderr.match(/Configuration error/g)).to.have.length(1);
        expect(r.stderr).not.to.match(STACK_LINE);
      });
    }

    it('no entry connected to MongoDB or Redis before exiting', () => {
      expect(connections).to.equal(0);
    });

    for (const how of ['throw', 'reject']) {
      it(`a ConfigError raised after start (${how}) still ends as the one line and 78`, async () => {
        const r = await run(node('test/fixtures/lateConfigError.ts', how), {});
        expect(r.code, r.stderr).to.equal(78);
        expect(r.stderr).to.match(/^Configuration error: CACHE_TTL_S must be an integer/m);
        expect(r.stderr).not.to.match(STACK_LINE);
      });
    }
  });

  describe('happy', () => {
    it('with a valid environment the entry goes on to its own checks (a bad argument exits 2, not 78)', async () => {
      const r = await run(node('scripts/backtest.ts', '--books', 'Nope'), {});
      expect(r.code, r.stderr).to.equal(2);
      expect(r.stderr).to.match(/--books/);
      expect(r.stderr).not.to.match(/Configuration error/);
    });
  });

  describe('security', () => {
    it('the line never echoes a secret value', async () => {
      const r = await run(node('workers/web.ts'), { ADMIN_USER: 'admin', ADMIN_PASSWORD: 'hunter2', PORT: 'x', MONGODB_URI: trapUrl('mongodb'), REDIS_URL: trapUrl('redis') });
      expect(r.code).to.equal(78);
      expect(r.stderr).to.match(/Configuration error: PORT/);
      expect(r.stderr + r.stdout).not.to.include('hunter2');
    });
  });
});

// Moved from test/unit/config.test.ts: it starts a worker process, so it belongs to this tier.
describe('config error in one worker process', () => {
  it('a process with a bad variable exits non-zero naming it, before connecting anywhere', async function () {
    this.timeout(15000);
    // A listener that never answers stands in for MongoDB and Redis and counts who connects.
    let connections = 0;
    const trap = createServer(() => connections++);
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const port = (trap.address() as AddressInfo).port;
    const p = spawnEntry('workers/web.ts', { PORT: 'not-a-port', MONGODB_URI: `mongodb://127.0.0.1:${port}`, REDIS_URL: `redis://127.0.0.1:${port}` });
    const killer = setTimeout(() => p.child.kill('SIGKILL'), 10000);
    const { code } = await p.exited;
    clearTimeout(killer);
    trap.close();
    expect(code).to.equal(78);
    expect(connections).to.equal(0);
    expect(p.output()).to.match(/Configuration error: PORT must be an integer/);
  });
});
