import mongoose from 'mongoose';
import { closeQueues } from '../../jobs/client';
import { getConfig, setEnvForChildren } from '../../shared/config';
import { connectMongo, disconnectMongo } from '../../shared/db/mongo';
import { deleteKeysOfThisRun } from './redisKeys';

/**
 * Moves a test file (the test process and every worker or CLI child it starts afterwards) to a
 * database and Redis prefix of its own, for files whose assertions are suite-wide (every rollup,
 * every settled bet): other files write settled bets straight to the collection in the run's
 * shared database. Returns the function that drops them and moves back.
 */
export async function useOwnStores(suffix: string): Promise<() => Promise<void>> {
  const base = { MONGODB_DB: getConfig().MONGODB_DB, REDIS_PREFIX: getConfig().REDIS_PREFIX };
  await closeQueues();
  await disconnectMongo();
  setEnvForChildren({ MONGODB_DB: `${base.MONGODB_DB}_${suffix}`, REDIS_PREFIX: `${base.REDIS_PREFIX}-${suffix}` });
  await connectMongo();
  return async () => {
    await mongoose.connection.db!.dropDatabase();
    await deleteKeysOfThisRun();
    await closeQueues();
    await disconnectMongo();
    setEnvForChildren(base);
    await connectMongo();
  };
}
