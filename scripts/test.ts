/**
 * `npm test`: starts (or finds) the real local services, then runs the checks (the typed client's
 * generated types, the type check, ESLint, Prettier's check, the layer rules) and mocha side by
 * side: the checks mostly use a core while the tests mostly wait for servers and processes.
 *
 * The whole suite (no test file named) runs in mocha's parallel mode, `--jobs` workers
 * (JOBS below: 4), each test file in one worker with its own database and Redis
 * prefix (test/setup.ts): the files are given slowest first, from test/file-times.json, so the
 * longest start at once and the short ones fill in around them. Extra arguments go to mocha
 * (`npm test -- --grep health`); test files given as arguments replace the suite's spec globs and
 * run in one process, in order (`npm test -- test/integration/health.test.ts`); `--serial` runs
 * the whole suite in one process. At the end: the ten slowest files of this run (their time,
 * hooks included), and .local/test-times.json with every file's.
 * The unit tier alone, with no server: `npm run test:unit` (.mocharc.unit.json).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrapEnv } from '../shared/platform/config';
import { ensureChromium } from './chromium';
import { startLocalServices } from './services';
import { FILE_TIMES_LOG, readFileTimes, suiteFiles } from './testFiles';

const ROOT = resolve(__dirname, '..');
const bin = (name: string) => resolve(ROOT, 'node_modules', '.bin', name);
const JOBS = 4;

interface Step {
  name: string;
  cmd: string;
  args: string[];
}

const CHECKS: Step[] = [
  { name: 'client types (npm run client:types rewrites them)', cmd: bin('tsx'), args: ['scripts/client-types.ts', '--check'] },
  { name: 'type check', cmd: bin('tsc'), args: ['--noEmit'] },
  { name: 'lint', cmd: bin('eslint'), args: ['.'] },
  { name: 'format check (npm run format fixes it)', cmd: bin('prettier'), args: ['--check', '--log-level', 'warn', '**/*.{ts,mjs}'] },
  {
    name: 'layer check (.dependency-cruiser.cjs)',
    cmd: bin('depcruise'),
    args: ['shared', 'api', 'workers', 'jobs', 'scripts', 'bench', 'test', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
  },
];

/** Runs the checks one after the other, their output kept; resolves with the first failure's name and output, or null. */
async function runChecks(): Promise<{ failed: string; output: string } | null> {
  for (const step of CHECKS) {
    const { code, output } = await new Promise<{ code: number; output: string }>((done) => {
      const child = spawn(step.cmd, step.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => chunks.push(d));
      child.stderr.on('data', (d: Buffer) => chunks.push(d));
      child.on('close', (c) => done({ code: c ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
    });
    if (code !== 0) return { failed: step.name, output };
  }
  return null;
}

function runMocha(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin('mocha'), ...args], { cwd: ROOT, stdio: 'inherit', env });
    child.on('close', (c) => done(c ?? 1));
  });
}

/** The slowest files of this run, from the log the test processes wrote (test/helpers/fileTimes.ts). */
function reportFileTimes(): void {
  const times = readFileTimes(resolve(ROOT, FILE_TIMES_LOG));
  if (!times.length) return;
  writeFileSync(resolve(ROOT, '.local/test-times.json'), `${JSON.stringify(Object.fromEntries(times.map((t) => [t.file, Math.round(t.ms) / 1000])), null, 2)}\n`);
  const lines = ['[test] the ten slowest files (seconds, hooks included; all of them in .local/test-times.json):'];
  for (const t of times.slice(0, 10)) lines.push(`  ${(t.ms / 1000).toFixed(1).padStart(7)}  ${t.file}`);
  process.stderr.write(`${lines.join('\n')}\n`);
}

async function run(): Promise<number> {
  const started = Date.now();
  const args = process.argv.slice(2);
  const serial = args.includes('--serial');
  const rest = args.filter((a) => a !== '--serial');
  // .mocharc's spec globs would be added to files named here: name the same options without them.
  const named = rest.some((a) => /\.test\.ts$/.test(a) || (!a.startsWith('-') && existsSync(resolve(ROOT, a))));
  const base = ['--no-config', '--require', 'tsx/cjs', '--require', 'test/setup.ts', '--extension', 'ts', '--timeout', '20000', '--exit'];
  const mochaArgs = named ? [...base, ...rest] : serial ? rest : [...base, '--parallel', '--jobs', String(JOBS), ...rest, ...suiteFiles(ROOT)];
  // The browser tests need Chromium: installed here when missing (and root), before any test runs;
  // if it cannot be, they fail with the reason rather than being skipped.
  if (!named || rest.some((a) => a.includes('test/browser'))) ensureChromium();
  const local = await startLocalServices();
  try {
    // The suite runs on the Node this script runs on: the project's own (the `node` package, Node 24), not the machine's.
    process.stderr.write(
      `[test] Node ${process.version} (${process.execPath}); ${named ? 'the files named' : serial ? 'the suite in one process' : `the suite, ${JOBS} files at a time`}, the checks beside\n`,
    );
    rmSync(resolve(ROOT, FILE_TIMES_LOG), { force: true });
    const checks = runChecks().then((r) => {
      process.stderr.write(r ? `${r.output}\n[test] ${r.failed} failed\n` : `[test] client types, type check, lint, format, layers: ok (${Math.round((Date.now() - started) / 1000)} s)\n`);
      return r;
    });
    const mocha = await runMocha(mochaArgs, { ...bootstrapEnv().all, ...local.env, NODE_ENV: 'test' });
    const failedCheck = await checks;
    if (!named) reportFileTimes();
    process.stderr.write(`[test] ${Math.round((Date.now() - started) / 1000)} s in all\n`);
    if (failedCheck) return 1;
    return mocha;
  } finally {
    await local.stop();
  }
}

run()
  .then((code) => process.exit(code))
  .catch((err) => failEntry('test run failed', err));
