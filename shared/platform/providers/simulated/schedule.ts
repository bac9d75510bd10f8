import { hash32 } from '../../../domain/providers/ids';
import type { MarketSpec } from './lines';
import type { MatchParams, MatchScript } from './match';
import { buildScript } from './models';
import { marketsFor } from './pricing';
import { simSport } from './sports';
import { Rng } from './rng';
import { COMPETITIONS, type SimCompetition } from './world';
import { DAY_MS, epochDay } from '../../../domain/days';

/**
 * The fixture list: for each day and competition, which teams meet and when, and everything the
 * simulator decides about that match in advance (true strengths, how it ends, what data goes
 * missing). Pure functions of (seed, day, competition): every worker computes the same list.
 */

const MIN_MS = 60_000;

/** How a simulated match ends. `never` = postponed before it started (no settlement). */
export type SimEnd = 'completed' | 'postponed' | 'abandoned' | 'never';

export interface SimMissing {
  goals: boolean;
  corners: boolean;
  cards: boolean;
  firstHalf: boolean;
}

export interface SimFixture {
  eventId: string;
  competition: SimCompetition;
  home: { name: string; regionCode: string };
  away: { name: string; regionCode: string };
  /** Kickoff, simulated epoch ms. */
  start: number;
  params: MatchParams;
  script: MatchScript;
  end: SimEnd;
  /** Postponed / abandoned: wall second of the interruption. */
  interruptWall: number;
  /** Never started: when the postponement is announced (simulated ms). */
  announceAt: number;
  missing: SimMissing;
  /** A published correction of the final corners, this many ms after the end (soccer). */
  correctionAfterMs: number | null;
  markets: MarketSpec[];
  /** Stagger of the pre-match price refresh, so books do not all move at once. */
  bucketOffsetMs: number;
}

/** End-state and missing-data rates: small, as in a real feed. */
export const RATES = {
  never: 0.01,
  postponed: 0.008,
  abandoned: 0.008,
  missingGoals: 0.005,
  missingCorners: 0.02,
  missingCards: 0.02,
  missingFirstHalf: 0.02,
  correction: 0.02,
};

/** Team strength on a common scale; fixed per seed and team. */
function strength(seed: number, sportId: number, team: string): number {
  return new Rng(seed, `strength|${sportId}|${team}`).normal(0, 0.6);
}

/** A competition's match before its sport sets the pre-match truth: neutral, in the competition's format. */
export function baseParams(c: SimCompetition): MatchParams {
  return {
    sportId: c.sportId,
    lambdaHome: 0,
    lambdaAway: 0,
    diffMean: 0,
    diffSd: 1,
    totalMean: 0,
    totalSd: 1,
    pSet: 0.5,
    setsToWin: c.format.setsToWin ?? 2,
    quarterMinutes: c.format.quarterMinutes ?? 12,
    corners: [0, 0],
    yellows: [0, 0],
    reds: [0, 0],
    tieHomeShare: 0.5,
  };
}

export function matchParams(seed: number, c: SimCompetition, home: string, away: string): MatchParams {
  const d = strength(seed, c.sportId, home) - strength(seed, c.sportId, away);
  const scoring = c.format.scoring ?? 1;
  const base = baseParams(c);
  return simSport(c.sportId).params(base, d, scoring);
}

/** Our event id: 9 + seed (3) + day (6) + competition (3) + fixture (2) digits; no two collide. */
export function fixtureId(seed: number, day: number, competitionId: number, k: number): string {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return `9${pad(seed % 1000, 3)}${pad(day, 6)}${pad(competitionId % 1000, 3)}${pad(k % 100, 2)}`;
}

