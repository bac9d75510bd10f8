import { half, market as m } from '../lines';
import { normalLive, periodsScript } from '../match';
import type { SimSport } from './sport';

/** American football: four 15-minute quarters, one overtime when level. */
export const americanFootball: SimSport = {
  id: 6,
  params: (base, d, scoring) => ({ ...base, diffMean: (2 + 8 * d) * scoring, diffSd: 13.5, totalMean: 45 * scoring, totalSd: 13 }),
  script: (p, rng) =>
    periodsScript(p, rng, {
      names: ['FIRST_QUARTER', 'SECOND_QUARTER', 'THIRD_QUARTER', 'FOURTH_QUARTER'],
      wallMinutes: 45,
      clockMinutes: 15,
      breaks: [2, 20, 2],
      otWall: 25,
      otClock: 10,
      maxOts: 1,
    }),
  live: normalLive(4),
  markets: (p) => [m('AMERICAN_FOOTBALL_MONEYLINE'), m('AMERICAN_FOOTBALL_SPREAD', -half(p.diffMean)), m('AMERICAN_FOOTBALL_TOTAL_POINTS', half(p.totalMean))],
  layout(play, pause) {
    ['FIRST_QUARTER', 'SECOND_QUARTER', 'THIRD_QUARTER', 'FOURTH_QUARTER'].forEach((n, i) => {
      play(n, 45, i * 15, 15);
      if (i === 1) pause('HALF_TIME', 20, 2 * 15);
      else if (i < 3) pause('BREAK', 2, (i + 1) * 15);
    });
  },
  firstHalf: { endSegment: 1, periods: 2, scenarioMinute: 92 },
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
