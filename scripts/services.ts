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
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { bootstrapEnv } from '../shared/platform/config';
import { ensurePostgres, ferretDatabaseName, redact, type PostgresServer } from './postgres';

const ROOT = resolve(__dirname, '..');
const LOCAL = join(ROOT, '.local');
const FERRET_VERSION = 'v1.24.2';
const FERRET_MODULE = 'github.com/FerretDB/FerretDB';
/** Where a running embedded default records its servers, so the CLI and a second run reuse them. */
const RECORD = join(LOCAL, 'services.json');
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

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess | undefined, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} (see .local/logs)`);
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms (see .local/logs)`);
}

function startChild(name: string, cmd: string, args: string[]): ChildProcess {
  mkdirSync(join(LOCAL, 'logs'), { recursive: true });
  const log = openSync(join(LOCAL, 'logs', `${name}.log`), 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', log, log], cwd: ROOT });
  const kill = () => child.exitCode === null && child.kill('SIGTERM');
  process.once('exit', kill);
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

async function ensureRedis(): Promise<{ url: string; kind: string; child?: ChildProcess }> {
  const env = bootstrapEnv();
  if (env.redisUrl) {
    if (await redisAnswers(env.redisUrl)) return { url: env.redisUrl, kind: `REDIS_URL (${redact(env.redisUrl)})` };
    say(`REDIS_URL ${redact(env.redisUrl)} is not reachable; starting a local redis-server instead`);
  } else if (await redisAnswers('redis://127.0.0.1:6379')) {
    return { url: 'redis://127.0.0.1:6379', kind: 'redis at 127.0.0.1:6379 (already running)' };
  }
  const { url, child, port } = await startRedisServer(join(LOCAL, 'redis'));
  return { url, kind: `redis-server started on port ${port}`, child };
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
 * A redis-server of its own, without persistence (a restart starts empty), on a free port from
 * `fromPort` (or on `port` exactly): the fallback store, and the tests that restart Redis.
 */
export async function startRedisServer(dir: string, opts: { fromPort?: number; port?: number } = {}): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = opts.port ?? (await freePort(opts.fromPort ?? 6390));
  mkdirSync(dir, { recursive: true });
  const child = startChild('redis', redisServerBinary(), ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']);
  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', () => redisPing(url), child);
  return { url, port, child };
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
  stop(): Promise<void>;
}

/** Starts FerretDB on a free port with the SQLite backend (in sqliteDir) or the PostgreSQL one. */
export async function startFerret(bin: string, store: { sqliteDir: string } | { postgresqlUrl: string }, logName = 'ferretdb'): Promise<StartedFerret> {
  const port = await freePort(27217);
  const stateDir = join(LOCAL, `${logName}-state`);
  mkdirSync(stateDir, { recursive: true });
  const args = [`--listen-addr=127.0.0.1:${port}`, `--state-dir=${stateDir}`, '--telemetry=disable', '--debug-addr=-', '--log-level=warn'];
  if ('sqliteDir' in store) {
    mkdirSync(store.sqliteDir, { recursive: true });
    args.push('--handler=sqlite', `--sqlite-url=file:${store.sqliteDir}/`);
  } else args.push('--handler=postgresql', `--postgresql-url=${store.postgresqlUrl}`);
  const child = startChild(logName, bin, args);
  const uri = `mongodb://127.0.0.1:${port}`;
  await waitFor('ferretdb', () => mongoPing(uri), child);
  return { uri, port, stop: () => stopChild(child) };
}

/** The backend FerretDB stores in: PostgreSQL when one can be found or started, else SQLite. */
async function ferretStore(): Promise<{ backend: 'postgresql'; pg: PostgresServer } | { backend: 'sqlite' }> {
  const env = bootstrapEnv();
  if (env.ferretBackend && env.ferretBackend !== 'sqlite' && env.ferretBackend !== 'postgresql') {
    throw new Error(`FERRETDB_BACKEND must be sqlite or postgresql (got "${env.ferretBackend}")`);
  }
  if (env.ferretBackend === 'sqlite') return { backend: 'sqlite' };
  const pg = await ensurePostgres({ postgresUrl: env.postgresUrl, clusterDir: join(LOCAL, 'postgres'), database: ferretDatabaseName(ROOT), say });
  if (pg) return { backend: 'postgresql', pg };
  if (env.ferretBackend === 'postgresql') throw new Error('FERRETDB_BACKEND=postgresql but no PostgreSQL was found or could be started');
  say(SQLITE_WARNING);
  return { backend: 'sqlite' };
}

export const SQLITE_WARNING =
  'WARNING: FerretDB on SQLite: ~86-229 ms per update at 5,000 documents (2 ms on PostgreSQL), a demo-speed poll takes 10-17 s; install PostgreSQL for the embedded default';

async function ensureMongo(): Promise<{ uri: string; kind: string; ferretPostgresUrl?: string; stop?: () => Promise<void> }> {
  const env = bootstrapEnv();
  if (env.mongodbUri) {
    if (await mongoPing(env.mongodbUri)) return { uri: env.mongodbUri, kind: `MONGODB_URI (${redact(env.mongodbUri)})` };
    say(`MONGODB_URI ${redact(env.mongodbUri)} is not reachable; starting a local server instead`);
  }
  const recorded = readRecord();
  if (recorded?.mongodbUri && (await mongoPing(recorded.mongodbUri))) {
    return { uri: recorded.mongodbUri, kind: `${recorded.mongoKind} (already running, recorded in .local/services.json)`, ferretPostgresUrl: recorded.ferretPostgresUrl };
  }
  const mongod = which('mongod');
  if (mongod) {
    const port = await freePort(27018);
    const dir = join(LOCAL, 'mongod');
    mkdirSync(dir, { recursive: true });
    const child = startChild('mongod', mongod, ['--port', String(port), '--bind_ip', '127.0.0.1', '--dbpath', dir]);
    const uri = `mongodb://127.0.0.1:${port}`;
    await waitFor('mongod', () => mongoPing(uri), child);
    return { uri, kind: `mongod started on port ${port}`, stop: () => stopChild(child) };
  }
  const ferret = ensureFerretBinary();
  if (ferret) {
    const store = await ferretStore();
    const started = await startFerret(ferret, store.backend === 'postgresql' ? { postgresqlUrl: store.pg.url } : { sqliteDir: join(LOCAL, 'ferretdb-sqlite') });
    const pg = store.backend === 'postgresql' ? store.pg : undefined;
    return {
      uri: started.uri,
      kind: `FerretDB ${FERRET_VERSION} (${pg ? `postgresql backend on ${pg.kind}` : 'sqlite backend'}) started on port ${started.port}`,
      ferretPostgresUrl: pg?.url,
      stop: async () => {
        await started.stop();
        await pg?.stop?.();
      },
    };
  }
  try {
    // Last resort: downloads a mongod, so it needs internet access.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoMemoryServer } = require('mongodb-memory-server') as { MongoMemoryServer: { create(): Promise<{ getUri(): string; stop(): Promise<unknown> }> } };
    const server = await MongoMemoryServer.create();
    return { uri: server.getUri(), kind: 'mongodb-memory-server', stop: async () => void (await server.stop()) };
  } catch {
    throw new Error('No MongoDB: set MONGODB_URI, put mongod on PATH, install Go (to build FerretDB), or `npm install mongodb-memory-server`');
  }
}

interface Record {
  mongodbUri: string;
  mongoKind: string;
  ferretPostgresUrl?: string;
  pid: number;
}

function readRecord(): Record | undefined {
  try {
    return JSON.parse(readFileSync(RECORD, 'utf8')) as Record;
  } catch {
    return undefined;
  }
}

export async function startLocalServices(): Promise<LocalServices> {
  const [red, mongo] = await Promise.all([ensureRedis(), ensureMongo()]);
  say(`Redis:   ${red.kind}`);
  say(`MongoDB: ${mongo.kind}`);
  // A server this run started is recorded so that the CLI and other runs use it instead of
  // starting a second one on the same data directory.
  if (mongo.stop) {
    mkdirSync(LOCAL, { recursive: true });
    writeFileSync(RECORD, JSON.stringify({ mongodbUri: mongo.uri, mongoKind: mongo.kind, ferretPostgresUrl: mongo.ferretPostgresUrl, pid: process.pid } satisfies Record));
  }
  return {
    mongodbUri: mongo.uri,
    redisUrl: red.url,
    mongoKind: mongo.kind,
    redisKind: red.kind,
    env: { MONGODB_URI: mongo.uri, REDIS_URL: red.url, ...(mongo.ferretPostgresUrl ? { FERRETDB_POSTGRES_URL: mongo.ferretPostgresUrl } : {}) },
    stop: async () => {
      if (mongo.stop) {
        if (readRecord()?.pid === process.pid) rmSync(RECORD, { force: true });
        await mongo.stop();
      }
      if (red.child) await stopChild(red.child);
    },
  };
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
      const stop = () => void s.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((err: unknown) => {
      say((err as Error).message);
      process.exit(1);
    });
}
