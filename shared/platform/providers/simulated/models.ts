import type { SportId } from '../../../domain/sports';
import { countTotal, normalCdf, poissonGrid, resolveTies, type GridDist, type OutcomeProbs, type ScoreDist } from './dist';
import type { Rng } from './rng';

/**
 * Per-sport match models. A match is first scripted in full (periods on the wall clock and every
 * score, corner and card) from the pre-match truth; its state at any instant is read off the
 * script, and live probabilities come from the same model conditioned on that state, so the
 * odds move consistently with the score and the clock.
 */

export interface MatchParams {
  sportId: SportId;
  /** Poisson sports (soccer, ice hockey, baseball): expected score per team in regulation. */
  lambdaHome: number;
  lambdaAway: number;
  /** Normal sports (basketball, american football, handball): regulation margin and total. */
  diffMean: number;
  diffSd: number;
  totalMean: number;
  totalSd: number;
  /** Set sports (tennis, volleyball): P(home wins a set); sets needed to win. */
  pSet: number;
  setsToWin: number;
  /** Basketball quarter length in minutes. */
  quarterMinutes: number;
  /** Soccer extras: expected corners, yellow and red cards per team. */
  corners: [number, number];
  yellows: [number, number];
  reds: [number, number];
  /** Share of level finals won by the home side (overtime, shootout, extra innings). */
  tieHomeShare: number;
}

export interface Segment {
  phase: string;
  /** Wall seconds from kickoff. */
  start: number;
  end: number;
  play: boolean;
  /** Game clock shown as elapsed (seconds) at segment start and end. */
  clockStart: number;
  clockEnd: number;
  /** Index among play segments; -1 for breaks. */
  index: number;
  /** Score this play segment produces, for period-total sports: [home, away]. */
  score?: [number, number];
}

export type IncidentKind = 'goal' | 'corner' | 'yellow' | 'red';

export interface Incident {
  wall: number;
  kind: IncidentKind;
  side: 0 | 1;
}

export interface MatchScript {
  segments: Segment[];
  end: number;
  finalPhase: string;
  incidents: Incident[];
  /** Set sports: games (tennis) or points (volleyball) of each set, and its winner. */
  sets?: { h: number; a: number; winner: 0 | 1 }[];
}

export interface MatchState {
  phase: string;
  elapsed: number | null;
  inPlay: boolean;
  started: boolean;
  ended: boolean;
  home: number;
  away: number;
  homeFirstHalf: number | null;
  awayFirstHalf: number | null;
  corners: [number, number] | null;
  yellows: [number, number] | null;
  reds: [number, number] | null;
  /** Wall second of the latest goal (books suspend briefly after one). */
  lastGoalWall: number | null;
  details: Record<string, unknown>;
}

const MIN = 60;

export function playSegment(phase: string, start: number, wallMinutes: number, clockStartMin: number, clockMinutes: number, index: number): Segment {
  return { phase, start, end: start + Math.round(wallMinutes * MIN), play: true, clockStart: Math.round(clockStartMin * MIN), clockEnd: Math.round((clockStartMin + clockMinutes) * MIN), index };
}

export function breakSegment(phase: string, start: number, wallMinutes: number, clock: number): Segment {
  return { phase, start, end: start + Math.round(wallMinutes * MIN), play: false, clockStart: clock, clockEnd: clock, index: -1 };
}

/** Places `count` incidents uniformly inside a play segment. */
function scatter(rng: Rng, seg: Segment, count: number, kind: IncidentKind, side: 0 | 1, out: Incident[]): void {
  for (let i = 0; i < count; i++) out.push({ wall: Math.floor(seg.start + rng.next() * (seg.end - seg.start - 1)) + 1, kind, side });
}

// ---------------------------------------------------------------------------------------------
// Scripts

