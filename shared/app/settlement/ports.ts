import type { Change } from '../../domain/feed/changes';
import type { LegRecommendation, ResultWrite } from '../../domain/settlement/plan';
import type { SettlementPickRow, SettlementRecommendationRow } from '../../platform/db/repositories/ai';
import type { LiveEventDataRow } from '../../platform/db/repositories/events';
import type { SettlementEventRow } from '../../platform/db/repositories/settlementEvents';

/**
 * What settlement reads and writes. The process binds it to the repositories, the rollups, the
 * commitments chain, the change feed and the metrics (./store.ts); unit tests to memory.
 */
export interface SettlementStore {
  findEvents(ids: readonly string[]): Promise<SettlementEventRow[]>;
  findLiveData(eventIds: readonly string[]): Promise<LiveEventDataRow[]>;
  findRecommendations(eventIds: readonly string[]): Promise<SettlementRecommendationRow[]>;
  /** Each write conditional on its `expect`: matchedCount says how many found the document as read. */
  writeRecommendationResults(writes: readonly ResultWrite[]): Promise<{ matchedCount: number }>;
  findPicks(eventIds: readonly string[]): Promise<SettlementPickRow[]>;
  findLegRecommendations(ids: readonly string[]): Promise<(LegRecommendation & { _id: string })[]>;
  findCancelledUnstartedEventIds(ids: readonly string[]): Promise<string[]>;
  writePickResults(writes: readonly ResultWrite[]): Promise<{ matchedCount: number }>;
  /** Recomputes the performance rollups of the bets' days (coalesced within the process). */
  refreshRollups(days: readonly string[]): Promise<void>;
  /** Commits the settled recommendations and picks of these events to the commitments chain. */
  commitSettlements(recommendationEventIds: readonly string[], pickEventIds: readonly string[]): Promise<unknown>;
  appendChanges(batchId: string, changes: readonly Change[]): Promise<unknown>;
  /** The settled-at-version markers the sweeper checks. */
  markSettled(versions: readonly { eventId: string; version: number }[], now: Date): Promise<unknown>;
  recordFirstSettlements(events: readonly SettlementEventRow[], settledAt: Date): void;
}
