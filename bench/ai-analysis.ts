/**
 * Pure cost of the AI worker's per-event analysis (analyze-event without its I/O): fair prices,
 * market inversion, pricing of every bet item, recommendations, insight and a 10,000-iteration
 * simulation, per sport, on simulated multi-bookmaker events. Also one refit per model family.
 * Usage: npm run bench:ai [-- <eventsPerSport>]
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { performance } from 'node:perf_hooks';
import { analyzeEvent } from '../shared/domain/ai/eventAnalysis';
import { mulberry32, samplePoisson } from '../shared/domain/ai/random';
import { fitSport, type CompletedGame, type SportFamily } from '../shared/domain/ai/sportFit';
import { sportDefinition } from '../shared/domain/sports/registry';
import { simEvent, SOCCER_MARKETS, type MarketSpec } from '../test/helpers/simEvents';

const N = Number(process.argv[2] ?? 50);
const SPORTS: { sportId: number; x: number[]; markets: MarketSpec[] }[] = [
  { sportId: 1, x: [Math.log(1.5), Math.log(1.1)], markets: SOCCER_MARKETS },
  {
    sportId: 2,
    x: [4, 222],
    markets: [
      { sysname: 'BASKETBALL_MONEYLINE' },
      { sysname: 'BASKETBALL_SPREAD', line: -4.5 },
      { sysname: 'BASKETBALL_TOTAL_POINTS', line: 221.5 },
      { sysname: 'BASKETBALL_TOTAL_POINTS', line: 225.5 },
    ],
  },
  { sportId: 3, x: [0.3], markets: [{ sysname: 'TENNIS_MATCH_WINNER' }, { sysname: 'TENNIS_TOTAL_SETS', line: 2.5 }, { sysname: 'TENNIS_SET_HANDICAP', line: -1.5 }] },
  { sportId: 4, x: [Math.log(4.6), Math.log(4.2)], markets: [{ sysname: 'BASEBALL_MONEYLINE' }, { sysname: 'BASEBALL_RUN_LINE', line: -1.5 }, { sysname: 'BASEBALL_TOTAL_RUNS', line: 8.5 }] },
  { sportId: 5, x: [-0.2], markets: [{ sysname: 'VOLLEYBALL_MATCH_WINNER' }, { sysname: 'VOLLEYBALL_TOTAL_SETS', line: 3.5 }, { sysname: 'VOLLEYBALL_SET_HANDICAP', line: 1.5 }] },
  { sportId: 6, x: [-3, 46], markets: [{ sysname: 'AMERICAN_FOOTBALL_MONEYLINE' }, { sysname: 'AMERICAN_FOOTBALL_SPREAD', line: 3.5 }, { sysname: 'AMERICAN_FOOTBALL_TOTAL_POINTS', line: 45.5 }] },
  { sportId: 7, x: [Math.log(3.2), Math.log(2.8)], markets: [{ sysname: 'ICE_HOCKEY_MONEYLINE' }, { sysname: 'ICE_HOCKEY_PUCK_LINE', line: -1.5 }, { sysname: 'ICE_HOCKEY_TOTAL_GOALS', line: 5.5 }] },
  { sportId: 8, x: [Math.log(29), Math.log(27)], markets: [{ sysname: 'HANDBALL_MATCH_RESULT' }, { sysname: 'HANDBALL_HANDICAP', line: -1.5 }, { sysname: 'HANDBALL_TOTAL_GOALS', line: 55.5 }] },
];

const now = new Date();
const start = new Date(now.getTime() + 86_400_000);
console.log(`analyzeEvent, ${N} events per sport (4 bookmakers per bet item), 10,000-iteration simulation included`);
console.log('sport  bet items  ms/event (mean)  ms/event (max)  recommendations/event');
for (const s of SPORTS) {
  const times: number[] = [];
  let recs = 0;
  let items = 0;
  for (let i = 0; i < N; i++) {
    const e = simEvent({
      id: `b${s.sportId}-${i}`,
      sportId: s.sportId,
      x: s.x,
      home: { id: 1, name: 'Home' },
      away: { id: 2, name: 'Away' },
      startDateTime: start,
      markets: s.markets,
      seed: 1000 * s.sportId + i,
    });
    const t = performance.now();
    const a = analyzeEvent({ ...e, id: e._id }, null, { minEdge: 2, now });
    times.push(performance.now() - t);
    recs += a?.recommendations.length ?? 0;
    items += a?.items.length ?? 0;
  }
  const mean = times.reduce((x, y) => x + y, 0) / times.length;
  console.log(
    `${String(s.sportId).padStart(5)}  ${String(Math.round(items / N)).padStart(9)}  ${mean.toFixed(1).padStart(15)}  ${Math.max(...times)
      .toFixed(1)
      .padStart(14)}  ${(recs / N).toFixed(2).padStart(21)}`,
  );
}

// Refit: one season-sized history per family.
const rng = mulberry32(7);
const teams = Array.from({ length: 20 }, (_, i) => String(i));
const games: CompletedGame[] = [];
let day = 0;
for (let r = 0; r < 2; r++)
  for (const h of teams) for (const a of teams) if (h !== a) games.push({ home: h, away: a, homeScore: samplePoisson(rng, 1.5), awayScore: samplePoisson(rng, 1.1), day: (day++ * 730) / 760 });
// Scores shaped for each family: goals as drawn, points around 100, sets of a best of three.
const SAMPLES: Record<SportFamily, CompletedGame[]> = {
  goals: games,
  normal: games.map((g) => ({ ...g, homeScore: 100 + 3 * g.homeScore, awayScore: 100 + 3 * g.awayScore })),
  sets: games.map((g) => ({ ...g, homeScore: Math.min(2, g.homeScore), awayScore: g.homeScore >= 2 ? Math.min(1, g.awayScore) : 2 })),
};
for (const sportId of [1, 2, 3]) {
  const sample = SAMPLES[sportDefinition(sportId).fit.family];
  const t = performance.now();
  const fit = fitSport(sportId, sample, day);
  console.log(`refit sport ${sportId} (${fit?.params.family}): ${sample.length} games, 20 teams: ${(performance.now() - t).toFixed(0)} ms`);
}
const mem = process.memoryUsage();
console.log(`heap used ${(mem.heapUsed / 1e6).toFixed(0)} MB, rss ${(mem.rss / 1e6).toFixed(0)} MB`);
