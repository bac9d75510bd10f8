import { countTotal, poissonGrid } from '../dist';
import { clamp, half, market as m, quarter } from '../lines';
import { breakSegment, MIN, playSegment, progress, scatter, type Incident, type IncidentKind, type MatchParams, type MatchScript } from '../match';
import type { Rng } from '../rng';
import type { SimSport } from './sport';

/** Soccer: two halves with stoppage, goals, corners and cards placed as incidents. */
function script(p: MatchParams, rng: Rng): MatchScript {
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

export const soccer: SimSport = {
  id: 1,
  params: (base, d) => ({
    ...base,
    lambdaHome: 1.45 * Math.exp(0.35 * d),
    lambdaAway: 1.15 * Math.exp(-0.35 * d),
    corners: [5.3 * Math.exp(0.12 * d), 4.6 * Math.exp(-0.12 * d)],
    yellows: [1.9, 2.1],
    reds: [0.07, 0.09],
  }),
  script,
  live(p, script, state, w) {
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
  },
  markets(p) {
    const ah = clamp(-quarter((p.lambdaHome - p.lambdaAway) * 0.9), -2.5, 2.5);
    const corners = half(p.corners[0] + p.corners[1] - 0.5);
    const cards = half(p.yellows[0] + p.yellows[1] + p.reds[0] + p.reds[1] - 0.5);
    return [
      m('SOCCER_MATCH_RESULT'),
      m('SOCCER_UNDER_OVER', 1.5),
      m('SOCCER_UNDER_OVER', 2.5),
      m('SOCCER_UNDER_OVER', 3.5),
      m('SOCCER_BOTH_TEAMS_TO_SCORE'),
      m('SOCCER_DOUBLE_CHANCE'),
      m('SOCCER_ASIAN_HANDICAP', ah),
      m('SOCCER_CORNERS_UNDER_OVER', corners),
      m('SOCCER_CARDS_UNDER_OVER', cards),
      m('SOCCER_FIRST_HALF_RESULT'),
      m('SOCCER_FIRST_HALF_UNDER_OVER', 0.5),
      m('SOCCER_FIRST_HALF_UNDER_OVER', 1.5),
    ];
  },
  layout(play, pause) {
    play('FIRST_HALF', 45, 0, 45);
    pause('HALF_TIME', 15, 45);
    play('SECOND_HALF', 45, 45, 45);
  },
  firstHalf: { endSegment: 0, periods: 2, scenarioMinute: 45 },
  incidentCounts: true,
  lineups: true,
  suspendsOnGoal: true,
};
