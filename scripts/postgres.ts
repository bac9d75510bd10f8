/**
 * The PostgreSQL that FerretDB stores in, for the embedded default. Order: POSTGRES_URL if
 * reachable -> a PostgreSQL answering on 127.0.0.1:5432 (trust auth as `postgres`) -> a private
 * cluster under .local/postgres made with the machine's initdb/pg_ctl (apt-get installing
 * PostgreSQL where missing and root) -> none (the caller falls back to SQLite).
 *
 * FerretDB gets a database of its own on that server, one per checkout: FerretDB keeps each
 * MongoDB database's collection list in memory, so two FerretDB processes that create the same
 * MongoDB database in one PostgreSQL database collide (the second's CREATE TABLE fails).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { tuneFerretDatabase } from '../shared/platform/db/ferretIndexes';

export interface PostgresServer {
  /** URL of FerretDB's own database on the server. */
  url: string;
  kind: string;
  /** Set when this process started the server (the private cluster). */
  stop?: () => Promise<void>;
}

export interface PostgresOptions {
  /** POSTGRES_URL: a server to use first. */
  postgresUrl?: string;
  /** Where a machine-wide PostgreSQL is looked for (tests point it at a dead port). */
  localUrl?: string;
  /** Directory of the private cluster. */
  clusterDir: string;
  /** Database FerretDB gets on the chosen server. */
  database: string;
  /** Whether apt-get may install PostgreSQL when its binaries are missing. */
  mayInstall?: boolean;
  say: (msg: string) => void;
}

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** One FerretDB database per checkout, so worktrees sharing a server never share one. */
export function ferretDatabaseName(checkoutRoot: string): string {
  return `ferretdb_${createHash('sha1').update(checkoutRoot).digest('hex').slice(0, 10)}`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function postgresAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `work` on a fresh connection to the server, closed afterwards whatever happens. */
async function withServer(serverUrl: string, work: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const quoted = (database: string) => `"${database.replace(/"/g, '""')}"`;

/** Creates the database unless it exists (tolerating a concurrent creator), with the settings FerretDB needs (shared/platform/db/ferretIndexes.ts). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  await withServer(serverUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE ${quoted(database)}`).catch((err: { code?: string }) => {
      if (err.code !== '42P04' && err.code !== '23505') throw err; // created meanwhile by another run
    });
  });
  // Before FerretDB opens its connections: they take the database's settings when they open.
  await withServer(withDatabase(serverUrl, database), tuneFerretDatabase);
}

export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  await withServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`).then(() => undefined));
}

export async function ensurePostgres(opts: PostgresOptions): Promise<PostgresServer | undefined> {
  const { say } = opts;
  const use = async (serverUrl: string, kind: string, stop?: () => Promise<void>): Promise<PostgresServer> => {
    await ensureDatabase(serverUrl, opts.database);
    return { url: withDatabase(serverUrl, opts.database), kind, stop };
  };
  if (opts.postgresUrl) {
    if (await postgresAnswers(opts.postgresUrl)) return use(opts.postgresUrl, `POSTGRES_URL (${redact(opts.postgresUrl)})`);
    say(`POSTGRES_URL ${redact(opts.postgresUrl)} is not reachable; looking for a local PostgreSQL`);
  }
  const local = opts.localUrl ?? LOCAL_POSTGRES_URL;
  if (await postgresAnswers(local)) return use(local, `PostgreSQL at ${new URL(local).host} (already running)`);
  const cluster = await privateCluster(opts).catch((err: Error & { stderr?: string }) => {
    say(`could not start a private PostgreSQL cluster: ${(err.stderr || err.message).trim().split('\n').pop()}`);
    return undefined;
  });
  return cluster && use(cluster.url, cluster.kind, cluster.stop);
}

// ---------------------------------------------------------------- private cluster

interface PgBinaries {
  initdb: string;
  pgCtl: string;
}

function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** initdb and pg_ctl from PATH, else from the newest /usr/lib/postgresql/<version>/bin. */
export function findPgBinaries(): PgBinaries | undefined {
  const initdb = which('initdb');
  const pgCtl = which('pg_ctl');
  if (initdb && pgCtl) return { initdb, pgCtl };
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')) && existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? { initdb: join(base, versions[0], 'bin', 'initdb'), pgCtl: join(base, versions[0], 'bin', 'pg_ctl') } : undefined;
}

const isRoot = () => process.getuid?.() === 0;

function osUserExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL refuses to run as root, so as root its commands run as the `postgres` OS user
 * (created by the distribution's package) and the cluster directory belongs to that user.
 */
function runPg(bin: string, args: string[]): string {
  const [cmd, full] = isRoot()
    ? [which('runuser') ? 'runuser' : 'su', which('runuser') ? ['-u', 'postgres', '--', bin, ...args] : ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map(shellQuote).join(' ')]]
    : [bin, args];
  return execFileSync(cmd, full, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function installPostgres(say: (msg: string) => void): void {
  say('PostgreSQL not found; installing it with apt-get');
  execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null'], { stdio: 'inherit' });
}

/** The port of the cluster's running postmaster (4th line of postmaster.pid), if it runs. */
function runningPort(bins: PgBinaries, dataDir: string): number | undefined {
  try {
    runPg(bins.pgCtl, ['status', '-D', dataDir]);
  } catch {
    return undefined;
  }
  const port = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

async function privateCluster(opts: PostgresOptions): Promise<PostgresServer | undefined> {
  const { say } = opts;
  let bins = findPgBinaries();
  if (!bins && isRoot() && (opts.mayInstall ?? true) && which('apt-get')) {
    try {
      installPostgres(say);
    } catch (err) {
      say(`apt-get could not install PostgreSQL: ${(err as Error).message}`);
    }
    bins = findPgBinaries();
  }
  if (!bins) return undefined;
  if (isRoot() && !osUserExists('postgres')) {
    say('PostgreSQL binaries found but no `postgres` OS user to run them as (PostgreSQL refuses root)');
    return undefined;
  }
  const dataDir = join(opts.clusterDir, 'data');
  // Its own socket directory (not /var/run/postgresql, which may belong to a system cluster);
  // unix sockets have a ~107-byte path limit, so a deep checkout gets TCP only.
  const socketDir = join(opts.clusterDir, 'run');
  mkdirSync(socketDir, { recursive: true });
  if (isRoot()) execFileSync('chown', ['-R', 'postgres', opts.clusterDir]);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    say(`creating a private PostgreSQL cluster in ${dataDir}`);
    runPg(bins.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  }
  const running = runningPort(bins, dataDir);
  if (running) {
    const url = `postgres://postgres@127.0.0.1:${running}/postgres`;
    if (await postgresAnswers(url)) return { url, kind: `private PostgreSQL cluster on port ${running} (already running, ${dataDir})` };
  }
  const port = await freePort();
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${socketDir.length < 90 ? socketDir : "''"}`, '-c max_connections=200'];
  runPg(bins.pgCtl, ['start', '-D', dataDir, '-w', '-t', '60', '-l', join(opts.clusterDir, 'postgres.log'), '-o', options.join(' ')]);
  const stopNow = () => {
    try {
      runPg(bins.pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w']);
    } catch {
      // already stopped
    }
  };
  // pg_ctl detaches the server: stop it when this process ends, however it ends.
  process.once('exit', stopNow);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kind: `private PostgreSQL cluster started on port ${port} (${dataDir})`,
    stop: async () => {
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}
