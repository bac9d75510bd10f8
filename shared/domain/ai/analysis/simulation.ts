import { mixGrids } from '../gridPricing';
import { expectedScore } from '../scoreGrid';
import { simulateMatch, type MatchSimulation } from '../simulate';
import type { PriceViews } from './views';

export const SIMULATION_ITERATIONS = 10_000;

/** Scores stored per simulation: basketball draws thousands of distinct scores. */
export const STORED_SCORES = 40;

/** FNV-1a: the simulation seed of an event, so its stored simulation reproduces. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The simulation with its score distribution cut to the most frequent scores plus the rest's share. */
function trimmedSimulation(sim: MatchSimulation): MatchSimulation & { otherScoresShare: number } {
  const entries = Object.entries(sim.scoreDistribution);
  const kept = entries.slice(0, STORED_SCORES);
  const other = entries.slice(STORED_SCORES).reduce((s, [, p]) => s + p, 0);
  return { ...sim, scoreDistribution: Object.fromEntries(kept), otherScoresShare: Math.round(other * 1e6) / 1e6 };
}

/** The simulation's share of a main-market outcome (1, X, 2). */
export function simulatedShare(sim: MatchSimulation, code: string): number | undefined {
  if (code === '1') return sim.outcomeFrequencies.home;
  if (code === 'X') return sim.outcomeFrequencies.draw;
  if (code === '2') return sim.outcomeFrequencies.away;
  return undefined;
}

/** The fair score grid (the blend of both views' grids), its expected score and its seeded simulation. */
export function simulateFairGrid(eventId: string, views: PriceViews, iterations = SIMULATION_ITERATIONS) {
  const only = views.market ?? views.modelGrids;
  // priceViews gives no views at all rather than views without a grid.
  if (!only) throw new RangeError(`the price views of ${eventId} have no grid`);
  const fairGrid = views.market && views.modelGrids ? mixGrids(views.market.full, views.modelGrids.full, views.w) : only.full;
  return {
    simulation: trimmedSimulation(simulateMatch({ grid: fairGrid }, iterations, seedOf(eventId))),
    expected: expectedScore(fairGrid),
  };
}
