import type { Rollup } from '../../domain/grading';
import { dayRange } from '../../domain/settlement/state';
import {
  distinctEventIdsWithOpenBets,
  findAllSettledBets,
  findLegRecommendations,
  findPicksOfEventsForSettlement,
  findRecommendationsOfEventsForSettlement,
  findSettledBetsInRanges,
  writePickResults,
  writeRecommendationResults,
} from '../db/repositories/ai';
import { isDuplicateKey } from '../db/duplicateKey';
import { findCancelledUnstartedEventIds, findEventProvider, findLiveEventDataOfEvent, findLiveEventDataOfEvents, setLiveEventDataFields, updateEventIfResultVersion } from '../db/repositories/events';
import { markEventsSettledAtVersions } from '../db/repositories/eventSettlements';
import { bulkWriteRollups, findRollups } from '../db/repositories/performance';
import { findEventForCorrection, findEventsForSettlement, findSettlementEventsByIds, findSettlementEventsUpdatedSince } from '../db/repositories/settlementEvents';
import { key, redis } from '../db/redis';
import { appendChanges } from '../feed/changeFeed';
import { tryWithLock } from '../locks';
import { publishRecommendationRows } from '../recommendations/store';

/**
 * Settlement's store (shared/app/settlement/ports.ts) on MongoDB and the change feed; the rollups'
 * refresh, the chain's commit and the metrics are bound by the context.
 */
export function settlementStore() {
  return {
    findEvents: findEventsForSettlement,
    findLiveData: findLiveEventDataOfEvents,
    findRecommendations: findRecommendationsOfEventsForSettlement,
    writeRecommendationResults,
    publishRecommendations: (recs: Parameters<typeof publishRecommendationRows>[0]) => publishRecommendationRows(recs, 'settlement'),
    findPicks: (eventIds: readonly string[]) => findPicksOfEventsForSettlement(eventIds),
    findLegRecommendations,
    findCancelledUnstartedEventIds,
    writePickResults,
    appendChanges: (batchId: string, changes: Parameters<typeof appendChanges>[2]) => appendChanges('settlement', batchId, changes),
    markSettled: markEventsSettledAtVersions,
    findEventIdsWithOpenBets: async () => (await distinctEventIdsWithOpenBets()).map(String),
    findSweepEvents: findSettlementEventsByIds,
    findEventsUpdatedSince: findSettlementEventsUpdatedSince,
  };
}

/** The performance rollups' store: compare-and-set upserts on each rollup's revision. */
export function rollupStore() {
  return {
    findSettledBetsOfDays: (days: readonly string[]) => findSettledBetsInRanges(days.map((d) => dayRange(d))),
    findAllSettledBets,
    findRollups: (filter: { days?: readonly string[] }) => findRollups<Rollup & { _id: string; rev?: number | null; updatedAt?: Date }>(filter),
    writeRollups: async (writes: readonly { id: string; expectRev: number | null; set: Record<string, unknown> }[]): Promise<'written' | 'conflict'> => {
      if (writes.length === 0) return 'written';
      const ops = writes.map((w) => ({ updateOne: { filter: { _id: w.id, rev: w.expectRev }, update: { $set: w.set }, upsert: true } }));
      try {
        const res = await bulkWriteRollups(ops);
        return res.matchedCount + res.upsertedCount === ops.length ? 'written' : 'conflict';
      } catch (err) {
        // The document appeared (or moved on) since it was read: an upsert hit its _id.
        if (isDuplicateKey(err)) return 'conflict';
        throw err;
      }
    },
  };
}

const CORRECTION_LOCK_TTL_MS = 30_000;

/** A result correction's store: the event's documents, the change feed, and a Redis lock per event. */
export function correctionStore() {
  return {
    findEventProvider,
    findEvent: findEventForCorrection,
    findLiveData: findLiveEventDataOfEvent,
    setLiveDataFields: setLiveEventDataFields,
    writeEventResult: async (
      eventId: string,
      expectedVersion: number | null | undefined,
      w: { resultVersion: number; resultOverride: object; stats?: { fields: Record<string, unknown> } | { whole: object }; voided?: boolean },
    ): Promise<{ matched: boolean }> => {
      const set: Record<string, unknown> = { resultVersion: w.resultVersion, resultOverride: w.resultOverride };
      if (w.stats && 'whole' in w.stats) set.stats = w.stats.whole;
      else if (w.stats) for (const [f, v] of Object.entries(w.stats.fields)) set[`stats.${f}`] = v;
      if (w.voided !== undefined) set.voided = w.voided;
      const res = await updateEventIfResultVersion(eventId, expectedVersion, set);
      return { matched: res.matchedCount === 1 };
    },
    appendChanges: (batchId: string, changes: Parameters<typeof appendChanges>[2]) => appendChanges('correction', batchId, changes),
    withEventLock: <T>(eventId: string, fn: () => Promise<T>) => tryWithLock(redis(), key('settlement', 'correct', eventId), CORRECTION_LOCK_TTL_MS, fn),
  };
}
