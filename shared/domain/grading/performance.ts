import type { ResultDetail, SettlementResult } from './results';
import { addDays } from '../days';

export const CONFIDENCES = ['High', 'Medium', 'Low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** What performance needs of a settled bet; day is its settlement (or event) day, YYYY-MM-DD. */
export interface SettledBet {
  day: string;
  confidence: Confidence;
  result: SettlementResult;
  resultDetail: ResultDetail;
  returnPerUnit: number;
  edgePercentage: number;
}

export interface RollupCounters {
  total: number;
  /** result 'won', half wins included (halfWins is the subset). */
  wins: number;
  /** result 'lost', half losses included (halfLosses is the subset). */
  losses: number;
  pushes: number;
  halfWins: number;
  halfLosses: number;
  /** Flat 1-unit stakes: one per bet, pushes included (they return their unit). */
  staked: number;
  returned: number;
  sumEdge: number;
}

/** One stored rollup document: the counters of one (day, confidence). */
export interface Rollup extends RollupCounters {
  day: string;
  confidence: Confidence;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const COUNTER_KEYS = ['total', 'wins', 'losses', 'pushes', 'halfWins', 'halfLosses', 'staked', 'returned', 'sumEdge'] as const;

/** Why a settled bet cannot be counted, or null when it can (pure). */
export function betProblem(bet: SettledBet): string | null {
  if (!DAY.test(bet.day) || Number.isNaN(Date.parse(`${bet.day}T00:00:00Z`))) return `bet day must be YYYY-MM-DD, got ${bet.day}`;
  if (!CONFIDENCES.includes(bet.confidence)) return `unknown confidence ${bet.confidence}`;
  const expected = bet.resultDetail === 'half_won' ? 'won' : bet.resultDetail === 'half_lost' ? 'lost' : bet.resultDetail;
  if (expected !== bet.result) return `result ${bet.result} does not match resultDetail ${bet.resultDetail}`;
  if (!Number.isFinite(bet.returnPerUnit) || bet.returnPerUnit < 0) return `returnPerUnit must be >= 0, got ${bet.returnPerUnit}`;
  if (!Number.isFinite(bet.edgePercentage)) return `edgePercentage must be finite, got ${bet.edgePercentage}`;
  return null;
}

function assertBet(bet: SettledBet): void {
  const problem = betProblem(bet);
  if (problem) throw new RangeError(problem);
}

export function emptyCounters(): RollupCounters {
  return { total: 0, wins: 0, losses: 0, pushes: 0, halfWins: 0, halfLosses: 0, staked: 0, returned: 0, sumEdge: 0 };
}

/**
 * The increments one bet makes to its (day, confidence) rollup; sign -1 takes a bet back out,
 * which is how the worker applies a correction ($inc the old bet with -1, the new with +1)
 * without re-reading every bet of the day.
 */
export function rollupDelta(bet: SettledBet, sign: 1 | -1 = 1): RollupCounters {
  assertBet(bet);
  return {
    total: sign,
    wins: bet.result === 'won' ? sign : 0,
    losses: bet.result === 'lost' ? sign : 0,
    pushes: bet.result === 'push' ? sign : 0,
    halfWins: bet.resultDetail === 'half_won' ? sign : 0,
    halfLosses: bet.resultDetail === 'half_lost' ? sign : 0,
    staked: sign,
    returned: sign * bet.returnPerUnit,
    sumEdge: sign * bet.edgePercentage,
  };
}

export function addCounters(a: RollupCounters, b: RollupCounters): RollupCounters {
  const out = emptyCounters();
  for (const k of COUNTER_KEYS) out[k] = a[k] + b[k];
  return out;
}

function sortRollups(rollups: Rollup[]): Rollup[] {
  return rollups.sort((a, b) => a.day.localeCompare(b.day) || CONFIDENCES.indexOf(a.confidence) - CONFIDENCES.indexOf(b.confidence));
}

/** Applies deltas to in-memory rollups, the same way the worker's $inc does in the store. */
export function applyDelta(rollups: Map<string, Rollup>, bet: SettledBet, sign: 1 | -1 = 1): void {
  const key = `${bet.day}|${bet.confidence}`;
  const current = rollups.get(key) ?? { day: bet.day, confidence: bet.confidence, ...emptyCounters() };
  rollups.set(key, { day: bet.day, confidence: bet.confidence, ...addCounters(current, rollupDelta(bet, sign)) });
}

/**
 * Rollups recomputed from the bets themselves, written independently of rollupDelta (plain
 * filters and sums) so that the check command comparing stored rollups against it catches a
 * wrong increment as well as a lost or doubled one.
 */
export function recomputeFromBets(bets: readonly SettledBet[]): Rollup[] {
  const groups = new Map<string, SettledBet[]>();
  for (const bet of bets) {
    assertBet(bet);
    const key = `${bet.day}|${bet.confidence}`;
    const group = groups.get(key);
    if (group) group.push(bet);
    else groups.set(key, [bet]);
  }
  const out: Rollup[] = [];
  for (const group of groups.values()) {
    const count = (p: (b: SettledBet) => boolean) => group.filter(p).length;
    const sum = (f: (b: SettledBet) => number) => group.reduce((s, b) => s + f(b), 0);
    out.push({
      day: group[0].day,
      confidence: group[0].confidence,
      total: group.length,
      wins: count((b) => b.resultDetail === 'won' || b.resultDetail === 'half_won'),
      losses: count((b) => b.resultDetail === 'lost' || b.resultDetail === 'half_lost'),
      pushes: count((b) => b.resultDetail === 'push'),
      halfWins: count((b) => b.resultDetail === 'half_won'),
      halfLosses: count((b) => b.resultDetail === 'half_lost'),
      staked: group.length,
      returned: sum((b) => b.returnPerUnit),
      sumEdge: sum((b) => b.edgePercentage),
    });
  }
  return sortRollups(out);
}

export type RollupCounter = keyof RollupCounters;

/** One differing counter of one (day, confidence): `a` from the first set, `b` from the second. */
export interface RollupMismatch {
  day: string;
  confidence: Confidence;
  counter: RollupCounter;
  a: number;
  b: number;
}

export interface RollupComparison {
  equal: boolean;
  /** One line per differing (day, confidence, counter): "2024-05-01 High wins: 3 vs 4". */
  differences: string[];
  /** The same differences, structured (same order). */
  mismatches: RollupMismatch[];
}

/**
 * Compares two sets of rollups. A missing rollup equals an all-zero one (a day whose only bet was
 * corrected away), and sums of odds are compared within epsilon because their float value
 * depends on the order the bets were added in.
 */
export function equalRollups(a: readonly Rollup[], b: readonly Rollup[], epsilon = 1e-6): RollupComparison {
  // Each (day, confidence) of either set, by its "day confidence" key.
  const cells = new Map<string, { day: string; confidence: Confidence }>();
  const index = (rs: readonly Rollup[]) => {
    const m = new Map<string, RollupCounters>();
    for (const r of rs) {
      const key = `${r.day} ${r.confidence}`;
      m.set(key, addCounters(m.get(key) ?? emptyCounters(), r));
      cells.set(key, { day: r.day, confidence: r.confidence });
    }
    return m;
  };
  const ma = index(a);
  const mb = index(b);
  const differences: string[] = [];
  const mismatches: RollupMismatch[] = [];
  for (const [key, { day, confidence }] of [...cells].sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) {
    const x = ma.get(key) ?? emptyCounters();
    const y = mb.get(key) ?? emptyCounters();
    for (const k of COUNTER_KEYS) {
      if (Math.abs(x[k] - y[k]) > epsilon) {
        differences.push(`${key} ${k}: ${x[k]} vs ${y[k]}`);
        mismatches.push({ day, confidence, counter: k, a: x[k], b: y[k] });
      }
    }
  }
  return { equal: differences.length === 0, differences, mismatches };
}

/** The days of a window of `days` days ending with `today` (inclusive), oldest first. */
export function windowDays(today: string, days: number): string[] {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
  if (!DAY.test(today) || Number.isNaN(Date.parse(`${today}T00:00:00Z`))) throw new RangeError(`today must be YYYY-MM-DD, got ${today}`);
  return Array.from({ length: days }, (_, i) => addDays(today, i - (days - 1)));
}

/** The contract: win rate = wins / (wins + losses), pushes excluded; half wins count as wins, half losses as losses. */
export function winRate(c: Pick<RollupCounters, 'wins' | 'losses'>): number {
  return c.wins + c.losses === 0 ? 0 : c.wins / (c.wins + c.losses);
}

/** ROI on flat 1-unit stakes: (returned - staked) / staked. */
export function roi(c: Pick<RollupCounters, 'staked' | 'returned'>): number {
  return c.staked === 0 ? 0 : (c.returned - c.staked) / c.staked;
}

export function formatPercent(ratio: number): string {
  const text = (ratio * 100).toFixed(1);
  return `${text === '-0.0' ? '0.0' : text}%`;
}

export function formatProfit(units: number): string {
  const text = Math.abs(units).toFixed(2);
  return `${units < 0 && text !== '0.00' ? '-' : '+'}${text}`;
}

export type PerformanceReport = {
  period: string;
  /** Shape A's block. */
  recommendations: { total: number; wins: number; losses: number; pushes: number; winRate: string };
  /** Shape B. */
  overall: { totalBets: number; wins: number; winRate: string; roi: string; profit: string };
  byConfidence: { confidence: Confidence; total: number; wins: number; winRate: string; roi: string; avgEdge: number }[];
  lastUpdated: string;
};

function sumWindow(rollups: readonly Rollup[], days: Set<string>, confidence?: Confidence): RollupCounters {
  let c = emptyCounters();
  for (const r of rollups) if (days.has(r.day) && (!confidence || r.confidence === confidence)) c = addCounters(c, r);
  return c;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The contract's performance over the last `days` days ending `today` (shape B plus shape A's
 * recommendations block). byConfidence always lists High, Medium, Low, zeros included, so
 * clients need not guess a missing band; avgEdge is a number (percentage points, 2 decimals).
 */
export function performanceReport(rollups: readonly Rollup[], opts: { days: number; today: string; now: Date }): PerformanceReport {
  const days = new Set(windowDays(opts.today, opts.days));
  const all = sumWindow(rollups, days);
  return {
    period: `${opts.days} days`,
    recommendations: { total: all.total, wins: all.wins, losses: all.losses, pushes: all.pushes, winRate: formatPercent(winRate(all)) },
    overall: {
      totalBets: all.total,
      wins: all.wins,
      winRate: formatPercent(winRate(all)),
      roi: formatPercent(roi(all)),
      profit: formatProfit(all.returned - all.staked),
    },
    byConfidence: CONFIDENCES.map((confidence) => {
      const c = sumWindow(rollups, days, confidence);
      return {
        confidence,
        total: c.total,
        wins: c.wins,
        winRate: formatPercent(winRate(c)),
        roi: formatPercent(roi(c)),
        avgEdge: c.total === 0 ? 0 : round2(c.sumEdge / c.total),
      };
    }),
    lastUpdated: opts.now.toISOString(),
  };
}

/** Settled bets counted by result, with the units staked, returned and won (returned - staked). */
export type ResultTally = {
  wins: number;
  losses: number;
  pushes: number;
  staked: number;
  returned: number;
  profit: number;
};

export type DailyPerformance = ResultTally & {
  date: string;
  total: number;
  cumulativeProfit: number;
};

/**
 * The daily breakdown with cumulative profit, every day of the window listed (a quiet day keeps
 * the running total). Money is rounded to cents for display only after accumulating, so the
 * last cumulativeProfit equals the overall profit.
 */
export function dailyBreakdown(rollups: readonly Rollup[], opts: { days: number; today: string }): DailyPerformance[] {
  let cumulative = 0;
  return windowDays(opts.today, opts.days).map((date) => {
    const c = sumWindow(rollups, new Set([date]));
    const profit = c.returned - c.staked;
    cumulative += profit;
    return {
      date,
      total: c.total,
      wins: c.wins,
      losses: c.losses,
      pushes: c.pushes,
      staked: c.staked,
      returned: round2(c.returned),
      profit: round2(profit),
      cumulativeProfit: round2(cumulative),
    };
  });
}
