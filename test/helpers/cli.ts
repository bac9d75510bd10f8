import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bootstrapEnv } from '../../shared/platform/config';

const ROOT = resolve(__dirname, '../..');

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
  json: any;
}

/** `npm run cli -- <args>` as its own process, against this run's database and Redis (plus `env`). */
export function cliWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((done) => {
    // Node itself with tsx's loader: tsx's command would start a second Node process to run it.
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, 'scripts/cli.ts'), ...args], { cwd: ROOT, env: { ...bootstrapEnv().all, LOG_LEVEL: 'warn', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(out);
      } catch {
        json = undefined;
      }
      done({ code, out, err, json });
    });
  });
}

export const cli = (...args: string[]) => cliWith({}, ...args);
