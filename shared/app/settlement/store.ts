import { findLegRecommendations, findPicksOfEventsForSettlement, findRecommendationsOfEventsForSettlement, writePickResults, writeRecommendationResults } from '../../platform/db/repositories/ai';
import { findCancelledUnstartedEventIds, findLiveEventDataOfEvents } from '../../platform/db/repositories/events';
import { markEventsSettledAtVersions } from '../../platform/db/repositories/eventSettlements';
import { findEventsForSettlement } from '../../platform/db/repositories/settlementEvents';
import { appendChanges } from '../../platform/feed/changeFeed';
import { recordFirstSettlements } from '../metrics/record';
import { RollupRefresher } from './rollups';
import type { SettlementStore } from './ports';

/** Settlement's store as the process runs it: MongoDB's repositories, the rollups, the chain, the change feed. */
export function settlementStore(): Omit<SettlementStore, 'commitSettlements'> {
  // One per process context: refreshes of the rollups coalesce across the jobs it runs.
  const rollups = new RollupRefresher();
  return {
    findEvents: findEventsForSettlement,
    findLiveData: findLiveEventDataOfEvents,
    findRecommendations: findRecommendationsOfEventsForSettlement,
    writeRecommendationResults,
    findPicks: (eventIds) => findPicksOfEventsForSettlement(eventIds),
    findLegRecommendations,
    findCancelledUnstartedEventIds,
    writePickResults,
    refreshRollups: (days) => rollups.request(days),
    appendChanges: (batchId, changes) => appendChanges('settlement', batchId, changes),
    markSettled: markEventsSettledAtVersions,
    recordFirstSettlements,
  };
}
