import type { ClosingLine } from '../../domain/ingest/closing';
import type { StoredEvent, StoredMarket, StoredTeam } from '../../domain/ingest/stored';

/** A completed event as the refit reads it: its teams, start and final counts. */
export type CompletedGameRow = Pick<StoredEvent, '_id' | 'startDateTime' | 'stats'> & { homeTeam: Pick<StoredTeam, 'id'>; awayTeam: Pick<StoredTeam, 'id'> };

/** An event's insight as the blend weight's fit reads it: its stored analysis (the pre-kickoff views) and when it was made. */
export interface BlendInputRow {
  _id: string;
  analysisInsight?: Readonly<Record<string, unknown>> | null;
  analysisTimestamp: Date;
  startDateTime: Date;
}

/** A recent event's quotes as the bookmakers' ranking reads them (its closing line once captured). */
export interface RecentQuotesRow {
  dataSource: string;
  markets: StoredMarket[];
  closingLine?: ClosingLine | null;
}

/** What a refit writes: a sport's fitted model of one time window. */
export interface ModelFitWrite {
  sportId: number;
  window: string;
  fittedAt: Date;
  family: string;
  params: object | null;
  gamesUsed: number;
  blendWeight: number;
  blendEvents: number;
  blendRps: number | null;
  marketRps: number | null;
  bookRanking: string[];
  bookMargins: Record<string, number>;
}

/**
 * What the refit of a sport reads and writes. The process binds it to the repositories
 * (shared/platform/stores/refit.ts); unit tests to memory.
 */
export interface RefitStore {
  /** The sport's completed, not voided events that started in [since, until]. */
  findCompletedGames(sportId: number, since: Date, until: Date): Promise<CompletedGameRow[]>;
  findBlendInputs(eventIds: readonly string[]): Promise<BlendInputRow[]>;
  /** Up to `limit` events of the sport that start from `since`, with their prices. */
  findRecentQuotes(sportId: number, since: Date, limit: number): Promise<RecentQuotesRow[]>;
  /** Writes the fit unless a newer window's is stored; false when it was not written. */
  writeFitUnlessNewerWindow(sportId: number, fit: ModelFitWrite): Promise<boolean>;
}
