import { half, market as m } from '../lines';
import { normalLive, periodsScript } from '../match';
import type { SimSport } from './sport';

/** Handball: two 30-minute halves with a margin and a total each; a level result stands. */
export const handball: SimSport = {
  id: 8,
  params: (base, d) => ({ ...base, diffMean: 1.5 + 3.5 * d, diffSd: 5.5, totalMean: 57, totalSd: 6.5 }),
  script: (p, rng) => periodsScript(p, rng, { names: ['FIRST_HALF', 'SECOND_HALF'], wallMinutes: 35, clockMinutes: 30, breaks: [15], otWall: 0, otClock: 0, maxOts: 0 }),
  live: normalLive(2),
  markets: (p) => [m('HANDBALL_MATCH_RESULT'), m('HANDBALL_HANDICAP', -half(p.diffMean)), m('HANDBALL_TOTAL_GOALS', half(p.totalMean))],
  layout(play, pause) {
    play('FIRST_HALF', 35, 0, 30);
    pause('HALF_TIME', 15, 30);
    play('SECOND_HALF', 35, 30, 30);
  },
  firstHalf: { endSegment: 0, periods: 1, scenarioMinute: 35 },
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
