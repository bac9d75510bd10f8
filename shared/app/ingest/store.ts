import { bumpCacheVersion } from '../../platform/cache/versions';
import { skipWorldClockTo } from '../../platform/clock/worldClock';
import { key, redis } from '../../platform/db/redis';
import { findLiveEventIdsOfProvider } from '../../platform/db/repositories/events';
import { upsertProviderStateFields } from '../../platform/db/repositories/providers';
import { publishStaged, recoverStaged, stageChanges } from '../../platform/feed/changeFeed';
import { publishEventWrites } from '../../platform/listing/store';
import { tryWithLock } from '../../platform/locks';
import { applyPlan, syncInsightStatuses } from './apply';
import type { IngestStore } from './ports';
import { INGEST_LOCK_TTL_MS, ingestLockKey, invalidateIngestState, loadIngestState, saveIngestState, whileIngestPaused } from './state';

const slotKey = (provider: string) => key('ingest', 'slot', provider);

/**
 * Ingestion's store as the process runs it: MongoDB's repositories, ingestion's state memory and
 * its Redis token, the change feed, the page cache's versions, the listing, the provider's Redis
 * lock and last slot, the world clock.
 */
export function ingestStore(): IngestStore {
  return {
    updateProviderState: upsertProviderStateFields,
    findLiveEventIds: (provider) => findLiveEventIdsOfProvider(provider),
    recoverStagedChanges: recoverStaged,
    stageChanges,
    publishStagedChanges: publishStaged,
    loadState: loadIngestState,
    invalidateState: invalidateIngestState,
    saveState: saveIngestState,
    applyPlan,
    syncInsightStatuses,
    bumpCacheVersions: (scopes) => bumpCacheVersion(...scopes),
    publishEventWrites: (writes) => publishEventWrites(writes),
    readSlot: (provider) => redis().get(slotKey(provider)),
    recordSlot: async (provider, state) => void (await redis().set(slotKey(provider), state)),
    whilePaused: whileIngestPaused,
    withProviderLock: (provider, fn) => tryWithLock(redis(), ingestLockKey(provider), INGEST_LOCK_TTL_MS, fn),
    skipWorldClockTo: async (worldMs) => void (await skipWorldClockTo(worldMs)),
  };
}
