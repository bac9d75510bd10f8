import type { SportId } from '../../../domain/sports';
import type { GridDist, OutcomeProbs, ScoreDist } from './dist';
import type { Rng } from './rng';

/**
 * What every sport's match model is built from: the pre-match truth, the script of a match (its
 * periods on the wall clock and its incidents), its state at an instant, the live distributions,
 * and the building blocks the sports share (segments, period and set scripts, the share of a
 * match still to play). A sport's own model is its file in sports/.
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

export const MIN = 60;

export function playSegment(phase: string, start: number, wallMinutes: number, clockStartMin: number, clockMinutes: number, index: number): Segment {
  return { phase, start, end: start + Math.round(wallMinutes * MIN), play: true, clockStart: Math.round(clockStartMin * MIN), clockEnd: Math.round((clockStartMin + clockMinutes) * MIN), index };
}

export function breakSegment(phase: string, start: number, wallMinutes: number, clock: number): Segment {
  return { phase, start, end: start + Math.round(wallMinutes * MIN), play: false, clockStart: clock, clockEnd: clock, index: -1 };
}

/** Places `count` incidents uniformly inside a play segment. */
export function scatter(rng: Rng, seg: Segment, count: number, kind: IncidentKind, side: 0 | 1, out: Incident[]): void {
  for (let i = 0; i < count; i++) out.push({ wall: Math.floor(seg.start + rng.next() * (seg.end - seg.start - 1)) + 1, kind, side });
}

/** Normal sports: regulation periods with per-period margin and total, then overtime when level. */
export function periodsScript(
  p: MatchParams,
  rng: Rng,
  opts: { names: string[]; wallMinutes: number; clockMinutes: number; breaks: number[]; otWall: number; otClock: number; maxOts: number },
): MatchScript {
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

export function setsScript(p: MatchParams, rng: Rng, volleyball: boolean): MatchScript {
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

/** Progress through a segment (0 at start, 1 at end). */
export const progress = (seg: Segment, wall: number) => (seg.end > seg.start ? Math.min(1, Math.max(0, (wall - seg.start) / (seg.end - seg.start))) : 1);

export function currentSegment(script: MatchScript, wall: number): Segment | undefined {
  return script.segments.find((s) => wall >= s.start && wall < s.end);
}

/** Game clock (seconds) at a wall instant; sports without a running clock report wall time. */
export function clockAt(script: MatchScript, wall: number): number {
  const seg = currentSegment(script, wall) ?? script.segments[script.segments.length - 1];
  if (seg.clockEnd === 0 && seg.clockStart === 0) return Math.max(0, Math.floor(Math.min(wall, script.end)));
  if (wall >= script.end) return seg.clockEnd;
  return Math.floor(seg.clockStart + (seg.clockEnd - seg.clockStart) * progress(seg, wall));
}

/** Share of the regulation expectation still to come, by play segment (partial current one). */
export function remainingShare(script: MatchScript, wall: number, regulationSegments: number, filter: (s: Segment) => boolean = () => true): number {
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

/** Remaining share of the overtime segment being played (normal sports). */
export function otShare(script: MatchScript, wall: number, regulation: number): number {
  const seg = currentSegment(script, wall);
  if (!seg || !seg.play || seg.index < regulation) return 0;
  const clockMinutes = (seg.clockEnd - seg.clockStart) / MIN;
  const regMinutes = script.segments.filter((s) => s.play && s.index < regulation).reduce((a, s) => a + (s.clockEnd - s.clockStart) / MIN, 0);
  return ((1 - progress(seg, wall)) * clockMinutes) / regMinutes;
}

/** Final sets distribution: current sets plus a small DP over the rest, the current set adjusted by its score. */
export function setsGrid(p: MatchParams, script: MatchScript, state: MatchState, wall: number, scale: number): GridDist {
  const need = p.setsToWin;
  const n = need + 2;
  const grid = new Float64Array(n * n);
  const seg = currentSegment(script, wall);
  let pCurrent = p.pSet;
  if (seg?.play && seg.score) {
    const u = progress(seg, wall);
    const gh = Math.floor(seg.score[0] * u);
    const ga = Math.floor(seg.score[1] * u);
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

/** The corners and cards markets of a sport that does not count them: even, no push. */
export const none = () => ({ win: [0.5, 0.5], push: [0, 0] });

/**
 * The live model of a normal sport (basketball, american football, handball): the margin and
 * the total still to come, regulation (`regulation` play segments) and overtime.
 */
export function normalLive(regulation: number): (p: MatchParams, script: MatchScript, state: MatchState, w: number) => LiveModel {
  return (p, script, state, w) => {
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
  };
}

/** P(home wins a set) implied by a rating difference, used when building params. */
export const logistic = (x: number) => 1 / (1 + Math.exp(-x));
