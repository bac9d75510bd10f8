/**
 * Loaded by mocha before any test file. Each run gets its own database and Redis prefix on the
 * real servers `npm test` started (helpers/runEnv.ts), so runs never see each other's data, and
 * each integration file one of its own under it (helpers/fileStores.ts), so files never see each
 * other's; all are removed after.
 */
import './helpers/runEnv'; // first: before any module of the service reads the config
import { closeQueues } from '../shared/platform/queues/client';
import { getConfig } from '../shared/platform/config';
import { disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { dropDatabaseNamed, dropLastFileStores, giveEachFileItsStores } from './helpers/fileStores';
import { timeEachFile } from './helpers/fileTimes';
import { deleteKeysOfThisRun } from './helpers/redisKeys';

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    // The root suite holds every loaded file's suites; none has started yet.
    giveEachFileItsStores(this.test!.parent!);
    timeEachFile(this.test!.parent!);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30000);
    await dropLastFileStores();
    await disconnectMongo();
    await dropDatabaseNamed(getConfig().MONGODB_DB);
    await deleteKeysOfThisRun();
    await closeQueues();
    await closeAllRedis();
  },
};
