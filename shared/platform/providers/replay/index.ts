import { evaluateScenarioEvent, type Scenario, type ScenarioEvaluation, type ScenarioEvent } from '../simulated/scenario';
import type { CallContext, FeedEvent, FeedLiveStats, FeedMarket, FeedOdds, FeedResult, OddsProvider } from '../../../domain/providers/types';
import { valueOf } from '../../../domain/records';
import { BOOKS, interpolatePrice } from './books';
import type { ReplayMatch } from './season';

/**
 * Real matches of real seasons (football-data.co.uk files) played through the normal ingest path
 * in simulated time. Each match is listed `APPEAR_MS` before kickoff at every book's opening
 * prices, which move to the closing prices by `CLOSE_LEAD_MS` before kickoff (so a poll at any
 * interval up to that lead reads the closing prices before the event goes live); in play the
 * markets are shown suspended at their closing prices (the files have no in-play prices), the
 * score, corners and cards follow a seeded path that ends at the file's counts, and the match
 * completes 105 simulated minutes after kickoff (the scenario evaluator's soccer template).
 * Every answer is a pure function of (files, simulated time).
 */

const HOUR = 3_600_000;
export const APPEAR_MS = 72 * HOUR;
export const CLOSE_LEAD_MS = 3 * HOUR;
/** Prices move in steps of this much simulated time (one odds version per step, not per poll). */
export const PRICE_STEP_MS = 2 * HOUR;
const MATCH_MS = 105 * 60_000;
const LOOKBACK_MS = 6 * HOUR;
/** The clock starts this long before the first selected kickoff. */
export const EPOCH_LEAD_MS = 3 * HOUR;

export interface ReplayOptions {
  matches: readonly ReplayMatch[];
  /** Real instant (ms) -> simulated instant (ms). */
  clock: (realMs: number) => number;
}

function scenarioOf(m: ReplayMatch): { scenario: Scenario; event: ScenarioEvent } {
  const c = m.counts;
  const event: ScenarioEvent = {
    id: m.eventId,
    sport: 'soccer',
    competition: { id: m.competition.id, name: m.competition.name, region: m.competition.regionCode, priority: m.competition.priority },
    homeTeam: m.homeTeam,
    awayTeam: m.awayTeam,
    startOffsetMinutes: 0,
    markets: [],
    timeline: m.timeline,
    // The file's counts are the final word, including the ones it does not have (null: missing).
    final: {
      stats: {
        homeGoals: c.fthg,
        awayGoals: c.ftag,
        homeGoalsFirstHalf: c.hthg,
        awayGoalsFirstHalf: c.htag,
        homeCorners: c.homeCorners,
        awayCorners: c.awayCorners,
        homeYellowCards: c.homeYellow,
        awayYellowCards: c.awayYellow,
        homeRedCards: c.homeRed,
        awayRedCards: c.awayRed,
      },
    },
    end: { state: 'completed' },
  };
  return { scenario: { name: `replay ${m.season}`, start: new Date(m.kickoff).toISOString(), events: [event] }, event };
}

/** Every book's prices for a match at simulated time `t` (upcoming: interpolated; live: closing, suspended). */
export function replayOdds(m: ReplayMatch, t: number, bookmakers: readonly string[]): FeedOdds {
  const live = t >= m.kickoff;
  const closeAt = m.kickoff - CLOSE_LEAD_MS;
  const appear = m.kickoff - APPEAR_MS;
  const stepped = appear + Math.floor((Math.min(t, closeAt) - appear) / PRICE_STEP_MS) * PRICE_STEP_MS;
  const progress = t >= closeAt ? 1 : (stepped - appear) / (closeAt - appear);
  const markets: FeedMarket[] = [];
  for (const fm of m.markets) {
    // A moved handicap line: the opening line is quoted for the first half of the run, the closing line after.
    const sameLine = m.markets.filter((x) => x.betTypeSysname === fm.betTypeSysname);
    if (sameLine.length > 1 && (sameLine[0] === fm ? progress >= 0.5 : progress < 0.5)) continue;
    markets.push({
      betTypeSysname: fm.betTypeSysname,
      line: fm.line,
      items: fm.codes.map((code, i) => ({
        code,
        prices: bookmakers.map((b) => {
          const open = fm.open.get(b)?.[i];
          const close = fm.close.get(b)?.[i];
          return open === undefined || close === undefined ? null : interpolatePrice(open, close, progress);
        }),
        suspended: live,
      })),
    });
  }
  // The source's timestamp is the price step's, so the odds history keeps one row per step.
  return { eventId: m.eventId, at: new Date(t >= closeAt ? closeAt : stepped), bookmakers: [...bookmakers], markets };
}

