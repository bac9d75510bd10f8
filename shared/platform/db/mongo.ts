import mongoose from 'mongoose';
import { getConfig } from '../config';
import { childLogger } from '../logger';
import { ALL_MODELS } from './models';
import { createDeclaredIndexes, ensureFerretPostgresIndexes } from './ferretIndexes';
import { isFerretDB } from './server';

let connecting: Promise<typeof mongoose> | undefined;

/** Connects once per process and makes sure every index the API relies on exists. */
export async function connectMongo(): Promise<typeof mongoose> {
  if (!connecting) {
    const cfg = getConfig();
    mongoose.set('strictQuery', true);
    connecting = mongoose
      .connect(cfg.MONGODB_URI, { dbName: cfg.MONGODB_DB, serverSelectionTimeoutMS: 10000, autoIndex: false })
      .then(async (m) => {
        // On FerretDB only the unique ones: it uses no other for a query (shared/platform/db/ferretIndexes.ts).
        await createDeclaredIndexes(ALL_MODELS, await isFerretDB());
        const log = childLogger({ component: 'mongo' });
        if (cfg.FERRETDB_POSTGRES_URL) {
          // Without them FerretDB still answers, only slower: a failure is logged, not fatal.
          await ensureFerretPostgresIndexes(cfg.FERRETDB_POSTGRES_URL, cfg.MONGODB_DB, ALL_MODELS)
            .then((created) => created.length && log.info({ created: created.length }, 'ferretdb postgresql indexes created'))
            .catch((err) => log.warn({ err }, 'ferretdb postgresql indexes not created'));
        }
        log.info({ db: cfg.MONGODB_DB }, 'mongodb connected');
        return m;
      })
      .catch((err) => {
        connecting = undefined;
        throw err;
      });
  }
  return connecting;
}

export async function disconnectMongo(): Promise<void> {
  if (connecting) {
    connecting = undefined;
    await mongoose.disconnect();
  }
}

export async function pingMongo(): Promise<number> {
  const started = Date.now();
  const db = mongoose.connection.db;
  if (!db || mongoose.connection.readyState !== mongoose.ConnectionStates.connected) throw new Error('mongodb not connected');
  await db.admin().command({ ping: 1 });
  return Date.now() - started;
}
