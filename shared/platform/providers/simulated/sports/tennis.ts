import { market as m } from '../lines';
import { logistic, none, setsGrid, setsScript } from '../match';
import type { SimSport } from './sport';

/** Tennis: sets of games to the competition's best-of, the current set weighed by its games. */
export const tennis: SimSport = {
  id: 3,
  params: (base, d) => ({ ...base, pSet: logistic(1.1 * d) }),
  script: (p, rng) => setsScript(p, rng, false),
  live: (p, script, state, w) => ({ fullTime: setsGrid(p, script, state, w, 0.45), firstHalf: null, corners: none, cards: none }),
  markets: (p) => [m('TENNIS_MATCH_WINNER'), m('TENNIS_SET_HANDICAP', p.pSet >= 0.5 ? -1.5 : 1.5), m('TENNIS_TOTAL_SETS', p.setsToWin === 3 ? 3.5 : 2.5)],
  layout(play, pause) {
    for (let i = 1; i <= 5; i++) {
      play(`SET_${i}`, 45, 0, 0);
      if (i < 5) pause(`SET_BREAK_${i}`, 2, 0);
    }
  },
  firstHalf: null,
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
