import { relative, resolve } from 'node:path';
import mongoose from 'mongoose';
import { closeQueues } from '../../shared/platform/queues/client';
import { envSnapshot, getConfig, setEnvForChildren } from '../../shared/platform/config';
import { connectMongo, disconnectMongo } from '../../shared/platform/db/mongo';
import { renewProcessScope } from '../../shared/platform/processScope';
import { deleteKeysOfThisRun } from './redisKeys';

/**
 * Every integration test file runs on a MongoDB database and a Redis prefix of its own, created
 * when its first suite starts and dropped when its last one ends: a file passes alone and in any
 * order, and no file can see another's settled bets, queues or rollups. The test process and every
 * worker or CLI child the file starts read them from the config (setEnvForChildren).
 */

const ROOT = resolve(__dirname, '../..');
const HOOK = 'own database and Redis prefix';

interface Stores {
  file: string;
  db: string;
  prefix: string;
  dropped: boolean;
}

let runBase: { db: string; prefix: string } | undefined;
/** The run's settings (test/helpers/runEnv.ts), taken when the first file starts: every file starts from them. */
let runEnv: (() => void) | undefined;
let current: Stores | undefined;
let count = 0;

/** Short, readable and valid as a database name (FerretDB's on PostgreSQL too): `3_settlement_rules`. */
function slug(file: string): string {
  const name = relative(ROOT, file)
    .replace(/^test\/integration\//, '')
    .replace(/\.test\.ts$/, '')
    .replace(/[^A-Za-z0-9]+/g, '_');
  return `${++count}_${name}`.slice(0, 28);
}

/**
 * Drops a database on a connection of its own: the file may never have connected (a child process
 * wrote), and connecting the process would first create every index.
 */
export async function dropDatabaseNamed(db: string): Promise<void> {
  const conn = await mongoose.createConnection(getConfig().MONGODB_URI, { dbName: db, serverSelectionTimeoutMS: 10000 }).asPromise();
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close();
  }
}

/** Drops the file's database and every key under its prefix, then moves back to the run's. */
async function dropStores(stores: Stores): Promise<void> {
  if (stores.dropped) return;
  stores.dropped = true;
  await closeQueues();
  await disconnectMongo();
  await dropDatabaseNamed(stores.db);
  await deleteKeysOfThisRun();
  renewProcessScope(); // this process's memories of the stores must not outlive them
  setEnvForChildren({ MONGODB_DB: runBase!.db, REDIS_PREFIX: runBase!.prefix });
}

async function enterStores(file: string): Promise<void> {
  if (current?.file === file) return;
  if (current) await dropStores(current);
  // A file's settings (setEnvForChildren in its hooks) end with it: the next starts from the run's.
  if (runEnv) runEnv();
  else runEnv = envSnapshot();
  runBase ??= { db: getConfig().MONGODB_DB, prefix: getConfig().REDIS_PREFIX };
  const name = slug(file);
  // The prefix stays short (the config allows 40 characters); the database name says which file.
  current = { file, db: `${runBase.db}_${name}`, prefix: `${runBase.prefix}-${count}`, dropped: false };
  await closeQueues();
  await disconnectMongo();
  renewProcessScope(); // this process's memories of the stores must not outlive them
  setEnvForChildren({ MONGODB_DB: current.db, REDIS_PREFIX: current.prefix });
  // Connected here, under this hook's long timeout: a new database first gets every index (on
  // FerretDB, dozens of PostgreSQL indexes), which a loaded machine may not finish within the
  // file's own 20 s before-all hook.
  await connectMongo();
}

/** Drops the last file's stores (a --grep may skip the suite that would have). */
export async function dropLastFileStores(): Promise<void> {
  if (current) await dropStores(current);
}

/** Mocha's list of a suite's hooks of one kind, in run order. */
interface SuiteHooks {
  getHooks(name: 'beforeAll' | 'afterAll'): Mocha.Hook[];
}

/**
 * Gives each integration file under `root` its stores: a before-all hook that runs first in each
 * of the file's top-level suites (switching once per file), and an after-all hook that runs last
 * in its last one. Called by the root before-all hook, before any file's own hooks run.
 */
export function giveEachFileItsStores(root: Mocha.Suite): void {
  const lastSuiteOf = new Map<string, Mocha.Suite>();
  for (const suite of root.suites) {
    const file = suite.file;
    if (!file || suite.isPending() || !relative(ROOT, file).startsWith('test/integration/')) continue;
    suite.beforeAll(HOOK, async function (this: Mocha.Context) {
      this.timeout(120_000);
      await enterStores(file);
    });
    const hooks = (suite as unknown as SuiteHooks).getHooks('beforeAll');
    hooks.unshift(hooks.pop()!);
    lastSuiteOf.set(file, suite);
  }
  for (const suite of lastSuiteOf.values()) {
    suite.afterAll(HOOK, async function (this: Mocha.Context) {
      this.timeout(120_000);
      if (current) await dropStores(current);
    });
  }
}
