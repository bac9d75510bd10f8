/**
 * Local services for the embedded default (`npm start`, `npm test`): finds or starts Redis and a
 * MongoDB-compatible server, prints which it uses, and returns their URLs. Order (DESIGN.md):
 *   Redis:   REDIS_URL if reachable -> 127.0.0.1:6379 if reachable -> a redis-server it starts
 *            (apt-get installing it when missing and root).
 *   MongoDB: MONGODB_URI if reachable -> a mongod on PATH -> FerretDB 1.x (built once from the Go
 *            module proxy and cached) -> mongodb-memory-server.
 * Data directories live under .local/ (gitignored).
 */
import '../shared/entry'; // first: a bad variable stops here, before any module's import-time code
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MongoClient } from 'mongodb';
import { bootstrapEnv } from '../shared/config';

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

async function freePort(preferred?: number): Promise<number> {
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
    if (await redisPing(env.redisUrl)) return { url: env.redisUrl, kind: `REDIS_URL (${redact(env.redisUrl)})` };
    say(`REDIS_URL ${redact(env.redisUrl)} is not reachable; starting a local redis-server instead`);
  } else if (await redisPing('redis://127.0.0.1:6379')) {
    return { url: 'redis://127.0.0.1:6379', kind: 'redis at 127.0.0.1:6379 (already running)' };
  }
  let bin = which('redis-server');
  if (!bin && process.getuid?.() === 0 && which('apt-get')) {
    say('redis-server not found; installing it with apt-get');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null'], { stdio: 'inherit' });
    bin = which('redis-server');
  }
  if (!bin) throw new Error('No Redis: set REDIS_URL to a reachable Redis, or install redis-server');
  const port = await freePort(6390);
  const dir = join(LOCAL, 'redis');
  mkdirSync(dir, { recursive: true });
  const child = startChild('redis', bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']);
  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', () => redisPing(url), child);
  return { url, kind: `redis-server started on port ${port}`, child };
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
    const info = JSON.parse(execFileSync(go, ['mod', 'download', '-json', `${FERRET_MODULE}@${FERRET_VERSION}`], { cwd: work, encoding: 'utf8' }));
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

async function postgresReachable(): Promise<boolean> {
  return new Promise((res) => {
    const s = new Socket();
    s.setTimeout(500, () => (s.destroy(), res(false)));
    s.once('error', () => res(false));
    s.connect(5432, '127.0.0.1', () => (s.destroy(), res(true)));
  });
}

async function ensureMongo(): Promise<{ uri: string; kind: string; stop?: () => Promise<void> }> {
  const env = bootstrapEnv();
  if (env.mongodbUri) {
    if (await mongoPing(env.mongodbUri)) return { uri: env.mongodbUri, kind: `MONGODB_URI (${redact(env.mongodbUri)})` };
    say(`MONGODB_URI ${redact(env.mongodbUri)} is not reachable; starting a local server instead`);
  }
  const recorded = readRecord();
  if (recorded?.mongodbUri && (await mongoPing(recorded.mongodbUri))) {
    return { uri: recorded.mongodbUri, kind: `${recorded.mongoKind} (already running, recorded in .local/services.json)` };
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
    const backend = env.ferretBackend ?? 'sqlite';
    const port = await freePort(27217);
    const dataDir = join(LOCAL, `ferretdb-${backend}`);
    mkdirSync(dataDir, { recursive: true });
    const args = [
      `--listen-addr=127.0.0.1:${port}`,
      `--handler=${backend}`,
      `--state-dir=${dataDir}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=warn',
    ];
    if (backend === 'sqlite') args.push(`--sqlite-url=file:${dataDir}/`);
    else if (backend === 'postgresql') {
      if (!(await postgresReachable())) throw new Error('FERRETDB_BACKEND=postgresql but no PostgreSQL answers on 127.0.0.1:5432');
      execFileSync('sh', ['-c', `psql -h 127.0.0.1 -U postgres -tc "SELECT 1 FROM pg_database WHERE datname='ferretdb'" | grep -q 1 || psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE ferretdb" >/dev/null`]);
      args.push('--postgresql-url=postgres://postgres@127.0.0.1:5432/ferretdb');
    } else throw new Error(`FERRETDB_BACKEND must be sqlite or postgresql (got "${backend}")`);
    const child = startChild('ferretdb', ferret, args);
    const uri = `mongodb://127.0.0.1:${port}`;
    await waitFor('ferretdb', () => mongoPing(uri), child);
    return { uri, kind: `FerretDB ${FERRET_VERSION} (${backend} backend) started on port ${port}`, stop: () => stopChild(child) };
  }
  try {
    // Last resort: downloads a mongod, so it needs internet access.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoMemoryServer } = require('mongodb-memory-server') as { MongoMemoryServer: any };
    const server = await MongoMemoryServer.create();
    return { uri: server.getUri(), kind: 'mongodb-memory-server', stop: async () => void (await server.stop()) };
  } catch {
    throw new Error('No MongoDB: set MONGODB_URI, put mongod on PATH, install Go (to build FerretDB), or `npm install mongodb-memory-server`');
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}

interface Record {
  mongodbUri: string;
  mongoKind: string;
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
    writeFileSync(RECORD, JSON.stringify({ mongodbUri: mongo.uri, mongoKind: mongo.kind, pid: process.pid } satisfies Record));
  }
  return {
    mongodbUri: mongo.uri,
    redisUrl: red.url,
    mongoKind: mongo.kind,
    redisKind: red.kind,
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
      process.stdout.write(`MONGODB_URI=${s.mongodbUri}\nREDIS_URL=${s.redisUrl}\n`);
      const stop = () => void s.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((err) => {
      say(err.message);
      process.exit(1);
    });
}
