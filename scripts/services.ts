/**
 * Local services for the embedded default (`npm start`, `npm test`): finds or starts Redis and a
 * MongoDB-compatible server, prints which it uses, and returns their URLs. Order:
 *   Redis:   REDIS_URL if reachable -> 127.0.0.1:6379 if reachable -> a redis-server it starts
 *            (apt-get installing it when missing and root).
 *   MongoDB: MONGODB_URI if reachable -> a server a running `npm start` recorded -> a mongod on
 *            PATH -> FerretDB 1.x (built once from the Go module proxy and cached) on PostgreSQL
 *            (scripts/postgres.ts finds or starts one), else on SQLite with a warning ->
 *            mongodb-memory-server.
 * Data directories live under .local/ (gitignored).
 *
 * Runs side by side: the servers this module starts (redis-server, mongod or FerretDB and its
 * private PostgreSQL cluster) belong to the checkout, not to the run that started them. They are
 * started in their own process group (a Ctrl-C in one terminal does not reach them) and recorded
 * in .local/services.json; every run (`npm start`, `npm test`, a bench, the CLI) holds a lease,
 * .local/runs/<pid>, while it uses them, and the run that releases the last live lease stops
 * them. A run killed without releasing leaves a lease whose pid is dead: it counts for nothing.
 * .local/services.lock serializes taking a lease (with starting what is missing) against
 * releasing one (with stopping the servers), so no run is handed a server being stopped.
 *
 * However the runs end, the servers stop once none is alive: started with them, their watchdog
 * (scripts/servicesWatchdog.ts, detached, recorded in services.json) looks at the leases every
 * second and, when no live run has held one for 3 s, takes the lock, stops the servers as the last
 * release does, and exits. It covers a run killed outright (SIGKILL: no code of it runs) or by a
 * parent before its release ran. A run that finds the servers of a dead run reuses them, and
 * starts a watchdog again when theirs is gone. The record, leases, lock and watchdog start are in
 * scripts/servicesLeases.ts (small: the watchdog loads nothing else).
 *
 * `npm start` and `npm run services` `exec` node with the TypeScript loader rather than run the
 * tsx CLI: the CLI is a parent process that relays SIGINT/SIGTERM to the node process it runs
 * and SIGKILLs it when it does not acknowledge within 30 ms, which a SIGTERM to the whole process
 * group (as a harness sends) makes likely: the run died before giving its lease back, and the
 * servers were left running. npm relays a signal to the run itself; a run under npm whose npm
 * died (SIGKILL) stops as on SIGTERM (endWithNpm). The runs listen to SIGINT/SIGTERM with `on`,
 * not `once`: a signal to the group and the same one relayed arrive twice.
 * LOCAL_SERVICES_DIR puts the record, leases, data and logs in another directory, with servers of
 * its own (tests).
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { bootstrapEnv } from '../shared/platform/config';
import { connectionHeadroom, ensurePostgres, FERRET_POOL_MAX_CONNS, TOO_MANY_CLIENTS, ferretDatabaseName, ferretPoolUrl, redact, type PostgresServer } from './postgres';
import { ensureWatchdog, liveRuns, lock, readRecord, release, serverAlive, unlock, writeLease, writeRecord, type RecordedMongo, type RecordedServer } from './servicesLeases';

export { liveRuns, pidAlive } from './servicesLeases';

const ROOT = resolve(__dirname, '..');
const LOCAL = join(ROOT, '.local');
const FERRET_VERSION = 'v1.24.2';
const FERRET_MODULE = 'github.com/FerretDB/FerretDB';
const CACHE_DIR = join(bootstrapEnv().cacheHome || join(homedir(), '.cache'), 'odds-ai-service');

export interface LocalServices {
  mongodbUri: string;
  redisUrl: string;
  mongoKind: string;
  redisKind: string;
  /** The variables a process needs to use these servers (FERRETDB_POSTGRES_URL only on FerretDB's PostgreSQL backend). */
  env: { MONGODB_URI: string; REDIS_URL: string; FERRETDB_POSTGRES_URL?: string };
  stop(): Promise<void>;
}

