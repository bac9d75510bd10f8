import type { EventStatus } from '../events/status';
import type { LocalizedText } from '../sports/locales';
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

/**
 * An event's counts as stored, with the phase they were read in. A count may be missing: a poll
 * writes them all, but a result correction sets only those it changes and older or seeded
 * documents hold fewer; a reader takes a missing count as not reported (null).
 */
export type StoredStats = Partial<EventStats> & { phase?: string | null };

/**
 * The closing line: at kickoff, each market's last pre-match price per book, kept on the event
 * (closing.ts captures it) so settlement can grade every recommendation against it (CLV).
 */
export interface ClosingBetItem {
  id: string;
  code: string;
  /** The consensus (median of the books) at the close. */
  price: number;
  /** dataSource -> closing price. */
  bookPrices: Record<string, number>;
}

export interface ClosingMarket {
  id: string;
  betTypeSysname: string;
  line: number | null;
  betItems: ClosingBetItem[];
}

export interface ClosingLine {
  /** The kickoff the line was captured at. */
  capturedAt: Date;
  markets: ClosingMarket[];
}

/** An operator's result correction: from then on the event's result is the operator's. */
export interface ResultOverride {
  at: Date;
  resultVersion: number;
  /** The stats fields (and `voided`) the operator set. */
  fields: string[];
}

export interface StoredTeam {
  id: number;
  name: LocalizedText;
  regionId?: number | null;
}

export interface StoredNamed {
  id: number;
  name: LocalizedText;
}

/**
 * An event as stored: the one declaration of the `events` document. The Event model
 * (shared/platform/db/models/event.ts) is declared with it (its schema must store exactly these
 * fields), and every row a reader takes of it is a Pick of it. Its prices, live data, views and
 * settlement marker are documents of their own.
 */
export interface StoredEvent {
  _id: string;
  sportId: number;
  competitionId: number;
  regionId: number;
  homeTeam: StoredTeam;
  awayTeam: StoredTeam;
  competition: StoredNamed;
  region: StoredNamed;
  startDateTime: Date;
  status: EventStatus;
  /** Abandoned events complete with the void flag: every bet pushes. */
  voided: boolean;
  /** When the event went live (postponed-after-start settles; never-started does not). */
  startedAt: Date | null;
  endedAt: Date | null;
  /** Popularity of the competition, for `prioritize` on the live list. */
  priority: number;
  /** Final or current counts, with the phase they were read in. */
  stats: StoredStats | null;
  /** Bumped when final stats change after completion: settlement re-grades on a new version. */
  resultVersion: number;
  resultOverride: ResultOverride | null;
  dataSource: string;
  providerEventId?: string | null;
  /** Null until the event starts. */
  closingLine: ClosingLine | null;
  /** Announced lineups, when the provider has them. */
  lineups: { home: string[]; away: string[] } | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields of a stored event the planner writes and compares against: id and status always, the others once a poll has set them. */
export type PrevEvent = Pick<StoredEvent, '_id' | 'status'> &
  Partial<
    Pick<
      StoredEvent,
      | 'voided'
      | 'startedAt'
      | 'endedAt'
      | 'startDateTime'
      | 'stats'
      | 'resultVersion'
      | 'resultOverride'
      | 'lineups'
      | 'sportId'
      | 'competitionId'
      | 'regionId'
      | 'homeTeam'
      | 'awayTeam'
      | 'competition'
      | 'region'
      | 'priority'
      | 'dataSource'
      | 'providerEventId'
      | 'closingLine'
    >
  >;
