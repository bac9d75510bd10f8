import { poissonGrid, resolveTies } from '../dist';
import { half, market as m } from '../lines';
import { currentSegment, type MatchParams, type MatchScript, none, playSegment, progress, type Segment } from '../match';
import type { Rng } from '../rng';
import type { SimSport } from './sport';

/** Baseball: half-innings with their runs, extra innings when level after nine. */
function script(p: MatchParams, rng: Rng): MatchScript {
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

export const baseball: SimSport = {
  id: 4,
  params(base, d, scoring) {
    const lh = 4.6 * scoring * Math.exp(0.15 * d);
    const la = 4.4 * scoring * Math.exp(-0.15 * d);
    return { ...base, lambdaHome: lh, lambdaAway: la, tieHomeShare: lh / (lh + la) };
  },
  script,
  live(p, script, state, w) {
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
  },
  markets: (p) => [m('BASEBALL_MONEYLINE'), m('BASEBALL_RUN_LINE', p.lambdaHome >= p.lambdaAway ? -1.5 : 1.5), m('BASEBALL_TOTAL_RUNS', half(p.lambdaHome + p.lambdaAway))],
  layout(play) {
    for (let i = 1; i <= 9; i++) {
      play(`INNING_${i}_TOP`, 10, 0, 0);
      play(`INNING_${i}_BOTTOM`, 10, 0, 0);
    }
  },
  firstHalf: null,
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
