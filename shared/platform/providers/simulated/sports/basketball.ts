import { half, market as m } from '../lines';
import { normalLive, periodsScript } from '../match';
import type { SimSport } from './sport';

/** Basketball: four quarters of the competition's length, with a margin and a total per quarter; overtimes when level. */
export const basketball: SimSport = {
  id: 2,
  params: (base, d, k) => ({ ...base, diffMean: (2.8 + 7 * d) * k, diffSd: 12.5 * Math.sqrt(k), totalMean: 226 * k, totalSd: 18 * Math.sqrt(k), quarterMinutes: base.quarterMinutes }),
  script(p, rng) {
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
  },
  live: normalLive(4),
  markets: (p) => [m('BASKETBALL_MONEYLINE'), m('BASKETBALL_SPREAD', -half(p.diffMean)), m('BASKETBALL_TOTAL_POINTS', half(p.totalMean))],
  layout(play, pause) {
    ['FIRST_QUARTER', 'SECOND_QUARTER', 'THIRD_QUARTER', 'FOURTH_QUARTER'].forEach((n, i) => {
      play(n, 28.8, i * 12, 12);
      if (i === 1) pause('HALF_TIME', 15, 2 * 12);
      else if (i < 3) pause('BREAK', 2, (i + 1) * 12);
    });
  },
  firstHalf: { endSegment: 1, periods: 2, scenarioMinute: 28.8 * 2 + 2 },
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
