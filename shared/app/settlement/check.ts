import { equalRollups, type Confidence, type RollupCounter } from '../../domain/grading';
import type { AppContext } from '../context';
import { loadRollups, recomputeAll, refreshRollupDays, type InvalidBet } from './rollups';

/**
 * The performance check (`npm run check:performance`): every stored rollup must equal a
 * recomputation from the settled recommendations. The rollups are derived data (the worker
 * recomputes a day after settling it), so a difference means a refresh was lost or someone
 * edited the collection; `fix` rewrites the differing days through the same compare-and-set
 * refresh the worker uses.
 */

export interface PerformanceMismatch {
  day: string;
  confidence: Confidence;
  counter: RollupCounter;
  stored: number;
  recomputed: number;
}

export interface PerformanceCheck {
  equal: boolean;
  /** Settled recommendations the recomputation counted. */
  settledRecommendations: number;
  /** Stored rollup documents. */
  storedRollups: number;
  /** (day, confidence) groups with settled bets. */
  recomputedRollups: number;
  days: number;
  mismatches: PerformanceMismatch[];
  /** Settled bets that cannot be counted (fields inconsistent): left out of the rollups, the check fails on them. */
  invalidBets: InvalidBet[];
  /** With `fix`: the days rewritten, and the check after the rewrite. */
  fixed?: { days: string[]; after: Omit<PerformanceCheck, 'fixed'> };
}

async function compare(ctx: AppContext): Promise<Omit<PerformanceCheck, 'fixed'>> {
  // Stored first: a settlement finishing in between then shows up in the recomputation (a
  // transient "stored behind" difference that a re-run clears), never as stored-ahead noise.
  const stored = await loadRollups(ctx);
  const { rollups: recomputed, invalid } = await recomputeAll(ctx);
  const cmp = equalRollups(stored, recomputed);
  return {
    equal: cmp.equal && invalid.length === 0,
    settledRecommendations: recomputed.reduce((n, r) => n + r.total, 0),
    storedRollups: stored.length,
    recomputedRollups: recomputed.length,
    days: new Set([...stored, ...recomputed].map((r) => r.day)).size,
    mismatches: cmp.mismatches.map((m) => ({ day: m.day, confidence: m.confidence, counter: m.counter, stored: m.a, recomputed: m.b })),
    invalidBets: invalid,
  };
}

export async function checkPerformance(ctx: AppContext, opts: { fix?: boolean } = {}): Promise<PerformanceCheck> {
  const result: PerformanceCheck = await compare(ctx);
  if (!opts.fix || result.equal) return result;
  const days = [...new Set(result.mismatches.map((m) => m.day))].sort();
  await refreshRollupDays(ctx, days);
  result.fixed = { days, after: await compare(ctx) };
  return result;
}

/** Exit status of the check: 0 when the stored rollups equal the recomputation (after a fix, if asked). */
export function performanceCheckPassed(c: PerformanceCheck): boolean {
  return c.fixed ? c.fixed.after.equal : c.equal;
}
