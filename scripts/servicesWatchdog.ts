/**
 * The watchdog of the servers scripts/services.ts started in a directory (`.local`, or a test's):
 * `node --require tsx/cjs scripts/servicesWatchdog.ts <dir>`, started detached (a process group
 * and session of its own) by the run that starts the servers, or by a run that finds them
 * without a live watchdog, and recorded in <dir>/services.json.
 *
 * Every WATCHDOG_TICK_MS it looks at the leases in <dir>/runs (a lease whose pid is dead counts
 * for nothing). When no live run has held one for WATCHDOG_GRACE_MS (a run just starting takes
 * the lock before it starts anything and its lease before it gives the lock back), it takes
 * <dir>/services.lock, looks again, stops the servers as the last run's release does, and exits.
 * That is what stops the servers of runs that ended without giving their lease back: a SIGKILL,
 * or a parent that killed them before their exit code ran.
 *
 * It exits too when it is no longer the recorded watchdog: the last run out stopped the servers
 * (and removed the record), another watchdog was recorded, or the directory is gone.
 */
import { isAbsolute } from 'node:path';
import { anyLiveRun, liveRuns, readRecord, stopServers, tryLock, unlock, WATCHDOG_GRACE_MS, WATCHDOG_TICK_MS } from './servicesLeases';

const dir = process.argv[2];
const log = (msg: string) => process.stdout.write(`${new Date().toISOString()} [watchdog ${process.pid}] ${msg}\n`);

function exit(msg: string): never {
  log(msg);
  process.exit(0);
}

if (!dir || !isAbsolute(dir)) {
  process.stderr.write('usage: servicesWatchdog.ts <absolute directory of services.json>\n');
  process.exit(2);
}

const recorded = () => readRecord(dir).watchdog?.pid === process.pid;
let lastLive = Date.now();

function tick(): void {
  if (!recorded()) exit('not the recorded watchdog (the servers were stopped by the last run, or another watchdog took over): exiting');
  if (anyLiveRun(dir)) {
    lastLive = Date.now();
    return;
  }
  const idle = Date.now() - lastLive;
  if (idle < WATCHDOG_GRACE_MS) return;
  if (!tryLock(dir)) return; // a run is starting, or giving its lease back: look again next tick
  const started = Date.now();
  // Looked at again under the lock (process.exit skips `finally`: the lock is given back first).
  let outcome: 'not recorded' | 'live run' | string[];
  try {
    outcome = !recorded() ? 'not recorded' : liveRuns(dir).length ? 'live run' : stopServers(dir);
  } finally {
    unlock(dir);
  }
  if (outcome === 'not recorded') exit('not the recorded watchdog any more: exiting');
  if (outcome === 'live run') return void (lastLive = Date.now());
  const what = outcome.length ? outcome.join(' and ') : 'nothing (already gone)';
  exit(`no live run for ${(idle / 1000).toFixed(1)} s (the last one ended without giving its lease back): stopped ${what} in ${Date.now() - started} ms; exiting`);
}

// The last run out stops the servers and then this watchdog (SIGTERM), under the lock.
process.on('SIGTERM', () => exit('SIGTERM (the last run out stopped the servers): exiting'));
log(`watching the leases in ${dir}/runs every ${WATCHDOG_TICK_MS} ms (grace ${WATCHDOG_GRACE_MS} ms)`);
setInterval(() => {
  try {
    tick();
  } catch (err) {
    log(`tick failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}, WATCHDOG_TICK_MS);
