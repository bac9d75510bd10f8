/**
 * `npm test`: starts (or finds) the real local services, checks the typed client's generated types,
 * type-checks, lints, then runs mocha against
 * them: .mocharc.json's spec globs, test/unit then test/integration, in one run (each file once).
 * Extra arguments go to mocha (`npm test -- --grep health`); test files given as arguments
 * replace the suite's spec globs (`npm test -- test/integration/health.test.ts`).
 * The unit tier alone, with no server: `npm run test:unit` (.mocharc.unit.json).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootstrapEnv } from '../shared/platform/config';
import { ensureChromium } from './chromium';
import { startLocalServices } from './services';

const ROOT = resolve(__dirname, '..');
const bin = (name: string) => resolve(ROOT, 'node_modules', '.bin', name);

async function run(): Promise<number> {
  // The typed client's committed types are what the routes generate (npm run client:types rewrites them).
  const types = spawnSync(bin('tsx'), ['scripts/client-types.ts', '--check'], { cwd: ROOT, stdio: 'inherit' });
  if (types.status !== 0) {
    process.stderr.write('client types check failed\n');
    return types.status ?? 1;
  }
  const tsc = spawnSync(bin('tsc'), ['--noEmit'], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) {
    process.stderr.write('type check failed\n');
    return tsc.status ?? 1;
  }
  // npm run lint: ESLint, the formatter's check (prettier formats TypeScript; docs are prose), the layers.
  for (const [name, cmd] of [
    ['lint', [bin('eslint'), '.']],
    ['format check (npm run format fixes it)', [bin('prettier'), '--check', '--log-level', 'warn', '**/*.{ts,mjs}']],
    ['layer check (.dependency-cruiser.cjs)', [bin('depcruise'), 'shared', 'api', 'workers', 'jobs', 'scripts', 'bench', 'test', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']],
  ] as const) {
    const step = spawnSync(cmd[0], cmd.slice(1), { cwd: ROOT, stdio: 'inherit' });
    if (step.status !== 0) {
      process.stderr.write(`${name} failed\n`);
      return step.status ?? 1;
    }
  }
  const args = process.argv.slice(2);
  // .mocharc's spec globs would be added to files named here: name the same options without them.
  const files = args.some((a) => /\.test\.ts$/.test(a) || existsSync(resolve(ROOT, a)));
  const mochaArgs = files ? ['--no-config', '--require', 'tsx/cjs', '--require', 'test/setup.ts', '--extension', 'ts', '--timeout', '20000', '--exit', ...args] : args;
  // The browser tests need Chromium: installed here when missing (and root), before any test runs;
  // if it cannot be, they fail with the reason rather than being skipped.
  if (!files || args.some((a) => a.includes('test/browser'))) ensureChromium();
  const local = await startLocalServices();
  try {
    // The suite runs on the Node this script runs on: the project's own (the `node` package, Node 24), not the machine's.
    process.stderr.write(`[test] Node ${process.version} (${process.execPath})\n`);
    const mocha = spawnSync(process.execPath, [bin('mocha'), ...mochaArgs], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...bootstrapEnv().all, ...local.env, NODE_ENV: 'test' },
    });
    return mocha.status ?? 1;
  } finally {
    await local.stop();
  }
}

run()
  .then((code) => process.exit(code))
  .catch((err) => failEntry('test run failed', err));
