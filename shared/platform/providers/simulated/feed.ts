import { betItemId, marketId } from '../../../domain/markets/catalog';
import type { EventStats } from '../../../domain/stats';
import { hash32 } from '../../../domain/providers/ids';
import type { FeedEvent, FeedLiveStats, FeedMarket, FeedOdds, FeedResult, FeedStatus } from '../../../domain/providers/types';
import type { MatchState } from './match';
import { liveModel, stateAt } from './models';
import { BOOKMAKERS, DECIDED_HIGH, DECIDED_LOW, bookPrices, catalogType, fairProbabilities } from './pricing';
import { Rng } from './rng';
import { simSport } from './sports';
import type { SimFixture } from './schedule';

/**
 * What the simulated feed says about one fixture at simulated time `t` (epoch ms). Pure.
 */

const MIN_MS = 60_000;
/** Books suspend their markets this long after a goal (soccer, ice hockey). */
export const GOAL_SUSPENSION_MS = 60_000;

export interface FixtureStatus {
  status: FeedStatus;
  voided: boolean;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Wall second at which the match is read: now, its end, or its interruption. */
  wall: number;
  phaseOverride: string | null;
}

export function fixtureStatus(f: SimFixture, t: number): FixtureStatus {
  const wall = Math.floor((t - f.start) / 1000);
  const started = new Date(f.start);
  if (f.end === 'never') {
    return { status: t >= f.announceAt ? 'postponed' : 'upcoming', voided: false, startedAt: null, endedAt: null, wall: -1, phaseOverride: t >= f.announceAt ? 'POSTPONED' : null };
  }
  if (wall < 0) return { status: 'upcoming', voided: false, startedAt: null, endedAt: null, wall, phaseOverride: null };
  if ((f.end === 'postponed' || f.end === 'abandoned') && wall >= f.interruptWall) {
    const endedAt = new Date(f.start + f.interruptWall * 1000);
    return f.end === 'postponed'
      ? { status: 'postponed', voided: false, startedAt: started, endedAt, wall: f.interruptWall, phaseOverride: 'POSTPONED' }
      : { status: 'completed', voided: true, startedAt: started, endedAt, wall: f.interruptWall, phaseOverride: 'ABANDONED' };
  }
  if (wall >= f.script.end) return { status: 'completed', voided: false, startedAt: started, endedAt: new Date(f.start + f.script.end * 1000), wall: f.script.end, phaseOverride: null };
  return { status: 'live', voided: false, startedAt: started, endedAt: null, wall, phaseOverride: null };
}

const SURNAMES = [
  'Silva',
  'Moreno',
  'Becker',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Jensen',
  'Novak',
  'Santos',
  'Walker',
  'Ortiz',
  'Costa',
  'Müller',
  'Fernández',
  'Ivanov',
  'Laine',
  'Kaya',
  'Horvat',
  'Almeida',
  'Reyes',
  'Baker',
  'Lund',
];

function lineup(seed: number, eventId: string, side: string): string[] {
  const rng = new Rng(seed, `lineup|${eventId}|${side}`);
  return Array.from({ length: 11 }, (_, i) => `${String.fromCharCode(65 + rng.int(0, 26))}. ${SURNAMES[(rng.int(0, SURNAMES.length) + i) % SURNAMES.length]}`);
}

export function feedEvent(seed: number, f: SimFixture, t: number): FeedEvent {
  const s = fixtureStatus(f, t);
  const lineups = simSport(f.competition.sportId).lineups;
  return {
    eventId: f.eventId,
    providerEventId: f.eventId,
    sportId: f.competition.sportId,
    competition: { id: f.competition.id, name: f.competition.name, regionCode: f.competition.regionCode, priority: f.competition.priority },
    homeTeam: f.home,
    awayTeam: f.away,
    startDateTime: new Date(f.start),
    status: s.status,
    voided: s.voided,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    // Soccer lineups are announced an hour before kickoff (a trigger for the AI worker).
    lineups: lineups && t >= f.start - 60 * MIN_MS && f.end !== 'never' ? { home: lineup(seed, f.eventId, 'home'), away: lineup(seed, f.eventId, 'away') } : null,
  };
}

function statsOf(f: SimFixture, st: MatchState): EventStats {
  return {
    homeGoals: st.home,
    awayGoals: st.away,
    homeGoalsFirstHalf: st.homeFirstHalf,
    awayGoalsFirstHalf: st.awayFirstHalf,
    homeCorners: st.corners?.[0] ?? null,
    awayCorners: st.corners?.[1] ?? null,
    homeYellowCards: st.yellows?.[0] ?? null,
    awayYellowCards: st.yellows?.[1] ?? null,
    homeRedCards: st.reds?.[0] ?? null,
    awayRedCards: st.reds?.[1] ?? null,
  };
}