function soccerScript(p: MatchParams, rng: Rng): MatchScript {
  const s1 = rng.int(1, 5);
  const s2 = rng.int(2, 8);
  const h1 = playSegment('FIRST_HALF', 0, 45 + s1, 0, 45 + s1, 0);
  const ht = breakSegment('HALF_TIME', h1.end, 15, 45 * MIN);
  const h2 = playSegment('SECOND_HALF', ht.end, 45 + s2, 45, 45 + s2, 1);
  const incidents: Incident[] = [];
  const shares: Record<IncidentKind, [number, number]> = { goal: [0.45, 0.55], corner: [0.5, 0.5], yellow: [0.4, 0.6], red: [0.35, 0.65] };
  const lambdas: Record<IncidentKind, [number, number]> = { goal: [p.lambdaHome, p.lambdaAway], corner: p.corners, yellow: p.yellows, red: p.reds };
  for (const kind of ['goal', 'corner', 'yellow', 'red'] as const) {
    for (const side of [0, 1] as const) {
      scatter(rng, h1, rng.poisson(lambdas[kind][side] * shares[kind][0]), kind, side, incidents);
      scatter(rng, h2, rng.poisson(lambdas[kind][side] * shares[kind][1]), kind, side, incidents);
    }
  }
  incidents.sort((a, b) => a.wall - b.wall);
  return { segments: [h1, ht, h2], end: h2.end, finalPhase: 'FULL_TIME', incidents };
}

function hockeyScript(p: MatchParams, rng: Rng): MatchScript {
  const names = ['FIRST_PERIOD', 'SECOND_PERIOD', 'THIRD_PERIOD'];
  const segments: Segment[] = [];
  const incidents: Incident[] = [];
  let t = 0;
  for (let i = 0; i < 3; i++) {
    const seg = playSegment(names[i], t, 35, i * 20, 20, i);
    segments.push(seg);
    scatter(rng, seg, rng.poisson(p.lambdaHome / 3), 'goal', 0, incidents);
    scatter(rng, seg, rng.poisson(p.lambdaAway / 3), 'goal', 1, incidents);
    t = seg.end;
    if (i < 2) {
      segments.push(breakSegment('BREAK', t, 18, (i + 1) * 20 * MIN));
      t += 18 * MIN;
    }
  }
  const count = (side: 0 | 1) => incidents.filter((x) => x.side === side).length;
  let finalPhase = 'FULL_TIME';
  if (count(0) === count(1)) {
    segments.push(breakSegment('BREAK', t, 2, 60 * MIN));
    t += 2 * MIN;
    const ot = playSegment('OVERTIME', t, 8, 60, 5, 3);
    const pGoal = 1 - Math.exp(-((p.lambdaHome + p.lambdaAway) * 5) / 60);
    const side: 0 | 1 = rng.chance(p.tieHomeShare) ? 0 : 1;
    if (rng.chance(pGoal)) {
      // Sudden death: the game ends with the goal.
      const at = Math.floor(ot.start + rng.next() * (ot.end - ot.start - 1)) + 1;
      ot.end = at;
      ot.clockEnd = ot.clockStart + Math.round(((at - ot.start) / (8 * MIN)) * 5 * MIN);
      segments.push(ot);
      incidents.push({ wall: at, kind: 'goal', side });
      finalPhase = 'AFTER_OVERTIME';
      t = at;
    } else {
      segments.push(ot);
      const so = playSegment('SHOOTOUT', ot.end, 5, 65, 0, 4);
      segments.push(so);
      // The shootout winner is credited one goal (the catalog's hockey convention).
      incidents.push({ wall: so.end, kind: 'goal', side });
      finalPhase = 'AFTER_SHOOTOUT';
      t = so.end;
    }
  }
  return { segments, end: t, finalPhase, incidents };
}

