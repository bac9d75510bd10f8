/**
 * Loaded by mocha before any test file. Each run gets its own database and Redis prefix on the
 * real servers `npm test` started, so runs never see each other's data; both are removed after.
 */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { closeQueues } from '../jobs/client';
import { setEnvForChildren } from '../shared/config';
import { connectMongo, disconnectMongo } from '../shared/db/mongo';
import { closeAllRedis } from '../shared/db/redis';
import { deleteKeysOfThisRun } from './helpers/redisKeys';

const runId = `t${process.pid}${randomBytes(3).toString('hex')}`;
setEnvForChildren({
  MONGODB_DB: `odds_test_${runId}`,
  REDIS_PREFIX: `test-${runId}`,
  LOG_LEVEL: process.env.LOG_LEVEL || 'silent',
  NODE_ENV: 'test',
  SHUTDOWN_TIMEOUT_MS: '5000',
});

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(30000);
    await connectMongo();
    await mongoose.connection.db!.dropDatabase();
    await disconnectMongo();
    await deleteKeysOfThisRun();
    await closeQueues();
    await closeAllRedis();
  },
};