export function liveStats(f: SimFixture, t: number): FeedLiveStats | null {
  const s = fixtureStatus(f, t);
  if (s.status !== 'live') return null;
  const st = stateAt(f.competition.sportId, f.script, s.wall);
  return {
    eventId: f.eventId,
    stats: statsOf(f, st),
    phaseSysname: st.phase,
    elapsedSeconds: st.elapsed,
    isLive: true,
    isInPlay: st.inPlay,
    referenceTime: new Date(t),
    details: st.details,
  };
}

export function result(f: SimFixture, t: number): FeedResult | null {
  const s = fixtureStatus(f, t);
  if (s.status === 'upcoming' || s.status === 'live') return null;
  if (s.status === 'postponed' && !s.startedAt) {
    return { eventId: f.eventId, status: 'postponed', voided: false, stats: statsOf(f, stateAt(f.competition.sportId, f.script, -1)), phaseSysname: 'POSTPONED', endedAt: null, details: {} };
  }
  const st = stateAt(f.competition.sportId, f.script, s.wall);
  const stats = statsOf(f, st);
  if (s.status === 'completed' && !s.voided) {
    if (f.missing.goals) stats.homeGoals = stats.awayGoals = null;
    if (f.missing.corners) stats.homeCorners = stats.awayCorners = null;
    if (f.missing.cards) stats.homeYellowCards = stats.awayYellowCards = stats.homeRedCards = stats.awayRedCards = null;
    if (f.missing.firstHalf) stats.homeGoalsFirstHalf = stats.awayGoalsFirstHalf = null;
    if (f.correctionAfterMs !== null && s.endedAt && t >= s.endedAt.getTime() + f.correctionAfterMs && stats.homeCorners !== null) {
      stats.homeCorners += 1;
    }
  }
  return {
    eventId: f.eventId,
    status: s.status === 'postponed' ? 'postponed' : s.status === 'cancelled' ? 'cancelled' : 'completed',
    voided: s.voided,
    stats,
    phaseSysname: s.phaseOverride ?? st.phase,
    endedAt: s.endedAt,
    details: st.details,
  };
}

/** Per-item hashes for the books' noise, computed once per fixture. */
const itemHashes = new WeakMap<SimFixture, number[][]>();
function hashesOf(f: SimFixture): number[][] {
  let h = itemHashes.get(f);
  if (!h) {
    h = f.markets.map((m) => {
      const mid = marketId(f.eventId, m.sysname, m.line);
      return catalogType(m.sysname).outcomes.map((o) => hash32(betItemId(mid, o.code)));
    });
    itemHashes.set(f, h);
  }
  return h;
}

/**
 * Every bookmaker's prices for an upcoming or live fixture. Pre-match prices refresh every 30
 * simulated minutes (staggered per event); in-play every 2 minutes plus whenever the state moves.
 */
export function odds(seed: number, f: SimFixture, t: number): FeedOdds | null {
  const s = fixtureStatus(f, t);
  if (s.status !== 'upcoming' && s.status !== 'live') return null;
  const live = s.status === 'live';
  const wall = live ? s.wall : 0;
  const st = stateAt(f.competition.sportId, f.script, wall);
  const model = liveModel(f.params, f.script, st, wall);
  const bucket = live ? 1_000_000 + Math.floor(t / (2 * MIN_MS)) : Math.floor((t + f.bucketOffsetMs) / (30 * MIN_MS));
  const suspendedForGoal = live && simSport(f.competition.sportId).suspendsOnGoal && st.lastGoalWall !== null && (wall - st.lastGoalWall) * 1000 < GOAL_SUSPENSION_MS;
  const hashes = hashesOf(f);
  const markets: FeedMarket[] = f.markets.map((m, mi) => {
    const type = catalogType(m.sysname);
    const fair = fairProbabilities(type, m.line, model);
    const keys = hashes[mi].map((itemHash) => ({ seed, itemHash, bucket }));
    const perBook = BOOKMAKERS.map((b, bi) => bookPrices(b, bi, type, fair, keys));
    return {
      betTypeSysname: m.sysname,
      line: m.line,
      items: type.outcomes.map((o, i) => ({
        code: o.code,
        prices: perBook.map((p) => p[i]!),
        suspended: suspendedForGoal || fair[i] < DECIDED_LOW || fair[i] > DECIDED_HIGH,
      })),
    };
  });
  return { eventId: f.eventId, at: new Date(t), bookmakers: BOOKMAKERS.map((b) => b.key), markets };
}

/** The simulator's own truth (not served by the API): fair probabilities per bet item. */
export function trueProbabilities(f: SimFixture, t: number): Map<string, number> {
  const s = fixtureStatus(f, t);
  const wall = s.status === 'live' ? s.wall : 0;
  const st = stateAt(f.competition.sportId, f.script, wall);
  const model = liveModel(f.params, f.script, st, wall);
  const out = new Map<string, number>();
  for (const m of f.markets) {
    const type = catalogType(m.sysname);
    const fair = fairProbabilities(type, m.line, model);
    const mid = marketId(f.eventId, m.sysname, m.line);
    type.outcomes.forEach((o, i) => out.set(betItemId(mid, o.code), fair[i]));
  }
  return out;
}