const say = (msg: string) => process.stderr.write(`[services] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A free local port: `preferred` when it is free, else one the system picks. */
export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((res) => {
      const srv = createServer();
      srv.once('error', () => res(undefined));
      srv.listen(port, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => res(p));
      });
    });
  return (preferred && (await tryPort(preferred))) || (await tryPort(0))!;
}

/**
 * A Redis that exists but answers slowly (a loaded machine) must not get a second one started
 * beside it: three tries, two seconds each, before deciding there is none.
 */
export async function redisAnswers(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) if (await redisPing(url, 2000)) return true;
  return false;
}

function redisPing(url: string, timeoutMs = 1000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((res) => {
    const sock = new Socket();
    const done = (ok: boolean) => {
      sock.destroy();
      res(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('error', () => done(false));
    sock.connect(Number(u.port || 6379), u.hostname, () => {
      const auth = u.password ? `AUTH ${u.username ? `${decodeURIComponent(u.username)} ` : ''}${decodeURIComponent(u.password)}\r\n` : '';
      sock.write(`${auth}PING\r\n`);
    });
    sock.on('data', (d) => done(d.toString().includes('PONG')));
  });
}

/** The process id of the redis-server answering at url (INFO server), or undefined when none answers. */
function redisServerPid(url: string, timeoutMs = 1000): Promise<number | undefined> {
  const u = new URL(url);
  return new Promise((res) => {
    const sock = new Socket();
    let text = '';
    const done = (pid: number | undefined) => {
      sock.destroy();
      res(pid);
    };
    sock.setTimeout(timeoutMs, () => done(undefined));
    sock.once('error', () => done(undefined));
    sock.connect(Number(u.port || 6379), u.hostname, () => sock.write('INFO server\r\n'));
    sock.on('data', (d) => {
      text += d.toString();
      const m = /process_id:(\d+)/.exec(text);
      if (m) done(Number(m[1]));
    });
  });
}

async function mongoPing(uri: string, timeoutMs = 1500): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The process id of the server answering at uri (serverStatus: MongoDB and FerretDB both give it), or undefined. */
async function mongoServerPid(uri: string, timeoutMs = 1500): Promise<number | undefined> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.connect();
    const status = await client.db('admin').command({ serverStatus: 1 });
    return typeof status.pid === 'number' ? status.pid : Number(status.pid);
  } catch {
    return undefined;
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess | undefined, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} (see .local/logs)`);
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms (see .local/logs)`);
}

/** Where a run's servers, leases and logs live: .local, or a directory of a test's own. */
interface Place {
  dir: string;
  /** Ignore REDIS_URL, 127.0.0.1:6379 and MONGODB_URI: use (or start) the servers recorded in dir. */
  ownServers: boolean;
  /** FerretDB's PostgreSQL database: one per checkout, or per test directory. */
  database: string;
}

/**
 * A server process. `shared`: it belongs to the checkout (started detached, in its own process
 * group, left running when this process exits; the last lease stops it). Otherwise it is this
 * process's own and dies with it.
 */
function startChild(logDir: string, name: string, cmd: string, args: string[], shared = false): ChildProcess {
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', log, log], cwd: ROOT, detached: shared });
  closeSync(log);
  if (shared) child.unref();
  else {
    const kill = () => child.exitCode === null && child.kill('SIGTERM');
    process.once('exit', kill);
  }
  return child;
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((res) => {
    if (child.exitCode !== null) return res();
    child.once('exit', () => res());
    child.kill('SIGTERM');
    setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 5000).unref();
  });

// ---------------------------------------------------------------- Redis

interface RedisChoice {
  url: string;
  kind: string;
  /** Set when the bootstrap started it (or found the one it had started): recorded, stopped by the last lease. */
  server?: RecordedServer;
}

async function ensureRedis(place: Place, recorded: RecordedServer | undefined): Promise<RedisChoice> {
  const env = bootstrapEnv();
  if (!place.ownServers) {
    if (env.redisUrl) {
      if (await redisAnswers(env.redisUrl)) return { url: env.redisUrl, kind: `REDIS_URL (${redact(env.redisUrl)})` };
      say(`REDIS_URL ${redact(env.redisUrl)} is not reachable; starting a local redis-server instead`);
    } else if (await redisAnswers('redis://127.0.0.1:6379')) {
      return { url: 'redis://127.0.0.1:6379', kind: 'redis at 127.0.0.1:6379 (already running)' };
    }
  }
  if (recorded && serverAlive(recorded) && (await redisAnswers(recorded.url))) return { url: recorded.url, kind: `${recorded.kind} (already running, shared)`, server: recorded };
  const { url, child, port } = await startRedisServer(join(place.dir, 'redis'), { persist: true, shared: true, logDir: join(place.dir, 'logs') });
  const kind = `redis-server started on port ${port} (AOF, appendfsync everysec, noeviction)`;
  return { url, kind, server: { url, kind, pid: child.pid ?? 0, marker: `:${port}` } };
}

/** The redis-server binary, installed with apt-get when missing and allowed (root). */
function redisServerBinary(): string {
  let bin = which('redis-server');
  if (!bin && process.getuid?.() === 0 && which('apt-get')) {
    say('redis-server not found; installing it with apt-get');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null'], { stdio: 'inherit' });
    bin = which('redis-server');
  }
  if (!bin) throw new Error('No Redis: set REDIS_URL to a reachable Redis, or install redis-server');
  return bin;
}

/**
 * The settings of the Redis the bootstrap starts, as BullMQ's production guide asks: AOF with an
 * fsync every second (a crash loses at most about the last second of writes), no RDB snapshots,
 * and `noeviction` (a full Redis refuses writes rather than dropping a queue's keys).
 */
export const PERSISTENT_REDIS_ARGS = ['--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction'] as const;
const EPHEMERAL_REDIS_ARGS = ['--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'] as const;

/**
 * A redis-server of its own on a free port from `fromPort` (or on `port` exactly), data in `dir`.
 * `persist`: the bootstrap's settings (PERSISTENT_REDIS_ARGS: a restart keeps the keys); without
 * it a restart starts empty (the tests that restart Redis empty). `shared`: left running when this
 * process exits (the bootstrap's, stopped by the last lease). `args`: more redis-server arguments.
 */
export async function startRedisServer(
  dir: string,
  opts: { fromPort?: number; port?: number; persist?: boolean; shared?: boolean; logDir?: string; args?: readonly string[] } = {},
): Promise<{ url: string; port: number; child: ChildProcess }> {
  mkdirSync(dir, { recursive: true });
  const settings = opts.persist ? PERSISTENT_REDIS_ARGS : EPHEMERAL_REDIS_ARGS;
  // A port found free can be taken by another run before this server binds it (runs and test
  // files start servers side by side): the server then exits, and a ping would be answered by the
  // other run's. Ready means answered by this child's pid; a lost port is tried again elsewhere.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (attempt === 1 ? await freePort(opts.fromPort ?? 6390) : await freePort());
    const child = startChild(
      opts.logDir ?? join(LOCAL, 'logs'),
      'redis',
      redisServerBinary(),
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...settings, ...(opts.args ?? [])],
      opts.shared,
    );
    const url = `redis://127.0.0.1:${port}`;
    try {
      await waitFor(`redis-server on port ${port}`, async () => (await redisServerPid(url)) === child.pid, child);
      return { url, port, child };
    } catch (err) {
      await stopChild(child);
      if (opts.port || attempt >= 5) throw err;
    }
  }
}

