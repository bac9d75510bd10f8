/**
 * The PostgreSQL that FerretDB stores in, for the embedded default. Order: POSTGRES_URL if
 * reachable -> a PostgreSQL answering on 127.0.0.1:5432 (trust auth as `postgres`) -> a private
 * cluster under .local/postgres made with the machine's initdb/pg_ctl (apt-get installing
 * PostgreSQL where missing and root) -> none (the caller falls back to SQLite).
 *
 * FerretDB gets a database of its own on that server, one per checkout: FerretDB keeps each
 * MongoDB database's collection list in memory, so two FerretDB processes that create the same
 * MongoDB database in one PostgreSQL database collide (the second's CREATE TABLE fails).
 *
 * Connections: each FerretDB pools at most FERRET_POOL_MAX_CONNS connections (its
 * `--postgresql-url` takes pgx's `pool_max_conns`; FerretDB 1.24 defaults it to 50); the private
 * cluster allows PRIVATE_MAX_CONNECTIONS, room for several FerretDBs (a checkout's shared one, a
 * bench's, a test's) and the processes' own short connections. `connectionHeadroom` tells
 * whether a server has room for one more pool, so running out is named at start.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { tuneFerretDatabase } from '../shared/platform/db/ferretIndexes';
import { findPgBinaries, isRoot, runPg, stopPrivateCluster, which, type PgBinaries } from './pgCtl';

export { findPgBinaries, stopPrivateCluster } from './pgCtl';

export interface PostgresServer {
  /** URL of FerretDB's own database on the server. */
  url: string;
  kind: string;
  /** Set when this process started the server (the private cluster). */
  stop?: () => Promise<void>;
  /** The private cluster's data directory, when the server is the private cluster (running or started here): stopPrivateCluster stops it. */
  privateDataDir?: string;
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
  /**
   * Leave a private cluster this call starts running when this process exits: the caller stops it
   * (scripts/services.ts, when the last run using it ends). Default: stopped at this process's exit.
   */
  keepRunning?: boolean;
  say: (msg: string) => void;
}

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Connections one FerretDB may hold (pgx `pool_max_conns`). All runs of a checkout share one
 * FerretDB (scripts/services.ts), so this bounds the whole checkout; a query past it waits for a
 * pooled connection instead of failing. FerretDB 1.24's default is 50.
 */
export const FERRET_POOL_MAX_CONNS = 40;
/** max_connections of the private cluster: five FerretDB pools and 100 more for the processes' own connections. */
export const PRIVATE_MAX_CONNECTIONS = 5 * FERRET_POOL_MAX_CONNS + 100;

/**
 * FerretDB's PostgreSQL URL with its pool bounded, and idle connections closed after a minute
 * (FerretDB 1.24 sets pool_max_conn_idle_time to 1m only when the URL names it) so a quiet
 * FerretDB gives its connections back to the other servers' pools.
 */
export function ferretPoolUrl(url: string, maxConns = FERRET_POOL_MAX_CONNS): string {
  const u = new URL(url);
  u.searchParams.set('pool_max_conns', String(maxConns));
  u.searchParams.set('pool_max_conn_idle_time', '1m');
  return u.toString();
}

/** The SQLSTATE and text PostgreSQL refuses a connection with when max_connections is reached. */
export const TOO_MANY_CLIENTS = { code: '53300', text: 'too many clients already' } as const;

export interface Headroom {
  maxConnections: number;
  reserved: number;
  inUse: number;
  /** Connections a new client may still open: max_connections - superuser_reserved_connections - in use. */
  free: number;
}

/** How many more connections the server takes now; a refusal for too many clients is thrown as a clear error. */
export async function connectionHeadroom(serverUrl: string): Promise<Headroom> {
  const client = new Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw tooManyClientsError(err, serverUrl) ?? err;
  }
  try {
    const { rows } = await client.query<{ max: string; reserved: string; used: string }>(
      "SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved, (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend') AS used",
    );
    const maxConnections = Number(rows[0].max);
    const reserved = Number(rows[0].reserved);
    const inUse = Number(rows[0].used);
    return { maxConnections, reserved, inUse, free: maxConnections - reserved - inUse };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PostgreSQL's "sorry, too many clients already" as an error naming the server, its limit and the remedy; undefined for any other error. */
export function tooManyClientsError(err: unknown, serverUrl: string): Error | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (code !== TOO_MANY_CLIENTS.code && !message.includes(TOO_MANY_CLIENTS.text)) return undefined;
  return new Error(
    `PostgreSQL at ${new URL(serverUrl).host} refused a connection: ${TOO_MANY_CLIENTS.text} (max_connections reached). Stop runs you no longer need, or raise max_connections on that server (each FerretDB pools up to ${FERRET_POOL_MAX_CONNS})`,
  );
}

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
  const use = async (serverUrl: string, kind: string, stop?: () => Promise<void>, privateDataDir?: string): Promise<PostgresServer> => {
    await ensureDatabase(serverUrl, opts.database).catch((err: unknown) => {
      throw tooManyClientsError(err, serverUrl) ?? err;
    });
    return { url: withDatabase(serverUrl, opts.database), kind, stop, privateDataDir };
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
  return cluster && use(cluster.url, cluster.kind, cluster.stop, cluster.privateDataDir);
}

// ---------------------------------------------------------------- private cluster

function osUserExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

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
    if (await postgresAnswers(url)) return { url, kind: `private PostgreSQL cluster on port ${running} (already running, ${dataDir})`, privateDataDir: dataDir };
  }
  const port = await freePort();
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${socketDir.length < 90 ? socketDir : "''"}`, `-c max_connections=${PRIVATE_MAX_CONNECTIONS}`];
  runPg(bins.pgCtl, ['start', '-D', dataDir, '-w', '-t', '60', '-l', join(opts.clusterDir, 'postgres.log'), '-o', options.join(' ')]);
  const stopNow = () => stopPrivateCluster(dataDir);
  // pg_ctl detaches the server: stop it when this process ends, however it ends (unless the caller keeps it).
  if (!opts.keepRunning) process.once('exit', stopNow);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kind: `private PostgreSQL cluster started on port ${port} (${dataDir})`,
    privateDataDir: dataDir,
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
