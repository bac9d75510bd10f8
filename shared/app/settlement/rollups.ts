import { betProblem, CONFIDENCES, emptyCounters, equalRollups, recomputeFromBets, type Rollup, type SettledBet } from '../../domain/grading';
import type { ResultDetail, SettlementResult } from '../../domain/grading/results';
import { betDay } from '../../domain/settlement/state';
import type { AppContext } from '../context';
import type { RollupWrite, SettledBetRow, StoredRollupRow } from './ports';

/**
 * Performance rollups (one document per day and confidence) are DERIVED: each refresh recomputes
 * a day from its settled recommendations and writes the result. Nothing is ever incremented, so
 * a retried job, a duplicate job or a crash between the bet writes and the refresh can neither
 * lose nor double a bet: re-running a refresh writes the same figures.
 *
 * Concurrent refreshes of one day (two settlement workers) are serialised by compare-and-set on
 * `rev`: a refresh reads the revisions, THEN reads the bets, and writes only over the revisions it
 * read. A refresh that started after a bet was written therefore includes it; a stale refresh
 * (one that read the bets before another worker's write) loses the race and starts over. The
 * last successful write always read the bets after every bet whose settler's refresh finished,
 * so the stored figures equal a recomputation (the check command proves it on demand).
 */

const RESULTS: readonly string[] = ['won', 'lost', 'push'] satisfies SettlementResult[];
const DETAILS: readonly string[] = ['won', 'lost', 'push', 'half_won', 'half_lost'] satisfies ResultDetail[];
const isResult = (v: unknown): v is SettlementResult => typeof v === 'string' && RESULTS.includes(v);
const isDetail = (v: unknown): v is ResultDetail => typeof v === 'string' && DETAILS.includes(v);

/** A stored settled bet as the rollups count it; a problem when its result fields are not a grading's. */
export function toSettledBet(b: Omit<SettledBetRow, '_id'>): SettledBet | { problem: string } {
  if (!isResult(b.result) || !isDetail(b.resultDetail)) return { problem: `result ${b.result} does not match resultDetail ${b.resultDetail}` };
  return {
    day: betDay(b.eventStartAt),
    confidence: b.confidence,
    result: b.result,
    resultDetail: b.resultDetail,
    returnPerUnit: b.returnPerUnit ?? 0,
    edgePercentage: b.edgePercentage,
  };
}

export interface InvalidBet {
  id: string;
  problem: string;
}

/**
 * The countable bets of `rows`, and the ones that are not (a settled bet without resultDetail,
 * say: only a hand edit makes one). Those are left out and reported, never allowed to stop the
 * rollups of every other bet of their day.
 */
function countable(rows: readonly SettledBetRow[]): { bets: SettledBet[]; invalid: InvalidBet[] } {
  const bets: SettledBet[] = [];
  const invalid: InvalidBet[] = [];
  for (const row of rows) {
    const bet = toSettledBet(row);
    const problem = 'problem' in bet ? bet.problem : betProblem(bet);
    if (problem) invalid.push({ id: String(row._id), problem });
    else if (!('problem' in bet)) bets.push(bet);
  }
  return { bets, invalid };
}

/** Rollups of the given days recomputed from the settled recommendations (one query). */
export async function recomputeDays(ctx: AppContext, days: readonly string[]): Promise<Rollup[]> {
  if (days.length === 0) return [];
  const { bets, invalid } = countable(await ctx.rollups.findSettledBetsOfDays(days));
  if (invalid.length) ctx.log({ component: 'performance-rollups' }).warn({ invalid: invalid.slice(0, 20), count: invalid.length }, 'settled bets left out of the performance rollups');
  return recomputeFromBets(bets);
}

/** Every rollup recomputed from every settled recommendation, and the bets that could not be counted (the check command). */
export async function recomputeAll(ctx: AppContext): Promise<{ rollups: Rollup[]; invalid: InvalidBet[] }> {
  const { bets, invalid } = countable(await ctx.rollups.findAllSettledBets());
  return { rollups: recomputeFromBets(bets), invalid };
}

export async function loadRollups(ctx: AppContext, filter: { days?: readonly string[] } = {}): Promise<StoredRollupRow[]> {
  return ctx.rollups.findRollups(filter);
}

export class RollupContentionError extends Error {
  override name = 'RollupContentionError';
}

const MAX_ATTEMPTS = 8;

/** The compare-and-set writes that bring the stored rollups of `days` to `fresh` (pure): only those that differ. */
export function rollupWrites(days: readonly string[], stored: readonly StoredRollupRow[], fresh: readonly Rollup[]): RollupWrite[] {
  const byKey = new Map(fresh.map((r) => [`${r.day}|${r.confidence}`, r]));
  const writes: RollupWrite[] = [];
  for (const day of days) {
    for (const confidence of CONFIDENCES) {
      const id = `${day}|${confidence}`;
      const current = stored.find((r) => r._id === id);
      const next: Rollup = byKey.get(id) ?? { day, confidence, ...emptyCounters() };
      if (!current && next.total === 0) continue;
      if (current && equalRollups([current], [next]).equal) continue;
      const { day: _d, confidence: _c, ...counters } = next;
      writes.push({ id, expectRev: current?.rev ?? null, set: { day, confidence, ...counters, rev: (current?.rev ?? 0) + 1 } });
    }
  }
  return writes;
}

/** One compare-and-set round over `days`; false when another writer got in between. */
async function refreshOnce(ctx: AppContext, days: readonly string[]): Promise<boolean> {
  const stored = await loadRollups(ctx, { days });
  const fresh = await recomputeDays(ctx, days);
  return (await ctx.rollups.writeRollups(rollupWrites(days, stored, fresh))) === 'written';
}

export async function refreshRollupDays(ctx: AppContext, days: readonly string[]): Promise<void> {
  const unique = [...new Set(days)].sort();
  if (unique.length === 0) return;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (await refreshOnce(ctx, unique)) return;
    await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
  }
  throw new RollupContentionError(`performance rollups of ${unique.join(', ')} kept changing under ${MAX_ATTEMPTS} refreshes`);
}

/**
 * Coalesces refreshes inside one process: a caller gets a refresh that STARTS after its call, so
 * it covers the bets it wrote before calling; callers arriving while a refresh of the same day runs
 * share the one queued behind it. Many settled events of one day cost a few recomputations, not
 * one each.
 */
export class RollupRefresher {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private queuedDays = new Set<string>();

  constructor(private readonly refresh: (days: readonly string[]) => Promise<void>) {}

  request(days: readonly string[]): Promise<void> {
    if (days.length === 0) return Promise.resolve();
    for (const d of days) this.queuedDays.add(d);
    if (!this.queued) {
      const after = this.running ? this.running.catch(() => undefined) : Promise.resolve();
      this.queued = after.then(() => {
        const batch = [...this.queuedDays];
        this.queuedDays.clear();
        this.queued = undefined;
        this.running = this.refresh(batch).finally(() => {
          this.running = undefined;
        });
        return this.running;
      });
    }
    return this.queued;
  }
}
