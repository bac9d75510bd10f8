/**
 * The record, the leases and the lock of the servers scripts/services.ts starts for a checkout
 * (or for a test's directory), and the watchdog that stops them when the runs using them died.
 *
 * - `<dir>/services.json` records the servers (pid, and a marker their command line holds so a
 *   reused pid is not mistaken for them) and their watchdog.
 * - `<dir>/runs/<pid>` is a run's lease; a lease whose pid is dead counts for nothing.
 * - `<dir>/services.lock` (O_EXCL, the holder's pid; a dead holder's is taken over) serializes
 *   taking a lease (with starting what is missing), giving one back (the last live one stops the
 *   servers) and the watchdog's stop.
 * - The watchdog (scripts/servicesWatchdog.ts) is a small detached process, in a process group of
 *   its own like the servers, started with them (or by a run that finds them without a live one).
 *   Every WATCHDOG_TICK_MS it looks at the leases; when no live run has held one for
 *   WATCHDOG_GRACE_MS it takes the lock, stops the servers as the last release does, and exits.
 *   It covers the runs that end without giving their lease back: SIGKILL, or killed by a parent
 *   before their exit code ran.
 *
 * Kept apart from scripts/services.ts (no MongoDB driver, no configuration, no data layer) so the
 * watchdog, which stays up as long as the servers, is a small process.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { stopPrivateCluster } from './pgCtl';

const ROOT = resolve(__dirname, '..');
const WATCHDOG_ENTRY = join(ROOT, 'scripts', 'servicesWatchdog.ts');
/** How often the watchdog looks at the leases. */
export const WATCHDOG_TICK_MS = 1000;
/** How long no live run must have held a lease before the watchdog stops the servers. */
export const WATCHDOG_GRACE_MS = 3000;

