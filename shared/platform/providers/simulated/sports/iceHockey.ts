import { poissonGrid, resolveTies } from '../dist';
import { half, market as m } from '../lines';
import { breakSegment, type Incident, type MatchParams, type MatchScript, MIN, none, playSegment, remainingShare, scatter, type Segment } from '../match';
import type { Rng } from '../rng';
import type { SimSport } from './sport';

/** Ice hockey: three periods, goals as incidents, then sudden-death overtime and a shootout when level. */
function script(p: MatchParams, rng: Rng): MatchScript {
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

export const iceHockey: SimSport = {
  id: 7,
  params(base, d) {
    const lh = 3.15 * Math.exp(0.2 * d);
    const la = 2.85 * Math.exp(-0.2 * d);
    return { ...base, lambdaHome: lh, lambdaAway: la, tieHomeShare: 0.5 + (0.4 * (lh - la)) / (lh + la) };
  },
  script,
  live(p, script, state, w) {
    const rem = remainingShare(script, w, 3);
    const grid = poissonGrid(state.home, state.away, p.lambdaHome * rem, p.lambdaAway * rem);
    return { fullTime: state.ended ? grid : resolveTies(grid, p.tieHomeShare), firstHalf: null, corners: none, cards: none };
  },
  markets: (p) => [m('ICE_HOCKEY_MONEYLINE'), m('ICE_HOCKEY_PUCK_LINE', p.lambdaHome >= p.lambdaAway ? -1.5 : 1.5), m('ICE_HOCKEY_TOTAL_GOALS', half(p.lambdaHome + p.lambdaAway))],
  layout(play, pause) {
    ['FIRST_PERIOD', 'SECOND_PERIOD', 'THIRD_PERIOD'].forEach((n, i) => {
      play(n, 35, i * 20, 20);
      if (i < 2) pause('BREAK', 18, (i + 1) * 20);
    });
  },
  firstHalf: null,
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: true,
};
