/**
 * The soak's own servers, on free ports under its directory, that it can kill and start again
 * where their clients connect: a redis-server with the bootstrap's persistence (AOF every second,
 * noeviction), a private PostgreSQL cluster and a FerretDB storing in it. Never the machine's
 * Redis on 6379 or PostgreSQL on 5432.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureFerretBinary, startFerret, startRedisServer, type StartedFerret } from '../services';
import { ensurePostgres, findPgBinaries, type PostgresServer } from '../postgres';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing answers on: the private cluster is chosen over any machine-wide PostgreSQL. */
const NO_LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:9/postgres';

export interface SoakServers {
  env: { MONGODB_URI: string; REDIS_URL: string; FERRETDB_POSTGRES_URL?: string };
  /** What the store fault kills: "FerretDB and its PostgreSQL", or FerretDB alone (SQLite). */
  storeKind: string;
  killRedis(): Promise<void>;
  startRedis(): Promise<void>;
  killStore(): Promise<void>;
  startStore(): Promise<void>;
}

/** pg_ctl as PostgreSQL wants it run: as the `postgres` OS user when we are root. */
function pgCtl(args: string[]): void {
  const bins = findPgBinaries();
  if (!bins) throw new Error('pg_ctl not found');
  const [cmd, full] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bins.pgCtl, ...args]] : [bins.pgCtl, args];
  execFileSync(cmd, full, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export async function startSoakServers(dir: string, say: (msg: string) => void): Promise<SoakServers> {
  const logDir = join(dir, 'logs');
  const redisDir = join(dir, 'redis');
  let redis = await startRedisServer(redisDir, { persist: true, logDir });
  const redisPort = redis.port;

  const bin = ensureFerretBinary();
  if (!bin) throw new Error('the soak needs FerretDB (Go to build it) or a mongod; neither found');
  const pg: PostgresServer | undefined = await ensurePostgres({ localUrl: NO_LOCAL_POSTGRES, clusterDir: join(dir, 'postgres'), database: 'ferretdb_soak', mayInstall: false, say });
  const store = pg ? { postgresqlUrl: pg.url } : { sqliteDir: join(dir, 'ferretdb-sqlite') };
  let ferret: StartedFerret = await startFerret(bin, store, 'ferretdb', { localDir: dir });
  const ferretPort = ferret.port;
  const dataDir = pg?.privateDataDir;

  const waitGone = async (pid: number) => {
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await sleep(50);
    }
  };

  return {
    env: { MONGODB_URI: ferret.uri, REDIS_URL: redis.url, ...(pg ? { FERRETDB_POSTGRES_URL: pg.url } : {}) },
    storeKind: dataDir ? `FerretDB and its private PostgreSQL cluster (${dataDir})` : 'FerretDB alone (SQLite backend: no private PostgreSQL cluster could be started)',
    async killRedis() {
      const child = redis.child;
      child.kill('SIGKILL');
      if (child.pid) await waitGone(child.pid);
    },
    async startRedis() {
      redis = await startRedisServer(redisDir, { port: redisPort, persist: true, logDir });
    },
    async killStore() {
      process.kill(ferret.pid, 'SIGKILL');
      await waitGone(ferret.pid);
      // A crash: immediate mode, no checkpoint; the start after it runs crash recovery.
      if (dataDir) pgCtl(['stop', '-D', dataDir, '-m', 'immediate', '-w']);
    },
    async startStore() {
      // restart on a stopped cluster starts it with the options of its last start (postmaster.opts): the same port.
      if (dataDir) pgCtl(['restart', '-D', dataDir, '-w', '-t', '60', '-l', join(dir, 'postgres', 'postgres.log')]);
      ferret = await startFerret(bin, store, 'ferretdb', { localDir: dir, port: ferretPort });
    },
  };
}