/** Normal sports: regulation periods with per-period margin and total, then overtime when level. */
function periodsScript(p: MatchParams, rng: Rng, opts: { names: string[]; wallMinutes: number; clockMinutes: number; breaks: number[]; otWall: number; otClock: number; maxOts: number }): MatchScript {
  const segments: Segment[] = [];
  const n = opts.names.length;
  let t = 0;
  let home = 0;
  let away = 0;
  const draw = (share: number, diffMean: number): [number, number] => {
    const tot = Math.max(0, rng.normal(p.totalMean * share, p.totalSd * Math.sqrt(share)));
    const diff = rng.normal(diffMean * share, p.diffSd * Math.sqrt(share));
    const h = Math.max(0, Math.round((tot + diff) / 2));
    const a = Math.max(0, Math.round((tot - diff) / 2));
    return [h, a];
  };
  for (let i = 0; i < n; i++) {
    const seg = playSegment(opts.names[i], t, opts.wallMinutes, i * opts.clockMinutes, opts.clockMinutes, i);
    seg.score = draw(1 / n, p.diffMean);
    home += seg.score[0];
    away += seg.score[1];
    segments.push(seg);
    t = seg.end;
    if (i < n - 1) {
      segments.push(breakSegment(opts.breaks[i] === 15 || opts.breaks[i] === 20 ? 'HALF_TIME' : 'BREAK', t, opts.breaks[i], (i + 1) * opts.clockMinutes * MIN));
      t += opts.breaks[i] * MIN;
    }
  }
  let finalPhase = 'FULL_TIME';
  let ots = 0;
  while (home === away && ots < opts.maxOts) {
    const clock = n * opts.clockMinutes + ots * opts.otClock;
    segments.push(breakSegment('BREAK', t, 2, clock * MIN));
    t += 2 * MIN;
    const seg = playSegment('OVERTIME', t, opts.otWall, clock, opts.otClock, n + ots);
    const share = opts.otClock / (n * opts.clockMinutes);
    seg.score = draw(share, 0);
    home += seg.score[0];
    away += seg.score[1];
    segments.push(seg);
    t = seg.end;
    ots++;
    finalPhase = 'AFTER_OVERTIME';
  }
  return { segments, end: t, finalPhase, incidents: [] };
}

function baseballScript(p: MatchParams, rng: Rng): MatchScript {
  const segments: Segment[] = [];
  let t = 0;
  let home = 0;
  let away = 0;
  let idx = 0;
  for (let inning = 1; inning <= 15; inning++) {
    const top = playSegment(`INNING_${inning}_TOP`, t, 10, 0, 0, idx++);
    top.score = [0, rng.poisson(p.lambdaAway / 9)];
    away += top.score[1];
    segments.push(top);
    t = top.end;
    // The home side does not bat in the 9th (or later) when already ahead.
    if (inning >= 9 && home > away) break;
    const bottom = playSegment(`INNING_${inning}_BOTTOM`, t, 10, 0, 0, idx++);
    let runs = rng.poisson(p.lambdaHome / 9);
    if (inning === 15 && home + runs === away) runs += 1;
    bottom.score = [runs, 0];
    home += runs;
    segments.push(bottom);
    t = bottom.end;
    if (inning >= 9 && home !== away) break;
  }
  return { segments, end: t, finalPhase: segments.length > 18 ? 'AFTER_EXTRA_INNINGS' : 'FULL_TIME', incidents: [] };
}

function setsScript(p: MatchParams, rng: Rng, volleyball: boolean): MatchScript {
  const segments: Segment[] = [];
  const sets: { h: number; a: number; winner: 0 | 1 }[] = [];
  let t = 0;
  let won: [number, number] = [0, 0];
  let i = 0;
  while (won[0] < p.setsToWin && won[1] < p.setsToWin) {
    const winner: 0 | 1 = rng.chance(p.pSet) ? 0 : 1;
    let w: number;
    let l: number;
    if (volleyball) {
      const target = i === 4 ? 15 : 25;
      l = rng.chance(0.2) ? target - 1 + rng.int(0, 4) : rng.int(Math.round(target * 0.55), target - 1);
      w = Math.max(target, l + 2);
    } else {
      l = rng.weighted([
        [0, 0.04],
        [1, 0.09],
        [2, 0.16],
        [3, 0.21],
        [4, 0.22],
        [5, 0.13],
        [6, 0.15],
      ] as const);
      w = l === 5 ? 7 : l === 6 ? 7 : 6;
    }
    const set = winner === 0 ? { h: w, a: l, winner } : { h: l, a: w, winner };
    sets.push(set);
    const minutes = volleyball ? (w + l) * 0.55 : (w + l) * 4.2 + (l === 6 ? 8 : 0);
    const seg = playSegment(`SET_${i + 1}`, t, minutes, 0, 0, i);
    seg.score = [set.h, set.a];
    segments.push(seg);
    t = seg.end;
    won = winner === 0 ? [won[0] + 1, won[1]] : [won[0], won[1] + 1];
    i++;
    if (won[0] < p.setsToWin && won[1] < p.setsToWin) {
      segments.push(breakSegment(`SET_BREAK_${i}`, t, volleyball ? 3 : 2, 0));
      t += (volleyball ? 3 : 2) * MIN;
    }
  }
  return { segments, end: t, finalPhase: 'FULL_TIME', incidents: [], sets };
}

