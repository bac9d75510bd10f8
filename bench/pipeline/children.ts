import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../..');

/** The Procfile processes, each started as its own OS process the way the Procfile runs it. */
export const PROCESSES = ['web', 'ingest', 'ai', 'settlement', 'scheduler'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export interface Worker {
  name: ProcessName;
  child: ChildProcess;
  peakRssKb: number;
  exited: Promise<number | null>;
}

/**
 * Starts one process; its output goes to `<logDir>/<name>.log`, and each stdout line that is a
 * JSON log record is also handed to `onRecord` (the ingest's 'provider polled' lines carry the
 * poll durations).
 */
export function startWorker(name: ProcessName, env: Record<string, string | undefined>, logDir: string, onRecord: (rec: Record<string, unknown>) => void): Worker {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(ROOT, 'workers', `${name}.ts`)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(join(logDir, `${name}.log`));
  child.stderr.pipe(log, { end: false });
  createInterface({ input: child.stdout }).on('line', (line) => {
    log.write(`${line}\n`);
    if (!line.startsWith('{')) return;
    try {
      onRecord(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log record
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { name, child, peakRssKb: 0, exited };
}

/** VmRSS and VmHWM (peak) of a live process, in kB; undefined once it has exited. */
export function memoryOf(pid: number | undefined): { rssKb: number; hwmKb: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (f: string) => Number(new RegExp(`^${f}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** SIGTERM (the workers' graceful stop), SIGKILL after `graceMs`. */
export async function stopWorkers(workers: Worker[], graceMs = 15_000): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      if (w.child.exitCode !== null || w.child.signalCode !== null) return;
      w.child.kill('SIGTERM');
      const killer = setTimeout(() => w.child.kill('SIGKILL'), graceMs);
      await w.exited;
      clearTimeout(killer);
    }),
  );
}
