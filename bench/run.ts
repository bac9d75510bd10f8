import { startLocalServices } from '../scripts/services';
import { setEnvForChildren } from '../shared/platform/config';

/**
 * A bench run's own database and Redis prefix (`<name>_<pid>`) on the local services, so two
 * runs never share data. Modules that read the configuration are imported after this.
 */
export async function startBenchRun(name: string, env: Record<string, string> = {}) {
  const local = await startLocalServices();
  const runId = `${name}_${process.pid}`;
  setEnvForChildren({ ...local.env, MONGODB_DB: runId, REDIS_PREFIX: runId, LOG_LEVEL: 'warn', ...env });
  return { local, runId };
}

/** Drops the run's database and deletes its Redis keys; either being unreachable at the end of a run is no error. */
export async function dropRunData(): Promise<void> {
  // Imported here, not at the top: the configuration is set by the bench before these load.
  const mongoose = (await import('mongoose')).default;
  const { key, redis } = await import('../shared/platform/db/redis');
  await mongoose.connection.db?.dropDatabase().catch(() => undefined);
  const keys = await redis()
    .keys(`${key('')}*`)
    .catch(() => [] as string[]);
  if (keys.length) await redis().del(...keys);
}
