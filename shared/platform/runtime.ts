import type { CacheScope } from '../domain/cacheScopes';
import { bumpCacheVersion } from './cache/versions';
import { toRealTime, worldNow } from './clock/worldClock';
import { getConfig, type Config } from './config';
import { childLogger } from './logger';

/**
 * What a process's context takes from the platform besides its stores: the settings, the clocks,
 * the logger and the page cache's versions. The settings are read at each use, not copied: a test
 * file's settings (overrideEnv) reach a context made by the files before it.
 */
export const platformRuntime = {
  get config(): Config {
    return getConfig();
  },
  clock: { now: () => new Date(), worldNow, toRealTime },
  log: childLogger,
  cache: { bump: (...scopes: CacheScope[]) => bumpCacheVersion(...scopes) },
};
