import type { PickEvent, PickRecommendation } from '../../domain/ai/picks';

/** What a pick shows of its main event's insight. */
export interface PickInsightRow {
  _id: string;
  analysisInsight?: unknown;
  matchSimulation?: unknown;
}

/** A recommendation of an event's latest analysis, the event still to start, as the read model last heard: when it starts. */
export interface OpenRecommendation {
  rec: PickRecommendation;
  startAt: Date;
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
  /**
   * The current recommendations (each event's latest analysis) of the events still to start at
   * `at` whose start is in (from, until): a read model kept beside the store, which the rebuild
   * checks against the events it draws from.
   */
  findOpenRecommendations(at: Date, from: Date, until: Date): Promise<OpenRecommendation[]>;
  /** Events by id, as stored (a short list: the best-ranked few). */
  findEvents(ids: readonly string[]): Promise<PickEventRow[]>;
  /** The insights of these events: what a pick shows of them. */
  findInsightBodies(eventIds: readonly string[]): Promise<PickInsightRow[]>;
  /** The day's featured picks, whole (a stored pick's fields are compared with a draft's). */
  findPicksOfDay(day: string): Promise<(StoredPickRow & object)[]>;
  /** Deletes these picks where not started at `at` and not settled; returns how many. */
  deleteUnstartedUnsettledPicks(ids: readonly string[], at: Date): Promise<number>;
  /** (Re)writes a pick unless it has started at `at` (a started one stays as it is). */
  upsertPickUnlessStarted(id: string, content: Record<string, unknown>, at: Date): Promise<void>;
  /** Runs `fn` while no other rebuild of the day runs, in any process (waiting for one that does). */
  withDayLock<T>(day: string, fn: () => Promise<T>): Promise<T>;
}