const say = (msg: string) => process.stderr.write(`[services] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process the bootstrap started, as recorded in services.json. */
export interface RecordedProcess {
  pid: number;
  /** Text its command line contains (a port, a directory): a reused pid is not mistaken for it. */
  marker: string;
}

/** A server the bootstrap started. */
export interface RecordedServer extends RecordedProcess {
  url: string;
  kind: string;
}

export interface RecordedMongo extends RecordedServer {
  ferretPostgresUrl?: string;
  /** The private PostgreSQL cluster FerretDB stores in, stopped after FerretDB. */
  privateDataDir?: string;
}

export interface ServicesRecord {
  version: 2;
  redis?: RecordedServer;
  mongo?: RecordedMongo;
  /** The watchdog of these servers (scripts/servicesWatchdog.ts). */
  watchdog?: RecordedProcess;
}

const recordPath = (dir: string) => join(dir, 'services.json');
const runsDir = (dir: string) => join(dir, 'runs');
const lockPath = (dir: string) => join(dir, 'services.lock');

const field = (o: object, k: string): unknown => Object.getOwnPropertyDescriptor(o, k)?.value;

function isRecordedProcess(v: unknown): v is RecordedProcess {
  return typeof v === 'object' && v !== null && typeof field(v, 'pid') === 'number' && typeof field(v, 'marker') === 'string';
}

function isRecordedServer(v: unknown): v is RecordedServer {
  return isRecordedProcess(v) && typeof field(v, 'url') === 'string' && typeof field(v, 'kind') === 'string';
}

const optionalString = (o: object, k: string) => !(k in o) || typeof field(o, k) === 'string';

function isRecordedMongo(v: unknown): v is RecordedMongo {
  return isRecordedServer(v) && optionalString(v, 'ferretPostgresUrl') && optionalString(v, 'privateDataDir');
}

/** The record, checked; a record of an older layout (one server, no leases) or unreadable is none. */
export function readRecord(dir: string): ServicesRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(recordPath(dir), 'utf8'));
  } catch {
    return { version: 2 };
  }
  if (typeof parsed !== 'object' || parsed === null || field(parsed, 'version') !== 2) return { version: 2 };
  const out: ServicesRecord = { version: 2 };
  const [redis, mongo, watchdog] = [field(parsed, 'redis'), field(parsed, 'mongo'), field(parsed, 'watchdog')];
  if (isRecordedServer(redis)) out.redis = redis;
  if (isRecordedMongo(mongo)) out.mongo = mongo;
  if (isRecordedProcess(watchdog)) out.watchdog = watchdog;
  return out;
}

/** Writes the record; one with no server left is removed (its watchdog with it). */
export function writeRecord(dir: string, record: ServicesRecord): void {
  if (!record.redis && !record.mongo) return void rmSync(recordPath(dir), { force: true });
  writeFileSync(recordPath(dir), JSON.stringify(record, null, 2));
}

const errorCode = (err: unknown): unknown => (typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined);

/** The process exists and is not a zombie (a server this process started and stopped stays one until Node reaps it). */
export function pidAlive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (errorCode(err) !== 'EPERM') return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The recorded process is alive and is that process (its command line has the marker, where /proc tells). */
export function serverAlive(s: RecordedProcess): boolean {
  if (!pidAlive(s.pid)) return false;
  try {
    return readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').includes(s.marker);
  } catch {
    return true;
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Takes the lock file (O_EXCL); one held by a dead process is taken over. False when not taken now. */
export function tryLock(dir: string): boolean {
  try {
    const fd = openSync(lockPath(dir), 'wx');
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
    const holder = Number(readFileSync(lockPath(dir), { encoding: 'utf8', flag: 'a+' }).trim());
    if (!holder || !pidAlive(holder)) rmSync(lockPath(dir), { force: true });
    return false;
  }
}

export async function lock(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  let told = false;
  const deadline = Date.now() + 10 * 60_000; // a first FerretDB build takes minutes
  while (!tryLock(dir)) {
    if (Date.now() > deadline) throw new Error(`${lockPath(dir)} is held by a live process for over 10 minutes`);
    if (!told && (told = true)) say('another run is starting or stopping the local servers; waiting for it');
    await sleep(200);
  }
}

function lockSync(dir: string, timeoutMs: number): boolean {
  const deadline = Date.now() + timeoutMs;
  while (!tryLock(dir)) {
    if (Date.now() > deadline) return false;
    sleepSync(100);
  }
  return true;
}

export const unlock = (dir: string) => rmSync(lockPath(dir), { force: true });

/** The pids of the runs holding a live lease; stale leases (dead pids) are removed. Under the lock. */
export function liveRuns(dir: string): number[] {
  if (!existsSync(runsDir(dir))) return [];
  const live: number[] = [];
  for (const name of readdirSync(runsDir(dir))) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pidAlive(pid)) live.push(pid);
    else rmSync(join(runsDir(dir), name), { force: true });
  }
  return live;
}

/** Whether a live run holds a lease: liveRuns without removing anything, for a look outside the lock. */
export function anyLiveRun(dir: string): boolean {
  try {
    return readdirSync(runsDir(dir)).some((name) => Number.isInteger(Number(name)) && pidAlive(Number(name)));
  } catch {
    return false;
  }
}

export function writeLease(dir: string): void {
  mkdirSync(runsDir(dir), { recursive: true });
  writeFileSync(join(runsDir(dir), String(process.pid)), JSON.stringify({ pid: process.pid, argv: process.argv.slice(1), since: new Date().toISOString() }));
}

/** Stops a recorded server by pid: SIGTERM, up to 10 s to exit, then SIGKILL. Synchronous: usable at exit. */
function stopRecorded(s: RecordedProcess): boolean {
  if (!serverAlive(s)) return false;
  process.kill(s.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (pidAlive(s.pid) && Date.now() < deadline) sleepSync(50);
  if (pidAlive(s.pid)) process.kill(s.pid, 'SIGKILL');
  return true;
}

/**
 * Stops the recorded servers (MongoDB/FerretDB, then its private PostgreSQL cluster, then Redis)
 * and their watchdog (unless it is the caller), and removes the record. Under the lock, with no
 * live lease. Returns what it stopped, for the caller's line.
 */
export function stopServers(dir: string): string[] {
  const record = readRecord(dir);
  const stopped: string[] = [];
  if (record.mongo) {
    if (stopRecorded(record.mongo)) stopped.push(`${record.mongo.kind.split(' (')[0]} (pid ${record.mongo.pid})`);
    if (record.mongo.privateDataDir) stopPrivateCluster(record.mongo.privateDataDir);
  }
  if (record.redis && stopRecorded(record.redis)) stopped.push(`redis-server (pid ${record.redis.pid})`);
  if (record.watchdog && record.watchdog.pid !== process.pid && serverAlive(record.watchdog)) process.kill(record.watchdog.pid, 'SIGTERM');
  writeRecord(dir, { version: 2 });
  return stopped;
}

/**
 * Gives back this run's lease; the last live run out stops the checkout's servers. Synchronous
 * (it also runs at exit). Without the lock in 15 s it leaves the servers up: the next run reuses
 * them, or the watchdog stops them.
 */
export function release(dir: string): void {
  const leased = join(runsDir(dir), String(process.pid));
  if (!existsSync(leased)) return;
  if (!lockSync(dir, 15_000)) return void rmSync(leased, { force: true });
  try {
    rmSync(leased, { force: true });
    if (liveRuns(dir).length) return;
    const stopped = stopServers(dir);
    if (stopped.length) say(`the last run out stopped ${stopped.join(' and ')}`);
  } finally {
    unlock(dir);
  }
}

/** The command line marker of the watchdog of dir: its entry, then dir, as /proc/<pid>/cmdline holds them. */
const watchdogMarker = (dir: string) => `${WATCHDOG_ENTRY}\0${resolve(dir)}\0`;

/**
 * Starts the watchdog of dir's recorded servers unless a live one is recorded, and records it.
 * Under the lock, after the servers were recorded. Detached (its own process group and session:
 * a signal to the run's group does not reach it), its output in dir/logs/watchdog.log.
 */
export function ensureWatchdog(dir: string): void {
  const record = readRecord(dir);
  if (!record.redis && !record.mongo) return;
  if (record.watchdog && serverAlive(record.watchdog)) return;
  const abs = resolve(dir);
  mkdirSync(join(abs, 'logs'), { recursive: true });
  const log = openSync(join(abs, 'logs', 'watchdog.log'), 'a');
  try {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', WATCHDOG_ENTRY, abs], { cwd: ROOT, detached: true, stdio: ['ignore', log, log] });
    child.on('error', (err) => say(`could not start the services watchdog: ${err.message}`));
    child.unref();
    if (child.pid) writeRecord(dir, { ...record, watchdog: { pid: child.pid, marker: watchdogMarker(abs) } });
  } finally {
    closeSync(log);
  }
}
