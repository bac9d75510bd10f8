import type { PickEvent, PickRecommendation } from '../../domain/ai/picks';

/** An upcoming event's insight as a picks rebuild reads it. */
export interface PickInsightRow {
  _id: string;
  recommendationIds?: string[] | null;
  analysisInsight?: unknown;
  matchSimulation?: unknown;
}

/** A stored event as a picks rebuild reads it (no markets, no stats). */
export type PickEventRow = Omit<PickEvent, 'id'> & { _id: string };

/** A stored featured pick as a rebuild compares against it. */
export interface StoredPickRow {
  _id: string;
  startsAt: Date;
  featuredOrder: number;
}

/**
 * What a rebuild of a day's featured picks reads and writes. The process binds it to the
 * repositories and a Redis lock per day (shared/platform/stores/picks.ts); unit tests to memory.
 */
export interface PicksStore {
  /** The insights of upcoming events starting in (from, until). */
  findUpcomingInsights(from: Date, until: Date): Promise<PickInsightRow[]>;
  findRecommendations(ids: readonly string[]): Promise<PickRecommendation[]>;
  findEvents(ids: readonly string[]): Promise<PickEventRow[]>;
  /** The day's featured picks, whole (a stored pick's fields are compared with a draft's). */
  findPicksOfDay(day: string): Promise<(StoredPickRow & object)[]>;
  /** Deletes these picks where not started at `at` and not settled; returns how many. */
  deleteUnstartedUnsettledPicks(ids: readonly string[], at: Date): Promise<number>;
  /** (Re)writes a pick unless it has started at `at` (a started one stays as it is). */
  upsertPickUnlessStarted(id: string, content: Record<string, unknown>, at: Date): Promise<void>;
  /** Runs `fn` while no other rebuild of the day runs, in any process (waiting for one that does). */
  withDayLock<T>(day: string, fn: () => Promise<T>): Promise<T>;
}