export function buildScript(p: MatchParams, rng: Rng): MatchScript {
  switch (p.sportId) {
    case 1:
      return soccerScript(p, rng);
    case 2: {
      const q = p.quarterMinutes;
      return periodsScript(p, rng, {
        names: ['FIRST_QUARTER', 'SECOND_QUARTER', 'THIRD_QUARTER', 'FOURTH_QUARTER'],
        wallMinutes: q * 2.4,
        clockMinutes: q,
        breaks: [2, 15, 2],
        otWall: 12,
        otClock: 5,
        maxOts: 6,
      });
    }
    case 3:
      return setsScript(p, rng, false);
    case 4:
      return baseballScript(p, rng);
    case 5:
      return setsScript(p, rng, true);
    case 6:
      return periodsScript(p, rng, {
        names: ['FIRST_QUARTER', 'SECOND_QUARTER', 'THIRD_QUARTER', 'FOURTH_QUARTER'],
        wallMinutes: 45,
        clockMinutes: 15,
        breaks: [2, 20, 2],
        otWall: 25,
        otClock: 10,
        maxOts: 1,
      });
    case 7:
      return hockeyScript(p, rng);
    case 8:
      return periodsScript(p, rng, { names: ['FIRST_HALF', 'SECOND_HALF'], wallMinutes: 35, clockMinutes: 30, breaks: [15], otWall: 0, otClock: 0, maxOts: 0 });
  }
}

// ---------------------------------------------------------------------------------------------
// State at an instant

/** Progress through a segment (0 at start, 1 at end). */
export const progress = (seg: Segment, wall: number) => (seg.end > seg.start ? Math.min(1, Math.max(0, (wall - seg.start) / (seg.end - seg.start))) : 1);

export function currentSegment(script: MatchScript, wall: number): Segment | undefined {
  return script.segments.find((s) => wall >= s.start && wall < s.end);
}

function hasHalves(sportId: SportId): boolean {
  return sportId === 1 || sportId === 2 || sportId === 6 || sportId === 8;
}

/**
 * The match at `wall` seconds after kickoff (negative: not started). Ended matches report the
 * full script. `frozenAt` stops the clock there (postponed or abandoned mid-match).
 */
export function stateAt(sportId: SportId, script: MatchScript, wall: number): MatchState {
  const started = wall >= 0;
  const ended = wall >= script.end;
  const w = Math.min(wall, script.end);
  const seg = ended ? undefined : currentSegment(script, w);
  let home = 0;
  let away = 0;
  let homeFirstHalf: number | null = null;
  let awayFirstHalf: number | null = null;
  const corners: [number, number] = [0, 0];
  const yellows: [number, number] = [0, 0];
  const reds: [number, number] = [0, 0];
  let lastGoalWall: number | null = null;
  const details: Record<string, unknown> = {};
  const halfEnd = script.segments.find((s) => s.play && s.index === (sportId === 1 || sportId === 8 ? 0 : 1))?.end ?? 0;

  if (script.incidents.length) {
    const goals: { minute: number; team: 'home' | 'away' }[] = [];
    let h1h = 0;
    let h1a = 0;
    for (const inc of script.incidents) {
      if (inc.wall > w) break;
      if (inc.kind === 'goal') {
        if (inc.side === 0) home++;
        else away++;
        if (inc.wall <= halfEnd) inc.side === 0 ? h1h++ : h1a++;
        lastGoalWall = inc.wall;
        goals.push({ minute: Math.floor(clockAt(script, inc.wall) / MIN) + 1, team: inc.side === 0 ? 'home' : 'away' });
      } else if (inc.kind === 'corner') corners[inc.side]++;
      else if (inc.kind === 'yellow') yellows[inc.side]++;
      else reds[inc.side]++;
    }
    if (sportId === 1) {
      homeFirstHalf = h1h;
      awayFirstHalf = h1a;
      details.goals = goals;
    }
  } else {
    const periods: { phase: string; home: number; away: number }[] = [];
    for (const s of script.segments) {
      if (!s.play || !s.score || s.start > w) continue;
      const u = progress(s, w);
      const ph = u >= 1 ? s.score[0] : Math.floor(s.score[0] * u);
      const pa = u >= 1 ? s.score[1] : Math.floor(s.score[1] * u);
      periods.push({ phase: s.phase, home: ph, away: pa });
      if (script.sets) {
        if (u >= 1) s.score[0] > s.score[1] ? (home += 1) : (away += 1);
      } else {
        home += ph;
        away += pa;
      }
    }
    if (hasHalves(sportId)) {
      const halfPeriods = sportId === 8 ? 1 : 2;
      if (periods.length >= halfPeriods && w >= halfEnd) {
        homeFirstHalf = periods.slice(0, halfPeriods).reduce((a, x) => a + x.home, 0);
        awayFirstHalf = periods.slice(0, halfPeriods).reduce((a, x) => a + x.away, 0);
      } else if (started) {
        homeFirstHalf = home;
        awayFirstHalf = away;
      }
    }
    details[script.sets ? 'sets' : 'periods'] = periods;
  }

  const clock = started ? clockAt(script, w) : null;
  return {
    phase: !started ? 'NOT_STARTED' : ended ? script.finalPhase : (seg?.phase ?? script.finalPhase),
    elapsed: clock,
    inPlay: Boolean(started && !ended && seg?.play),
    started,
    ended,
    home,
    away,
    homeFirstHalf: started ? homeFirstHalf : null,
    awayFirstHalf: started ? awayFirstHalf : null,
    corners: sportId === 1 ? corners : null,
    yellows: sportId === 1 ? yellows : null,
    reds: sportId === 1 ? reds : null,
    lastGoalWall,
    details,
  };
}

