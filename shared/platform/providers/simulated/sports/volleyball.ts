import { market as m } from '../lines';
import { logistic, none, setsGrid, setsScript } from '../match';
import type { SimSport } from './sport';

/** Volleyball: best of five sets of points (the fifth to 15), the current set weighed by its points. */
export const volleyball: SimSport = {
  id: 5,
  params: (base, d) => ({ ...base, pSet: logistic(0.9 * d + 0.08), setsToWin: 3 }),
  script: (p, rng) => setsScript(p, rng, true),
  live: (p, script, state, w) => ({ fullTime: setsGrid(p, script, state, w, 0.13), firstHalf: null, corners: none, cards: none }),
  markets: (p) => [m('VOLLEYBALL_MATCH_WINNER'), m('VOLLEYBALL_SET_HANDICAP', p.pSet >= 0.5 ? -1.5 : 1.5), m('VOLLEYBALL_TOTAL_SETS', 3.5), m('VOLLEYBALL_TOTAL_SETS', 4.5)],
  layout(play, pause) {
    for (let i = 1; i <= 5; i++) {
      play(`SET_${i}`, 25, 0, 0);
      if (i < 5) pause(`SET_BREAK_${i}`, 3, 0);
    }
  },
  firstHalf: null,
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
