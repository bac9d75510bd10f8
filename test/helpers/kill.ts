import { execFileSync } from 'node:child_process';
import type { Spawned } from './processes';

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/**
 * SIGKILL a spawned entry and everything under it. `tsx` runs the entry in a child node process
 * and relays SIGTERM, but a SIGKILL of the tsx process alone would orphan the real worker, which
 * would go on running: a "crash" test must kill the process that does the work.
 */
export async function sigkillTree(p: Spawned): Promise<void> {
  const kill = (pid: number) => {
    for (const c of childrenOf(pid)) kill(c);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  if (p.child.pid && p.child.exitCode === null && p.child.signalCode === null) kill(p.child.pid);
  await p.exited;
}