// ---------------------------------------------------------------- MongoDB

function goBinary(): string | undefined {
  return which('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/**
 * Builds FerretDB once into the user cache. `go install module@version` is tried first; the
 * module zip lacks build/version/version.txt (FerretDB generates it at release), so a plain build
 * panics at start: the fallback copies the module source, writes the version file and builds it.
 */
export function ensureFerretBinary(): string | undefined {
  const bin = join(CACHE_DIR, `ferretdb-${FERRET_VERSION}`);
  if (existsSync(bin) && ferretRuns(bin)) return bin;
  const go = goBinary();
  if (!go) return undefined;
  say(`building FerretDB ${FERRET_VERSION} (once; cached in ${CACHE_DIR})`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const gobin = join(CACHE_DIR, 'gobin');
  try {
    execFileSync(go, ['install', `${FERRET_MODULE}/cmd/ferretdb@${FERRET_VERSION}`], { env: { ...bootstrapEnv().all, GOBIN: gobin }, stdio: 'ignore' });
    if (ferretRuns(join(gobin, 'ferretdb'))) {
      copyFileSync(join(gobin, 'ferretdb'), bin);
      return bin;
    }
  } catch {
    // fall through to the source build
  }
  const work = join(tmpdir(), `ferretdb-build-${process.pid}`);
  try {
    mkdirSync(work, { recursive: true });
    execFileSync(go, ['mod', 'init', 'ferretbuild'], { cwd: work, stdio: 'ignore' });
    const info = JSON.parse(execFileSync(go, ['mod', 'download', '-json', `${FERRET_MODULE}@${FERRET_VERSION}`], { cwd: work, encoding: 'utf8' })) as { Dir: string };
    const src = join(work, 'src');
    cpSync(info.Dir, src, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', src]);
    writeFileSync(join(src, 'build', 'version', 'version.txt'), `${FERRET_VERSION}\n`);
    execFileSync(go, ['build', '-o', bin, './cmd/ferretdb'], { cwd: src, stdio: ['ignore', 'ignore', 'inherit'] });
    chmodSync(bin, 0o755);
    return ferretRuns(bin) ? bin : undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function ferretRuns(bin: string): boolean {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes(FERRET_VERSION);
  } catch {
    return false;
  }
}

export interface StartedFerret {
  uri: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** Starts FerretDB on a free port (or on `opts.port`, to restart it where its clients connect) with the SQLite backend (in sqliteDir) or the PostgreSQL one (its pool bounded: ferretPoolUrl). */
export async function startFerret(
  bin: string,
  store: { sqliteDir: string } | { postgresqlUrl: string },
  logName = 'ferretdb',
  opts: { shared?: boolean; localDir?: string; port?: number } = {},
): Promise<StartedFerret> {
  const local = opts.localDir ?? LOCAL;
  const stateDir = join(local, `${logName}-state`);
  mkdirSync(stateDir, { recursive: true });
  const backend = 'sqliteDir' in store ? ['--handler=sqlite', `--sqlite-url=file:${store.sqliteDir}/`] : ['--handler=postgresql', `--postgresql-url=${ferretPoolUrl(store.postgresqlUrl)}`];
  if ('sqliteDir' in store) mkdirSync(store.sqliteDir, { recursive: true });
  // As for redis-server: ready means answered by this child, and a port another run took first
  // is tried again elsewhere.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (attempt === 1 ? await freePort(27217) : await freePort());
    const args = [`--listen-addr=127.0.0.1:${port}`, `--state-dir=${stateDir}`, '--telemetry=disable', '--debug-addr=-', '--log-level=warn', ...backend];
    const child = startChild(join(local, 'logs'), logName, bin, args, opts.shared);
    const uri = `mongodb://127.0.0.1:${port}`;
    try {
      await waitFor(`ferretdb on port ${port}`, async () => (await mongoServerPid(uri)) === child.pid, child);
      return { uri, port, pid: child.pid ?? 0, stop: () => stopChild(child) };
    } catch (err) {
      await stopChild(child);
      if (opts.port || attempt >= 5) throw err;
    }
  }
}

/** The backend FerretDB stores in: PostgreSQL when one can be found or started, else SQLite. */
async function ferretStore(place: Place): Promise<{ backend: 'postgresql'; pg: PostgresServer } | { backend: 'sqlite' }> {
  const env = bootstrapEnv();
  if (env.ferretBackend && env.ferretBackend !== 'sqlite' && env.ferretBackend !== 'postgresql') {
    throw new Error(`FERRETDB_BACKEND must be sqlite or postgresql (got "${env.ferretBackend}")`);
  }
  if (env.ferretBackend === 'sqlite') return { backend: 'sqlite' };
  const pg = await ensurePostgres({ postgresUrl: env.postgresUrl, clusterDir: join(place.dir, 'postgres'), database: place.database, keepRunning: true, say });
  if (pg) return { backend: 'postgresql', pg };
  if (env.ferretBackend === 'postgresql') throw new Error('FERRETDB_BACKEND=postgresql but no PostgreSQL was found or could be started');
  say(SQLITE_WARNING);
  return { backend: 'sqlite' };
}

export const SQLITE_WARNING =
  'WARNING: FerretDB on SQLite: ~86-229 ms per update at 5,000 documents (2 ms on PostgreSQL), a demo-speed poll takes 10-17 s; install PostgreSQL for the embedded default';

/**
 * Whether the PostgreSQL server has room for one more FerretDB pool. When it has not, the line
 * says so at start, with the figures, rather than jobs failing later on "too many clients".
 */
async function checkHeadroom(pgUrl: string): Promise<void> {
  const room = await connectionHeadroom(pgUrl);
  if (room.free < FERRET_POOL_MAX_CONNS) {
    say(
      `WARNING: PostgreSQL at ${new URL(pgUrl).host} has ${room.free} of ${room.maxConnections} connections free (${room.inUse} in use, ${room.reserved} reserved) and FerretDB pools up to ${FERRET_POOL_MAX_CONNS}: past the limit it refuses connections ("${TOO_MANY_CLIENTS.text}") and queries fail; stop runs you no longer need or raise max_connections`,
    );
  }
}

interface MongoChoice {
  uri: string;
  kind: string;
  ferretPostgresUrl?: string;
  /** This run's own server (mongodb-memory-server): stopped when this run ends. */
  stop?: () => Promise<void>;
  /** The checkout's server the bootstrap started or found recorded: stopped by the last lease. */
  server?: RecordedMongo;
}

async function ensureMongo(place: Place, recorded: RecordedMongo | undefined): Promise<MongoChoice> {
  const env = bootstrapEnv();
  if (env.mongodbUri && !place.ownServers) {
    if (await mongoPing(env.mongodbUri)) return { uri: env.mongodbUri, kind: `MONGODB_URI (${redact(env.mongodbUri)})` };
    say(`MONGODB_URI ${redact(env.mongodbUri)} is not reachable; starting a local server instead`);
  }
  if (recorded && serverAlive(recorded) && (await mongoPing(recorded.url))) {
    if (recorded.ferretPostgresUrl) await checkHeadroom(recorded.ferretPostgresUrl);
    return { uri: recorded.url, kind: `${recorded.kind} (already running, shared)`, ferretPostgresUrl: recorded.ferretPostgresUrl, server: recorded };
  }
  const mongod = which('mongod');
  if (mongod) {
    const port = await freePort(27018);
    const dir = join(place.dir, 'mongod');
    mkdirSync(dir, { recursive: true });
    const child = startChild(join(place.dir, 'logs'), 'mongod', mongod, ['--port', String(port), '--bind_ip', '127.0.0.1', '--dbpath', dir], true);
    const uri = `mongodb://127.0.0.1:${port}`;
    await waitFor('mongod', () => mongoPing(uri), child);
    const kind = `mongod started on port ${port}`;
    return { uri, kind, server: { url: uri, kind, pid: child.pid ?? 0, marker: String(port) } };
  }
  const ferret = ensureFerretBinary();
  if (ferret) {
    const store = await ferretStore(place);
    const pg = store.backend === 'postgresql' ? store.pg : undefined;
    if (pg) await checkHeadroom(pg.url);
    const started = await startFerret(ferret, pg ? { postgresqlUrl: pg.url } : { sqliteDir: join(place.dir, 'ferretdb-sqlite') }, 'ferretdb', { shared: true, localDir: place.dir });
    const kind = `FerretDB ${FERRET_VERSION} (${pg ? `postgresql backend on ${pg.kind}, pool of ${FERRET_POOL_MAX_CONNS}` : 'sqlite backend'}) started on port ${started.port}`;
    return {
      uri: started.uri,
      kind,
      ferretPostgresUrl: pg?.url,
      server: { url: started.uri, kind, pid: started.pid, marker: `127.0.0.1:${started.port}`, ferretPostgresUrl: pg?.url, privateDataDir: pg?.privateDataDir },
    };
  }
  try {
    // Last resort: downloads a mongod, so it needs internet access. This run's own: not shared.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoMemoryServer } = require('mongodb-memory-server') as { MongoMemoryServer: { create(): Promise<{ getUri(): string; stop(): Promise<unknown> }> } };
    const server = await MongoMemoryServer.create();
    return { uri: server.getUri(), kind: 'mongodb-memory-server', stop: async () => void (await server.stop()) };
  } catch {
    throw new Error('No MongoDB: set MONGODB_URI, put mongod on PATH, install Go (to build FerretDB), or `npm install mongodb-memory-server`');
  }
}

// ---------------------------------------------------------------- start

export interface ServicesOptions {
  /**
   * Where the record, the leases, data and logs live: default LOCAL_SERVICES_DIR (with
   * ownServers), else .local. Tests use one of their own.
   */
  localDir?: string;
  /** Ignore REDIS_URL, 127.0.0.1:6379 and MONGODB_URI: start (or share) servers of localDir's own. */
  ownServers?: boolean;
}

export async function startLocalServices(opts: ServicesOptions = {}): Promise<LocalServices> {
  const envDir = bootstrapEnv().servicesDir;
  const ownDir = opts.localDir ?? (envDir ? resolve(envDir) : undefined);
  const dir = ownDir ?? LOCAL;
  const place: Place = { dir, ownServers: opts.ownServers ?? (!opts.localDir && Boolean(envDir)), database: ferretDatabaseName(ownDir ?? ROOT) };
  await lock(dir);
  let red: RedisChoice;
  let mongo: MongoChoice;
  const releaseAtExit = () => release(dir);
  try {
    const record = readRecord(dir);
    const [r, m] = await Promise.allSettled([ensureRedis(place, record.redis), ensureMongo(place, record.mongo)]);
    // Recorded before the lease is taken and the lock given back, so a run starting now shares
    // them; a server started before the other failed is recorded too (a run starting within the
    // watchdog's grace reuses it, else the watchdog stops it).
    const started = (x: PromiseSettledResult<{ server?: RecordedServer }>) => (x.status === 'fulfilled' ? x.value.server : undefined);
    writeRecord(dir, { ...record, redis: started(r) ?? record.redis, mongo: (m.status === 'fulfilled' ? m.value.server : undefined) ?? record.mongo });
    // Their watchdog (started with them, or again when a dead run's left none): it stops them
    // when no live run holds a lease, whatever way the runs ended.
    ensureWatchdog(dir);
    if (r.status === 'rejected') throw r.reason;
    if (m.status === 'rejected') throw m.reason;
    [red, mongo] = [r.value, m.value];
    writeLease(dir);
    process.once('exit', releaseAtExit);
  } finally {
    unlock(dir);
  }
  say(`Redis:   ${red.kind}`);
  say(`MongoDB: ${mongo.kind}`);
  if (red.server || mongo.server) say(`shared by every run of this checkout (${liveRuns(dir).length} now); the last one to end stops them (or their watchdog, when the runs died)`);
  let stopped = false;
  return {
    mongodbUri: mongo.uri,
    redisUrl: red.url,
    mongoKind: mongo.kind,
    redisKind: red.kind,
    env: { MONGODB_URI: mongo.uri, REDIS_URL: red.url, ...(mongo.ferretPostgresUrl ? { FERRETDB_POSTGRES_URL: mongo.ferretPostgresUrl } : {}) },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await mongo.stop?.();
      process.removeListener('exit', releaseAtExit);
      release(dir);
    },
  };
}

/**
 * Run by npm (`npm start`, `npm run services`, whose scripts `exec` node: npm is the parent and
 * relays SIGINT and SIGTERM to it): when npm dies without relaying anything (a SIGKILL), this
 * process, reparented, stops as a SIGTERM stops it, giving its lease back, rather than run on
 * with nobody to stop it. Looked at every second.
 */
export function endWithNpm(): void {
  if (!bootstrapEnv().npmScript) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    say(`npm (pid ${parent}) is gone: stopping`);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  timer.unref();
}

if (require.main === module) {
  // `npm run services`: start them and keep them up until interrupted.
  startLocalServices()
    .then((s) => {
      process.stdout.write(
        Object.entries(s.env)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
      // The servers run detached (their own process group): without a handle of its own this
      // process would end here, releasing its lease and, as the last run, stopping them.
      const keepAlive = setInterval(() => undefined, 1 << 30);
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        clearInterval(keepAlive);
        void s.stop().then(() => process.exit(0));
      };
      // `on`, not `once`: a signal to the process group and the same signal relayed by a parent
      // arrive twice, and a second one without a listener would kill this process before its
      // lease is given back.
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      endWithNpm();
    })
    .catch((err: unknown) => {
      say((err as Error).message);
      process.exit(1);
    });
}