/** Game clock (seconds) at a wall instant; sports without a running clock report wall time. */
export function clockAt(script: MatchScript, wall: number): number {
  const seg = currentSegment(script, wall) ?? script.segments[script.segments.length - 1];
  if (seg.clockEnd === 0 && seg.clockStart === 0) return Math.max(0, Math.floor(Math.min(wall, script.end)));
  if (wall >= script.end) return seg.clockEnd;
  return Math.floor(seg.clockStart + (seg.clockEnd - seg.clockStart) * progress(seg, wall));
}

// ---------------------------------------------------------------------------------------------
// Live distributions

/** Share of the regulation expectation still to come, by play segment (partial current one). */
function remainingShare(script: MatchScript, wall: number, regulationSegments: number, filter: (s: Segment) => boolean = () => true): number {
  let rem = 0;
  for (const s of script.segments) {
    if (!s.play || s.index >= regulationSegments || !filter(s)) continue;
    rem += 1 - progress(s, wall);
  }
  return rem / regulationSegments;
}

export interface LiveModel {
  fullTime: ScoreDist;
  firstHalf: GridDist | null;
  corners: (line: number) => OutcomeProbs;
  cards: (line: number) => OutcomeProbs;
}

/** Fair distributions for the rest of the match, given the state at `wall`. */
export function liveModel(p: MatchParams, script: MatchScript, state: MatchState, wall: number): LiveModel {
  const w = Math.max(0, Math.min(wall, script.end));
  const none = () => ({ win: [0.5, 0.5], push: [0, 0] });
  switch (p.sportId) {
    case 1: {
      const h1 = script.segments[0];
      const h2 = script.segments[2];
      const u1 = progress(h1, w);
      const u2 = progress(h2, w);
      const goalRem = 0.45 * (1 - u1) + 0.55 * (1 - u2);
      const fullTime = poissonGrid(state.home, state.away, p.lambdaHome * goalRem, p.lambdaAway * goalRem);
      const firstHalf = poissonGrid(state.homeFirstHalf ?? 0, state.awayFirstHalf ?? 0, p.lambdaHome * 0.45 * (1 - u1), p.lambdaAway * 0.45 * (1 - u1));
      const cornerRem = 0.5 * (1 - u1) + 0.5 * (1 - u2);
      const cardRem = 0.4 * (1 - u1) + 0.6 * (1 - u2);
      const cornersNow = (state.corners?.[0] ?? 0) + (state.corners?.[1] ?? 0);
      const cardsNow = (state.yellows?.[0] ?? 0) + (state.yellows?.[1] ?? 0) + (state.reds?.[0] ?? 0) + (state.reds?.[1] ?? 0);
      const cardLambda = p.yellows[0] + p.yellows[1] + p.reds[0] + p.reds[1];
      return {
        fullTime,
        firstHalf,
        corners: (line) => countTotal(cornersNow, (p.corners[0] + p.corners[1]) * cornerRem, line),
        cards: (line) => countTotal(cardsNow, cardLambda * cardRem, line),
      };
    }
    case 7: {
      const rem = remainingShare(script, w, 3);
      const grid = poissonGrid(state.home, state.away, p.lambdaHome * rem, p.lambdaAway * rem);
      return { fullTime: state.ended ? grid : resolveTies(grid, p.tieHomeShare), firstHalf: null, corners: none, cards: none };
    }
    case 4: {
      // Remaining half-innings of regulation from the current one on, never reading the script's
      // future (whether the bottom of the 9th gets played depends on the score).
      const seg = currentSegment(script, w);
      const idx = state.ended ? 18 : seg ? seg.index : 0;
      const u = seg ? progress(seg, w) : 0;
      let remHome = 0;
      let remAway = 0;
      for (let i = idx; i < 18; i++) {
        const part = i === idx ? 1 - u : 1;
        if (i % 2 === 0) remAway += part;
        else remHome += part;
      }
      const grid = poissonGrid(state.home, state.away, (p.lambdaHome * remHome) / 9, (p.lambdaAway * remAway) / 9);
      return { fullTime: state.ended ? grid : resolveTies(grid, p.tieHomeShare), firstHalf: null, corners: none, cards: none };
    }
    case 2:
    case 6:
    case 8: {
      const regulation = p.sportId === 8 ? 2 : 4;
      const rem = state.ended ? 0 : remainingShare(script, w, regulation) + otShare(script, w, regulation);
      return {
        fullTime: {
          kind: 'normal',
          diffMean: state.home - state.away + p.diffMean * rem,
          diffSd: Math.max(0.05, p.diffSd * Math.sqrt(rem)),
          totalMean: state.home + state.away + p.totalMean * rem,
          totalSd: Math.max(0.05, p.totalSd * Math.sqrt(rem)),
        },
        firstHalf: null,
        corners: none,
        cards: none,
      };
    }
    case 3:
    case 5:
      return { fullTime: setsGrid(p, script, state, w), firstHalf: null, corners: none, cards: none };
  }
}