export function buildFixture(
  seed: number,
  c: SimCompetition,
  day: number,
  k: number,
  home: { name: string; regionCode: string },
  away: { name: string; regionCode: string },
  start: number,
): SimFixture {
  const eventId = fixtureId(seed, day, c.id, k);
  const rng = new Rng(seed, `fixture|${eventId}`);
  const params = matchParams(seed, c, home.name, away.name);
  const script = buildScript(params, new Rng(seed, `script|${eventId}`));
  const roll = rng.next();
  const end: SimEnd = roll < RATES.never ? 'never' : roll < RATES.never + RATES.postponed ? 'postponed' : roll < RATES.never + RATES.postponed + RATES.abandoned ? 'abandoned' : 'completed';
  const interruptWall = Math.floor(script.end * (0.2 + 0.6 * rng.next()));
  const announceAt = start - Math.floor(rng.next() * 6 * 60) * MIN_MS;
  const sport = simSport(c.sportId);
  const soccer = sport.incidentCounts;
  const hasHalves = sport.firstHalf !== null;
  const missing: SimMissing = {
    goals: rng.chance(RATES.missingGoals),
    corners: soccer && rng.chance(RATES.missingCorners),
    cards: soccer && rng.chance(RATES.missingCards),
    firstHalf: hasHalves && rng.chance(RATES.missingFirstHalf),
  };
  const correctionAfterMs = soccer && !missing.corners && !missing.goals && rng.chance(RATES.correction) ? (10 + rng.int(0, 30)) * MIN_MS : null;
  return {
    eventId,
    competition: c,
    home,
    away,
    start,
    params,
    script,
    end,
    interruptWall,
    announceAt,
    missing,
    correctionAfterMs,
    markets: marketsFor(params),
    bucketOffsetMs: hash32(eventId) % (30 * MIN_MS),
  };
}

/** Kickoffs of one competition on one day (pure). */
export function fixturesOfDay(seed: number, c: SimCompetition, day: number, density = 1): SimFixture[] {
  const weekday = new Date(day * DAY_MS).getUTCDay();
  const count = Math.min(Math.floor(c.teams.length / 2), Math.round((c.fixturesByWeekday[weekday] ?? 0) * density));
  if (count === 0) return [];
  const rng = new Rng(seed, `pairs|${c.id}|${day}`);
  const teams = rng.shuffle(c.teams);
  const out: SimFixture[] = [];
  for (let k = 0; k < count; k++) {
    const hour = c.kickoffs[k % c.kickoffs.length];
    const start = day * DAY_MS + Math.round(hour * 60) * MIN_MS;
    out.push(buildFixture(seed, c, day, k, teams[2 * k], teams[2 * k + 1], start));
  }
  return out;
}

/** When the match stops being news for the feed: its end (or interruption), or the kickoff. */
export function fixtureEnd(f: SimFixture): number {
  if (f.end === 'never') return f.start;
  const wall = f.end === 'completed' ? f.script.end : f.interruptWall;
  return f.start + wall * 1000 + (f.correctionAfterMs ?? 0);
}

export interface ScheduleOptions {
  horizonMs: number;
  lookbackMs: number;
  density: number;
  competitions?: readonly SimCompetition[];
}

/**
 * Every fixture the feed shows at simulated time `t`: kickoff within the horizon, and not ended
 * longer ago than the lookback. A per-day memo keeps polls cheap.
 */
export class Schedule {
  private readonly days = new Map<number, SimFixture[]>();
  constructor(
    private readonly seed: number,
    private readonly opts: ScheduleOptions,
  ) {}

  private day(d: number): SimFixture[] {
    let list = this.days.get(d);
    if (!list) {
      list = (this.opts.competitions ?? COMPETITIONS).flatMap((c) => fixturesOfDay(this.seed, c, d, this.opts.density));
      this.days.set(d, list);
      if (this.days.size > 20) this.days.delete(this.days.keys().next().value!);
    }
    return list;
  }

  at(t: number): SimFixture[] {
    const from = epochDay(t - this.opts.lookbackMs) - 1;
    const to = epochDay(t + this.opts.horizonMs);
    const out: SimFixture[] = [];
    for (let d = from; d <= to; d++) {
      for (const f of this.day(d)) {
        if (f.start > t + this.opts.horizonMs) continue;
        if (fixtureEnd(f) + this.opts.lookbackMs < t) continue;
        out.push(f);
      }
    }
    return out;
  }
}
