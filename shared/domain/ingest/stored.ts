import type { EventStats } from '../stats';

/**
 * An event and its markets as stored: what the ingest's planner compares a feed against and what
 * the closing line is taken from (shared/domain/ingest/plan.ts, closing.ts).
 */

export interface StoredBetItem {
  id: string;
  code: string;
  price: number;
  isAvailable: boolean;
  bookPrices?: Record<string, number>;
}

export interface StoredMarket {
  id: string;
  betTypeSysname: string;
  line: number | null;
  betItems: StoredBetItem[];
}

export type StoredStats = EventStats & { phase?: string | null };

/** The stored fields of an event the planner compares against (its prices, live data, views and settlement live elsewhere). */
export interface PrevEvent {
  _id: string;
  status: string;
  voided?: boolean;
  startedAt?: Date | null;
  endedAt?: Date | null;
  startDateTime?: Date;
  stats?: StoredStats | null;
  resultVersion?: number;
  /** An operator corrected the result: the feed's results no longer apply to this event. */
  resultOverride?: unknown;
  lineups?: unknown;
  sportId?: number;
  competitionId?: number;
  regionId?: number;
  homeTeam?: unknown;
  awayTeam?: unknown;
  competition?: unknown;
  region?: unknown;
  priority?: number;
  dataSource?: string;
  providerEventId?: string | null;
  /** Kept on the event once captured; the planner only needs to know it is there. */
  closingLine?: unknown;
}
