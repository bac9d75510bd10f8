import { makeCategorical, mulberry32, samplePoisson } from './random';
import { type ScoreGrid } from './scoreGrid';

/**
 * Seeded Monte Carlo of a match, stored as the event's matchSimulation. Drawn from the model's
 * own score grid (so the Dixon-Coles low-score correction, overtime rules and set formats come
 * along), or from independent Poisson goals when only expected goals are known.
 */
export interface MatchSimulation {
  iterations: number;
  seed: number;
  expectedScore: { home: number; away: number };
  outcomeFrequencies: { home: number; draw: number; away: number };
  mostLikelyScores: { score: string; probability: number }[];
  /** Share of iterations ending in each score ('2-1'), most frequent first. */
  scoreDistribution: Record<string, number>;
}

export type SimulationSource = { grid: ScoreGrid } | { lambdaHome: number; lambdaAway: number };

export const DEFAULT_ITERATIONS = 10_000;

export function simulateMatch(source: SimulationSource, iterations = DEFAULT_ITERATIONS, seed = 1, topScores = 5): MatchSimulation {
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError(`iterations must be a positive integer, got ${iterations}`);
  const rng = mulberry32(seed);
  let draw: () => [number, number];
  if ('grid' in source) {
    const { grid } = source;
    const cols = grid.p[0]?.length ?? 0;
    const pick = makeCategorical(grid.p.flat());
    draw = () => {
      const k = pick(rng);
      return [grid.homeMin + Math.floor(k / cols), grid.awayMin + (k % cols)];
    };
  } else {
    draw = () => [samplePoisson(rng, source.lambdaHome), samplePoisson(rng, source.lambdaAway)];
  }
  const counts = new Map<string, number>();
  let home = 0;
  let drawn = 0;
  let away = 0;
  let sumH = 0;
  let sumA = 0;
  for (let i = 0; i < iterations; i++) {
    const [h, a] = draw();
    sumH += h;
    sumA += a;
    if (h > a) home++;
    else if (h === a) drawn++;
    else away++;
    const key = `${h}-${a}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const sorted = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    iterations,
    seed,
    expectedScore: { home: round(sumH / iterations), away: round(sumA / iterations) },
    outcomeFrequencies: { home: home / iterations, draw: drawn / iterations, away: away / iterations },
    mostLikelyScores: sorted.slice(0, topScores).map(([score, n]) => ({ score, probability: n / iterations })),
    scoreDistribution: Object.fromEntries(sorted.map(([score, n]) => [score, n / iterations])),
  };
}
