import mongoose from 'mongoose';

let ferret: Promise<boolean> | undefined;

function connectedDb() {
  const db = mongoose.connection.db;
  if (!db) throw new Error('mongodb not connected');
  return db;
}

/**
 * Whether the connected server is FerretDB (asked once per process): the few places that must
 * work around its query planner (shared/platform/db/bulk.ts, shared/platform/db/lookup.ts) ask here.
 */
export function isFerretDB(): Promise<boolean> {
  ferret ??= connectedDb()
    .admin()
    .command({ buildInfo: 1 })
    .then((info) => Boolean(info.ferretdbVersion))
    .catch((err) => {
      ferret = undefined;
      throw err;
    });
  return ferret;
}
