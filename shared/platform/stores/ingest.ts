import type { CacheScope } from '../../domain/cacheScopes';
import type { IngestPlan } from '../../domain/ingest/plan';
import { bumpCacheVersion } from '../cache/versions';
import { skipWorldClockTo } from '../clock/worldClock';
import { key, redis } from '../db/redis';
import { hasEventsOfEarlierLayout, migrateEventsOfEarlierLayout } from '../db/repositories/eventMigration';
import { findLiveEventIdsOfProvider } from '../db/repositories/events';
import { upsertProviderStateFields } from '../db/repositories/providers';
import { publishStaged, recoverStaged, stageChanges } from '../feed/changeFeed';
import { applyPlan, syncInsightStatuses } from '../ingest/apply';
import { INGEST_LOCK_TTL_MS, ingestLockKey, invalidateIngestState, loadIngestState, saveIngestState, whileIngestPaused } from '../ingest/state';
import { publishEventWrites } from '../listing/store';
import { clearIngestWriting, markIngestWriting } from '../ingest/writing';
import { tryWithLock } from '../locks';

const slotKey = (provider: string) => key('ingest', 'slot', provider);

/**
 * Ingestion's store (shared/app/ingest/ports.ts): MongoDB's repositories, ingestion's state memory
 * and its Redis token, the change feed, the page cache's versions, the listing, the provider's
 * Redis lock and last slot, the world clock.
 */
export function ingestStore() {
  return {
    updateProviderState: upsertProviderStateFields,
    findLiveEventIds: (provider: string) => findLiveEventIdsOfProvider(provider),
    recoverStagedChanges: recoverStaged,
    stageChanges,
    publishStagedChanges: publishStaged,
    loadState: loadIngestState,
    invalidateState: invalidateIngestState,
    saveState: saveIngestState,
    markWriting: markIngestWriting,
    clearWriting: clearIngestWriting,
    applyPlan,
    syncInsightStatuses,
    bumpCacheVersions: (scopes: readonly CacheScope[]) => bumpCacheVersion(...scopes),
    publishEventWrites: (writes: Pick<IngestPlan, 'events' | 'prices' | 'liveData'>) => publishEventWrites(writes),
    readSlot: (provider: string) => redis().get(slotKey(provider)),
    recordSlot: async (provider: string, state: string) => void (await redis().set(slotKey(provider), state)),
    whilePaused: whileIngestPaused,
    withProviderLock: <T>(provider: string, fn: () => Promise<T>) => tryWithLock(redis(), ingestLockKey(provider), INGEST_LOCK_TTL_MS, fn),
    skipWorldClockTo: async (worldMs: number) => void (await skipWorldClockTo(worldMs)),
    hasEventsOfEarlierLayout,
    migrateEventsOfEarlierLayout,
  };
}
