import type { Confidence, Rollup } from '../../domain/grading';
import type { Change } from '../../domain/feed/changes';
import type { LegRecommendation, PickRead, RecommendationRead, ResultWrite } from '../../domain/settlement/plan';
import type { StoredEvent, StoredStats } from '../../domain/ingest/stored';
import type { EventStats } from '../../domain/stats';

/** The stats of a stored document, a count not stored reading as null. */
export type StoredCounts = Partial<Record<keyof EventStats, number | null>>;

/** An event's settlement marker as settlement's reads put it back on the event (null: never settled). */
type WithSettledVersion = { settledVersion?: number | null };

/** An event as settlement reads it: its own fields and its marker's `settledVersion`. */
export type SettlementEventRow = Pick<StoredEvent, '_id' | 'status'> & Partial<Pick<StoredEvent, 'voided' | 'startedAt' | 'endedAt' | 'resultVersion' | 'stats' | 'closingLine'>> & WithSettledVersion;

/** An event as the settlement sweep reads it (no stats). */
export type SweepEventRow = Omit<SettlementEventRow, 'stats' | 'closingLine'>;

/** An event's live data (what settlement grades, the contract says) as settlement reads it. */
export type LiveDataRow = StoredCounts & { _id: string; eventId: string };

/** A recommendation as settlement grades it. */
export type SettlementRecommendationRow = RecommendationRead & { eventId: string; eventStartAt: Date; createdAt?: Date; confidence: string; settlementWrites?: number | null };

/** A pick as settlement grades it. */
export type SettlementPickRow = PickRead & { eventIds: string[] };

/**
 * What settlement reads and writes. The process binds it to the repositories, the rollups, the
 * commitments chain, the change feed and the metrics (shared/platform/stores/settlement.ts and
 * shared/app/processContext.ts); unit tests to memory.
 */
export interface SettlementStore {
  findEvents(ids: readonly string[]): Promise<SettlementEventRow[]>;
  findLiveData(eventIds: readonly string[]): Promise<LiveDataRow[]>;
  findRecommendations(eventIds: readonly string[]): Promise<SettlementRecommendationRow[]>;
  /** Each write conditional on its `expect`: matchedCount says how many found the document as read. */
  writeRecommendationResults(writes: readonly ResultWrite[]): Promise<{ matchedCount: number }>;
  /** The recommendations as stored once graded, into the betting-recommendations read model (idempotent). */
  publishRecommendations(recs: readonly SettlementRecommendationRow[]): Promise<void>;
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

  /** The sweep: events (as stored) with bets not settled and not parked with a grading error. */
  findEventIdsWithOpenBets(): Promise<string[]>;
  findSweepEvents(ids: readonly string[]): Promise<SweepEventRow[]>;
  /** Events updated since `since`, with their markers. */
  findEventsUpdatedSince(since: Date): Promise<SweepEventRow[]>;
}

/** A settled recommendation as the performance rollups count it. */
export interface SettledBetRow {
  _id: string;
  confidence: Confidence;
  result?: string | null;
  resultDetail?: string | null;
  returnPerUnit?: number | null;
  edgePercentage: number;
  eventStartAt: Date;
}

/** A stored rollup: a day and confidence's counters, and the revision its compare-and-set writes over. */
export type StoredRollupRow = Rollup & { _id: string; rev?: number | null; updatedAt?: Date };

/** One rollup written over the revision read (`expectRev` null: none was stored). */
export interface RollupWrite {
  id: string;
  expectRev: number | null;
  set: Record<string, unknown> & { rev: number };
}

/**
 * The performance rollups' store: the settled bets they are recomputed from, and the rollups
 * written by compare-and-set (shared/platform/stores/settlement.ts); unit tests to memory.
 */
export interface RollupStore {
  /** The settled recommendations whose event started on one of these UTC days. */
  findSettledBetsOfDays(days: readonly string[]): Promise<SettledBetRow[]>;
  findAllSettledBets(): Promise<SettledBetRow[]>;
  findRollups(filter: { days?: readonly string[] }): Promise<StoredRollupRow[]>;
  /** 'conflict' when a rollup was not at the revision read (another writer got in between). */
  writeRollups(writes: readonly RollupWrite[]): Promise<'written' | 'conflict'>;
}

/** An event as a result correction reads it. */
export type CorrectionEventRow = Pick<StoredEvent, '_id' | 'status'> & Partial<Pick<StoredEvent, 'voided' | 'startedAt' | 'resultVersion' | 'stats'>> & WithSettledVersion;

/** What a correction writes on the event, conditional on the version it read. */
export interface CorrectionWrite {
  resultVersion: number;
  resultOverride: { at: Date; resultVersion: number; fields: string[] };
  /** The changed counts, each set in the stored stats; or the whole stats, where none were stored. */
  stats?: { fields: StoredCounts } | { whole: StoredStats };
  voided?: boolean;
}

/**
 * What a result correction reads and writes besides ingestion's lock and memory (the ingest
 * store). The process binds it to the repositories, the change feed and a Redis lock per event
 * (shared/platform/stores/settlement.ts); unit tests to memory.
 */
export interface CorrectionStore {
  /** The provider whose ingest writes the event; null when there is no such event. */
  findEventProvider(eventId: string): Promise<string | null>;
  findEvent(eventId: string): Promise<CorrectionEventRow | null>;
  findLiveData(eventId: string): Promise<LiveDataRow | null>;
  setLiveDataFields(id: string, fields: StoredCounts): Promise<void>;
  /** Writes `write` if the event's resultVersion is still `expectedVersion`; matched false otherwise. */
  writeEventResult(eventId: string, expectedVersion: number | null | undefined, write: CorrectionWrite): Promise<{ matched: boolean }>;
  appendChanges(batchId: string, changes: readonly Change[]): Promise<unknown>;
  /** Runs `fn` holding the event's correction lock (one correction of an event at a time), or `held: false` at once. */
  withEventLock<T>(eventId: string, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
}
