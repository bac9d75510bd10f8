import { marketType, type MarketType } from '../../../domain/markets/catalog';
import { btts, doubleChance, handicap, lineEffective, result3, total, effective, winner2, type GridDist, type ScoreDist } from './dist';
import { clamp, type MarketSpec } from './lines';
import type { LiveModel, MatchParams } from './match';
import { simSport } from './sports';
import { gauss, mix } from './rng';

/**
 * Which markets each sport carries (with lines fixed from the pre-match truth, so ids are stable
 * all match long), their fair probabilities, and how each simulated bookmaker turns them into
 * prices: its own noise around the truth, then its margin, rounded down to its price ladder.
 */

export interface Bookmaker {
  key: string;
  /** Overround added to the noisy probabilities (0.05 = 105% book). */
  margin: number;
  /** Standard deviation of its error on the logit scale. */
  noise: number;
  /** Market types it does not offer. */
  skips: readonly string[];
}

export const BOOKMAKERS: readonly Bookmaker[] = [
  { key: 'simbook-a', margin: 0.025, noise: 0.03, skips: [] },
  { key: 'simbook-b', margin: 0.05, noise: 0.07, skips: [] },
  { key: 'simbook-c', margin: 0.065, noise: 0.1, skips: ['SOCCER_FIRST_HALF_RESULT', 'SOCCER_FIRST_HALF_UNDER_OVER'] },
  { key: 'simbook-d', margin: 0.08, noise: 0.13, skips: ['SOCCER_CORNERS_UNDER_OVER', 'SOCCER_CARDS_UNDER_OVER'] },
];

/** Share of (bookmaker, market, time bucket) quotes that are simply missing. */
export const MISSING_QUOTE_RATE = 0.02;

/** Pre-match markets and lines of an event: its sport's (sports/). */
export function marketsFor(p: MatchParams): MarketSpec[] {
  return simSport(p.sportId).markets(p);
}

/** Fair (push-adjusted) probability of each outcome of a market, in catalog order. */
export function fairProbabilities(type: MarketType, line: number | null, model: LiveModel): number[] {
  const ft: ScoreDist = type.period === '1H' && model.firstHalf ? model.firstHalf : model.fullTime;
  const l = line ?? 0;
  if (type.stat === 'corners') return lineEffective(model.corners, l);
  if (type.stat === 'cards') return lineEffective(model.cards, l);
  switch (type.kind) {
    case 'result3':
      return result3(ft).win;
    case 'winner2':
      return effective(winner2(ft));
    case 'total':
      return lineEffective((x) => total(ft, x), l);
    case 'handicap':
      return lineEffective((x) => handicap(ft, x), l);
    case 'btts':
      return btts(ft as GridDist).win;
    case 'doubleChance':
      return doubleChance(ft).win;
  }
}

/** Bookmaker price ladder: prices are rounded down to the nearest step. */
const LADDER: readonly [number, number][] = [
  [2, 0.01],
  [3, 0.02],
  [4, 0.05],
  [6, 0.1],
  [10, 0.2],
  [20, 0.5],
  [50, 1],
  [Infinity, 5],
];

export function toLadder(price: number): number {
  const p = clamp(price, 1.01, 501);
  for (const [upTo, step] of LADDER) {
    if (p < upTo) {
      const v = Math.floor(p / step + 1e-9) * step;
      return Math.max(1.01, Math.round(v * 100) / 100);
    }
  }
  return 501;
}

/** Below or above these fair probabilities a selection is decided in practice: suspended. */
export const DECIDED_LOW = 0.01;
export const DECIDED_HIGH = 0.99;

export interface QuoteKey {
  seed: number;
  itemHash: number;
  bucket: number;
}

/**
 * One bookmaker's prices for a market: noise on the logit scale (deterministic per item and time
 * bucket), renormalized, margin applied, rounded to the ladder. `null` where it does not quote.
 */
export function bookPrices(book: Bookmaker, bookIndex: number, type: MarketType, fair: number[], keys: QuoteKey[]): (number | null)[] {
  if (book.skips.includes(type.sysname)) return fair.map(() => null);
  const k0 = keys[0];
  if ((mix(k0.seed, 77, bookIndex, k0.itemHash, k0.bucket) % 10000) / 10000 < MISSING_QUOTE_RATE) return fair.map(() => null);
  const noisy = fair.map((q, i) => {
    const k = keys[i];
    const z = gauss(mix(k.seed, bookIndex, k.itemHash, k.bucket), mix(k.seed, bookIndex + 101, k.itemHash, k.bucket));
    const c = clamp(q, 0.002, 0.998);
    return 1 / (1 + Math.exp(-(Math.log(c / (1 - c)) + book.noise * z)));
  });
  const target = type.kind === 'doubleChance' ? 2 : 1;
  const sum = noisy.reduce((a, b) => a + b, 0);
  return noisy.map((q) => toLadder(1 / ((q * target) / sum) / (1 + book.margin)));
}

export function catalogType(sysname: string): MarketType {
  const t = marketType(sysname);
  if (!t) throw new Error(`market ${sysname} is not in the catalog`);
  return t;
}
