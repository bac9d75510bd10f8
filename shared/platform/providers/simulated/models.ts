import type { SportId } from '../../../domain/sports';
import { clockAt, currentSegment, MIN, progress, type LiveModel, type MatchParams, type MatchScript, type MatchState } from './match';
import type { Rng } from './rng';
import { simSport } from './sports';

/**
 * A match, whatever its sport: first scripted in full (periods on the wall clock and every score,
 * corner and card) from the pre-match truth by its sport (sports/); its state at any instant is
 * read off the script, and live probabilities come from the same model conditioned on that
 * state, so the odds move consistently with the score and the clock.
 */

export function buildScript(p: MatchParams, rng: Rng): MatchScript {
  return simSport(p.sportId).script(p, rng);
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
  const sport = simSport(sportId);
  const halfEnd = script.segments.find((s) => s.play && s.index === (sport.firstHalf?.endSegment ?? 1))?.end ?? 0;

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
    if (sport.incidentCounts) {
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
    if (sport.firstHalf) {
      const halfPeriods = sport.firstHalf.periods;
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
    corners: sport.incidentCounts ? corners : null,
    yellows: sport.incidentCounts ? yellows : null,
    reds: sport.incidentCounts ? reds : null,
    lastGoalWall,
    details,
  };
}

/** Fair distributions for the rest of the match, given the state at `wall`. */
export function liveModel(p: MatchParams, script: MatchScript, state: MatchState, wall: number): LiveModel {
  return simSport(p.sportId).live(p, script, state, Math.max(0, Math.min(wall, script.end)));
}