export class ReplayProvider implements OddsProvider {
  readonly name = 'replay';
  readonly bookmakers: readonly string[];
  private readonly matches: readonly ReplayMatch[];
  private readonly byId: Map<string, { m: ReplayMatch; scenario: Scenario; event: ScenarioEvent }>;
  private memo?: { t: number; evaluations: Map<string, ScenarioEvaluation> };

  constructor(private readonly opts: ReplayOptions) {
    this.matches = opts.matches;
    this.byId = new Map(opts.matches.map((m) => [m.eventId, { m, ...scenarioOf(m) }]));
    const quoted = new Set(opts.matches.flatMap((m) => m.markets.flatMap((x) => [...x.open.keys()])));
    this.bookmakers = BOOKS.map((b) => b.key).filter((k) => quoted.has(k));
  }

  /** The simulated instant the clock starts at: a few hours before the first match (null without matches). */
  static epochOf(matches: readonly ReplayMatch[]): Date | null {
    return matches.length ? new Date(matches[0].kickoff - EPOCH_LEAD_MS) : null;
  }

  feedTime(at: Date): Date {
    return new Date(this.opts.clock(at.getTime()));
  }

  /** The matches listed at simulated time `t`: from APPEAR_MS before kickoff to LOOKBACK_MS after the end. */
  private at(at: Date): { t: number; evaluations: Map<string, ScenarioEvaluation> } {
    const t = this.feedTime(at).getTime();
    if (this.memo?.t === t) return this.memo;
    const evaluations = new Map<string, ScenarioEvaluation>();
    // Matches are in kickoff order: skip to the first one that can still be listed.
    let lo = 0;
    let hi = this.matches.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.matches[mid].kickoff + MATCH_MS + LOOKBACK_MS < t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.matches.length && this.matches[i].kickoff - APPEAR_MS <= t; i++) {
      const m = this.matches[i];
      if (m.kickoff + MATCH_MS + LOOKBACK_MS < t) continue;
      const { scenario, event } = valueOf(this.byId, m.eventId);
      evaluations.set(m.eventId, evaluateScenarioEvent(scenario, event, t));
    }
    this.memo = { t, evaluations };
    return this.memo;
  }

  idleUntil(at: Date): Date | null {
    const t = this.feedTime(at).getTime();
    if (this.at(at).evaluations.size > 0) return null;
    const next = this.matches.find((m) => m.kickoff - APPEAR_MS > t);
    return next ? new Date(next.kickoff - APPEAR_MS) : null;
  }

  async describeEvents(ctx: CallContext, eventIds: readonly string[]): Promise<FeedEvent[]> {
    const t = this.feedTime(ctx.at).getTime();
    return eventIds.flatMap((id) => {
      const known = this.byId.get(id);
      return known ? [evaluateScenarioEvent(known.scenario, known.event, t).event] : [];
    });
  }

  async listEvents(ctx: CallContext): Promise<FeedEvent[]> {
    return [...this.at(ctx.at).evaluations.values()].map((e) => e.event);
  }

  async fetchOdds(ctx: CallContext, events: FeedEvent[]): Promise<FeedOdds[]> {
    const { t, evaluations } = this.at(ctx.at);
    return events.flatMap((e) => {
      const ev = evaluations.get(e.eventId);
      const status = ev?.event.status;
      return status === 'upcoming' || status === 'live' ? [replayOdds(valueOf(this.byId, e.eventId).m, t, this.bookmakers)] : [];
    });
  }

  async fetchLiveStats(ctx: CallContext, events: FeedEvent[]): Promise<FeedLiveStats[]> {
    const { evaluations } = this.at(ctx.at);
    return events.flatMap((e) => {
      const live = evaluations.get(e.eventId)?.live;
      return live ? [live] : [];
    });
  }

  async fetchResults(ctx: CallContext, events: FeedEvent[]): Promise<FeedResult[]> {
    const { t, evaluations } = this.at(ctx.at);
    return events.flatMap((e) => {
      // A match past its listing window (asked for through describeEvents) is evaluated on its own.
      const known = this.byId.get(e.eventId);
      const result = (evaluations.get(e.eventId) ?? (known ? evaluateScenarioEvent(known.scenario, known.event, t) : undefined))?.result;
      return result ? [result] : [];
    });
  }
}