/** Remaining share of the overtime segment being played (normal sports). */
function otShare(script: MatchScript, wall: number, regulation: number): number {
  const seg = currentSegment(script, wall);
  if (!seg || !seg.play || seg.index < regulation) return 0;
  const clockMinutes = (seg.clockEnd - seg.clockStart) / MIN;
  const regMinutes = script.segments.filter((s) => s.play && s.index < regulation).reduce((a, s) => a + (s.clockEnd - s.clockStart) / MIN, 0);
  return ((1 - progress(seg, wall)) * clockMinutes) / regMinutes;
}

/** Final sets distribution: current sets plus a small DP over the rest, the current set adjusted by its score. */
function setsGrid(p: MatchParams, script: MatchScript, state: MatchState, wall: number): GridDist {
  const need = p.setsToWin;
  const n = need + 2;
  const grid = new Float64Array(n * n);
  const seg = currentSegment(script, wall);
  let pCurrent = p.pSet;
  if (seg?.play && seg.score) {
    const u = progress(seg, wall);
    const gh = Math.floor(seg.score[0] * u);
    const ga = Math.floor(seg.score[1] * u);
    const scale = p.sportId === 5 ? 0.13 : 0.45;
    const logit = Math.log(p.pSet / (1 - p.pSet)) + scale * (gh - ga) * (1 + u);
    pCurrent = 1 / (1 + Math.exp(-logit));
  }
  const rec = (h: number, a: number, prob: number, first: boolean) => {
    if (h === need || a === need) {
      grid[h * n + a] = grid[h * n + a] + prob;
      return;
    }
    const ps = first ? pCurrent : p.pSet;
    rec(h + 1, a, prob * ps, false);
    rec(h, a + 1, prob * (1 - ps), false);
  };
  if (state.ended) grid[state.home * n + state.away] = 1;
  else rec(state.home, state.away, 1, true);
  return { kind: 'grid', n, p: grid };
}

/** P(home wins a set) implied by a rating difference, used when building params. */
export const logistic = (x: number) => 1 / (1 + Math.exp(-x));
export { normalCdf };
