/**
 * `npm run contract`: the OpenAPI document checked as the tools a client's developer points at it
 * would check it. First Redocly CLI's lint (redocly.yaml: its recommended rules) of the document
 * the routes build under the default configuration, where any error or warning fails; then the
 * contract tests (test/integration/contract/) against the real local services: every GET
 * operation of the served document called and each answer validated against it.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bootstrapEnv } from '../shared/platform/config';

const ROOT = resolve(__dirname, '..');
const REDOCLY = resolve(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

/** One problem Redocly reports: its rule, severity, message and where (JSON pointers into the document). */
export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

/** A problem on one line: severity, rule, where, what. */
export const describeProblem = (p: LintProblem) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    // The project's Node runs it; no usage data leaves the machine, no update check.
    const child = spawn(process.execPath, [REDOCLY, ...args], {
      cwd: ROOT,
      env: { ...bootstrapEnv().all, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Redocly's lint of one document (the repository's redocly.yaml): every problem it reports. */
export async function lintDocument(document: object): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { code, stdout, stderr } = await run(['lint', file, '--config', resolve(ROOT, 'redocly.yaml'), '--format=json']);
    let report: { totals?: unknown; problems?: LintProblem[] };
    try {
      report = JSON.parse(stdout) as typeof report;
    } catch {
      throw new Error(`redocly lint answered no report (exit ${code}): ${stderr.trim() || stdout.trim()}`);
    }
    if (!Array.isArray(report.problems)) throw new Error(`redocly lint's report has no problems list: ${stdout.slice(0, 200)}`);
    return report.problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  // The contract tests first: the document's build below sets the configuration to its defaults in this process.
  const { startLocalServices } = await import('./services');
  const local = await startLocalServices();
  let tests: number;
  try {
    const mocha = resolve(ROOT, 'node_modules/.bin/mocha');
    const args = ['--no-config', '--require', 'tsx/cjs', '--require', 'test/setup.ts', '--extension', 'ts', '--timeout', '20000', '--exit', 'test/integration/contract/*.test.ts'];
    tests = await new Promise<number>((done) => {
      const child = spawn(process.execPath, [mocha, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...bootstrapEnv().all, ...local.env, NODE_ENV: 'test' } });
      child.on('close', (c) => done(c ?? 1));
    });
  } finally {
    await local.stop();
  }
  const { defaultDocument } = await import('./client-types');
  // Its server as openApiDocument names it without PUBLIC_URL (served, the request's origin replaces it).
  const problems = await lintDocument({ ...(await defaultDocument()), servers: [{ url: '/' }] });
  for (const p of problems) process.stderr.write(`${describeProblem(p)}\n`);
  process.stderr.write(`[contract] redocly lint (recommended): ${problems.filter((p) => p.severity === 'error').length} errors, ${problems.filter((p) => p.severity === 'warn').length} warnings\n`);
  return problems.length || tests ? 1 : 0;
}

if (require.main === module) {
  main()
    .then((code) => process.exit(code))
    .catch((err) => failEntry('contract check failed', err));
}
