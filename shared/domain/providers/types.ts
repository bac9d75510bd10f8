import type { SportId } from '../sports';
import type { EventStats } from '../stats';

/**
 * The normalized feed every provider produces: what ingestion writes, whatever the source.
 * Ids are already ours (stable across polls and workers); names are plain English from the
 * source, localized by ingestion (shared/domain/i18n).
 */

/** Event states a feed can report. `postponed` with `startedAt` set is "postponed after start". */
export type FeedStatus = 'upcoming' | 'live' | 'completed' | 'postponed' | 'cancelled';

export interface FeedCompetition {
  /** Our integer competition id. */
  id: number;
  /** English name; the i18n dictionary translates it when it knows it. */
  name: string;
  /** Region code: ISO 3166-1 alpha-2, a subdivision such as GB-ENG, or EU / INT. */
  regionCode: string;
  /** Popularity: the live list's `prioritize` puts higher first. */
  priority: number;
}

export interface FeedTeam {
  name: string;
  regionCode: string;
}

export interface FeedEvent {
  /** Our event id: a numeric string, stable for the same provider event. */
  eventId: string;
  providerEventId: string;
  sportId: SportId;
  competition: FeedCompetition;
  homeTeam: FeedTeam;
  awayTeam: FeedTeam;
  startDateTime: Date;
  status: FeedStatus;
  /** Abandoned: completed with the void flag (every bet pushes). */
  voided: boolean;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Announced lineups (player names), when the source has them. */
  lineups: { home: string[]; away: string[] } | null;
}

export interface FeedBetItem {
  code: string;
  /** One price per bookmaker of `FeedOdds.bookmakers` (same order); null = not quoted. */
  prices: (number | null)[];
  /** The provider's own consensus price (scenario files); otherwise ingestion takes the median. */
  price?: number;
  /** Suspended by the source (e.g. just after a goal): shown, not bettable. */
  suspended?: boolean;
}

export interface FeedMarket {
  betTypeSysname: string;
  line: number | null;
  /** The source's own caption of the market, when it has one (The Odds API: h2h, spreads, totals). */
  sourceCaption?: string;
  items: FeedBetItem[];
}

export interface FeedOdds {
  eventId: string;
  /** When the source set these prices: odds history rows are keyed by it, so replays collapse. */
  at: Date;
  bookmakers: string[];
  markets: FeedMarket[];
}

/** Flat live state of a running event (the contract's Stats, live form) plus the settlement counts. */
export interface FeedLiveStats {
  eventId: string;
  stats: EventStats;
  phaseSysname: string;
  elapsedSeconds: number | null;
  isLive: boolean;
  isInPlay: boolean;
  referenceTime: Date;
  /** Sport-specific detail (period scores, sets, inning, server...): LiveEventData.liveDataJson. */
  details: Record<string, unknown>;
}

/** How an event ended (or is ending); `stats` is the final data settlement reads. */
export interface FeedResult {
  eventId: string;
  status: 'completed' | 'postponed' | 'cancelled';
  voided: boolean;
  stats: EventStats;
  phaseSysname: string;
  endedAt: Date | null;
  details: Record<string, unknown>;
}

export interface CallContext {
  /** The instant the poll is for (the slot start): two workers polling the same slot agree. */
  at: Date;
  signal: AbortSignal;
}

/**
 * An odds provider. Ingestion calls `listEvents` first, then the three others with the events
 * it needs them for; each call goes through the provider's circuit breaker.
 */
export interface OddsProvider {
  readonly name: string;
  /** Every dataSource (bookmaker) this provider quotes, besides its own consensus (= `name`). */
  readonly bookmakers: readonly string[];
  listEvents(ctx: CallContext): Promise<FeedEvent[]>;
  fetchOdds(ctx: CallContext, events: FeedEvent[]): Promise<FeedOdds[]>;
  fetchLiveStats(ctx: CallContext, events: FeedEvent[]): Promise<FeedLiveStats[]>;
  fetchResults(ctx: CallContext, events: FeedEvent[]): Promise<FeedResult[]>;
  /** The simulated time a poll at `at` reads (identity for real providers). */
  feedTime?(at: Date): Date;
  /**
   * A provider that knows its whole schedule (a replay) says, when it lists nothing at `at`, the
   * simulated instant its next event is listed: the clock skips to it instead of polling an
   * empty world (between two replayed seasons: months). Null when something is listed or nothing
   * ever will be again.
   */
  idleUntil?(at: Date): Date | null;
  /**
   * These events as the provider sees them at `ctx.at`, listed or not: ingestion asks for the
   * events it last stored live and the listing no longer names (a poll that came after the
   * provider stopped listing the finished match), so they end and settle instead of staying live
   * for good. Unknown ids are left out. Providers that cannot look an event up omit it.
   */
  describeEvents?(ctx: CallContext, eventIds: readonly string[]): Promise<FeedEvent[]>;
}

/** Thrown by a provider whose request quota is used up: not a fault, so the breaker ignores it. */
export class QuotaExhaustedError extends Error {
  override name = 'QuotaExhaustedError';
  readonly code = 'QUOTA_EXHAUSTED';
}

/** A provider answered with a non-2xx status. */
export class ProviderHttpError extends Error {
  override name = 'ProviderHttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
