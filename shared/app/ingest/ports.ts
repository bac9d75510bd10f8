import type { CacheScope } from '../../domain/cacheScopes';
import type { Change } from '../../domain/feed/changes';
import type { IngestPlan, PrevState } from '../../domain/ingest/plan';

/** What a poll writes of its provider's state (what /v2/health and the metrics read). */
export interface ProviderStateFields {
  lastAttemptAt?: Date;
  lastSuccessAt?: Date;
  lastError?: string | null;
  eventsSeen?: number;
  /** The breaker as the poll left it. */
  breaker?: string;
  /** Whether the provider's last stored prices are served as stale (its last poll failed, or was partial). */
  stale?: boolean;
  /** The feed instant (world time) the poll read: the provider's freshness. */
  capturedAt?: Date;
  /** The request quota the provider reported. */
  quota?: unknown;
}

/** What the migration of events stored in an earlier layout moved. */
export interface MigrationOutcome {
  events: number;
  prices: number;
  views: number;
  markers: number;
  snapshotsDropped: boolean;
  /** Prices documents whose tables were stored nested, now packed. */
  pricesPacked: number;
}

/** What a poll wrote, by kind of document (upserted or modified). */
export interface ApplyCounts {
  events: number;
  /** Markets in the price documents written (every market of an event whose prices changed). */
  markets: number;
  prices: number;
  liveEventData: number;
  history: number;
  references: number;
}

export interface AppliedPlan {
  counts: ApplyCounts;
  /** How long each kind of write took. */
  ms: Record<keyof Omit<ApplyCounts, 'markets'>, number>;
}

/** The stored state of a provider's events as the planner compares against it (shared/platform/ingest/state.ts). */
export interface LoadedState {
  states: Map<string, PrevState>;
  /** Events read from the store (0 when ingestion's memory of them held). */
  readFromStore: number;
}

/**
 * What a poll of a provider reads and writes, besides the provider itself. The process binds it
 * to the repositories, ingestion's state memory, the change feed, the page cache's versions, the
 * listing, Redis and the world clock (shared/platform/stores/ingest.ts); unit tests to memory.
 */
export interface IngestStore {
  /** Sets fields of the provider's state (what /v2/health and the metrics read), creating it on the first poll. */
  updateProviderState(provider: string, fields: ProviderStateFields): Promise<void>;
  /** The provider's events stored live. */
  findLiveEventIds(provider: string): Promise<string[]>;

  /** The change feed, in two steps around the writes: a crashed poll's staged batch is published by the next one. */
  recoverStagedChanges(provider: string): Promise<number>;
  stageChanges(provider: string, batchId: string, changes: readonly Change[]): Promise<number>;
  publishStagedChanges(provider: string): Promise<number>;

  /** The stored state of these events: from ingestion's memory while it is valid, else from the store. */
  loadState(provider: string, eventIds: readonly string[]): Promise<LoadedState>;
  /** Before the writes: until `saveState`, no memory of this provider's state is valid (in any worker). */
  invalidateState(provider: string): Promise<void>;
  /** Once the writes are acknowledged: the state they left is the next poll's. */
  saveState(provider: string, states: Map<string, PrevState>): Promise<void>;
  /** Around the writes: the AI worker holds its analyses back while a poll writes (shared/platform/ingest/writing.ts). */
  markWriting(provider: string): Promise<void>;
  clearWriting(provider: string): Promise<void>;

  /** Writes a plan: references and events first, then prices, live data and history (shared/platform/ingest/apply.ts). */
  applyPlan(plan: IngestPlan, now: Date): Promise<AppliedPlan>;
  /** The insights of events whose status changed follow it. */
  syncInsightStatuses(changes: IngestPlan['statusChanges']): Promise<void>;
  /** Marks the scopes' data as changed for the page cache (none: nothing to do). */
  bumpCacheVersions(scopes: readonly CacheScope[]): Promise<void>;
  /** The listing rows of the events written, and the `events` cache version, in one step. */
  publishEventWrites(writes: Pick<IngestPlan, 'events' | 'prices' | 'liveData'>): Promise<void>;

  /** The last slot polled, as stored (the poll reads it: ./poll.ts), null before the first. */
  readSlot(provider: string): Promise<string | null>;
  recordSlot(provider: string, state: string): Promise<void>;
  /**
   * Runs `fn` while no poll of the provider runs (holding its ingest lock, waiting for a poll to
   * end): how a writer outside ingest (a result correction) keeps the event's documents to one
   * writer at a time.
   */
  whilePaused<T>(provider: string, fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` holding the provider's ingest lock (one poll at a time, whichever worker), or `held: false` at once. */
  withProviderLock<T>(provider: string, fn: () => Promise<T>): Promise<{ held: true; value: T } | { held: false }>;
  /** Moves the shared simulated clock forward (never back, never on real time). */
  skipWorldClockTo(worldMs: number): Promise<void>;
  /** Whether events are stored in the layout before prices had documents of their own (a deployment upgraded in place). */
  hasEventsOfEarlierLayout(): Promise<boolean>;
  /** Moves every event of the earlier layout; returns what moved. */
  migrateEventsOfEarlierLayout(): Promise<MigrationOutcome>;
}
