import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bootstrapEnv } from '../../shared/platform/config';

const ROOT = resolve(__dirname, '../..');

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs a project entry point (e.g. workers/settlement.ts) as its own OS process: one node process
 * with the TypeScript loader, as the Procfile runs it (the tsx CLI would add a signal-relaying
 * parent process between the test and the worker).
 */
export function spawnEntry(entry: string, env: Record<string, string> = {}, args: readonly string[] = []): Spawned {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', resolve(ROOT, entry), ...args], { cwd: ROOT, env: { ...bootstrapEnv().all, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, output: () => out, exited };
}

export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
