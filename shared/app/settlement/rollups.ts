import { betProblem, CONFIDENCES, emptyCounters, equalRollups, recomputeFromBets, type Rollup, type SettledBet } from '../../domain/grading';
import { childLogger } from '../../platform/logger';
import { findAllSettledBets, findSettledBetsInRanges, type SettledBetRow } from '../../platform/db/repositories/ai';
import { bulkWriteRollups, findRollups } from '../../platform/db/repositories/performance';
import { betDay, dayRange } from '../../domain/settlement/state';
import { isDuplicateKey } from '../../platform/db/duplicateKey';

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

type BetRow = Omit<SettledBetRow, '_id'>;

export function toSettledBet(b: BetRow): SettledBet {
  return {
    day: betDay(b.eventStartAt),
    confidence: b.confidence,
    result: b.result as SettledBet['result'],
    resultDetail: b.resultDetail as SettledBet['resultDetail'],
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
function countable(rows: (BetRow & { _id: string })[]): { bets: SettledBet[]; invalid: InvalidBet[] } {
  const bets: SettledBet[] = [];
  const invalid: InvalidBet[] = [];
  for (const row of rows) {
    const bet = toSettledBet(row);
    const problem = betProblem(bet);
    if (problem) invalid.push({ id: String(row._id), problem });
    else bets.push(bet);
  }
  return { bets, invalid };
}

/** Rollups of the given days recomputed from the settled recommendations (one query). */
export async function recomputeDays(days: readonly string[]): Promise<Rollup[]> {
  if (days.length === 0) return [];
  const rows = await findSettledBetsInRanges(days.map((d) => dayRange(d)));
  const { bets, invalid } = countable(rows);
  // The logger is made on use: the web process imports this module before its config is checked.
  if (invalid.length) childLogger({ component: 'performance-rollups' }).warn({ invalid: invalid.slice(0, 20), count: invalid.length }, 'settled bets left out of the performance rollups');
  return recomputeFromBets(bets);
}

/** Every rollup recomputed from every settled recommendation, and the bets that could not be counted (the check command). */
export async function recomputeAll(): Promise<{ rollups: Rollup[]; invalid: InvalidBet[] }> {
  const rows = await findAllSettledBets();
  const { bets, invalid } = countable(rows);
  return { rollups: recomputeFromBets(bets), invalid };
}

interface StoredRollup extends Rollup {
  _id: string;
  rev?: number | null;
  updatedAt?: Date;
}

export async function loadRollups(filter: { days?: readonly string[] } = {}): Promise<StoredRollup[]> {
  return findRollups<StoredRollup>(filter);
}

export class RollupContentionError extends Error {
  override name = 'RollupContentionError';
}

const MAX_ATTEMPTS = 8;

/** One compare-and-set round over `days`; false when another writer got in between. */
async function refreshOnce(days: readonly string[]): Promise<boolean> {
  const stored = await loadRollups({ days });
  const fresh = await recomputeDays(days);
  const byKey = new Map(fresh.map((r) => [`${r.day}|${r.confidence}`, r]));
  const ops = [];
  for (const day of days) {
    for (const confidence of CONFIDENCES) {
      const _id = `${day}|${confidence}`;
      const current = stored.find((r) => r._id === _id);
      const next: Rollup = byKey.get(_id) ?? { day, confidence, ...emptyCounters() };
      if (!current && next.total === 0) continue;
      if (current && equalRollups([current], [next]).equal) continue;
      const { day: _d, confidence: _c, ...counters } = next;
      ops.push({
        updateOne: {
          filter: { _id, rev: current?.rev ?? null },
          update: { $set: { day, confidence, ...counters, rev: (current?.rev ?? 0) + 1 } },
          upsert: true,
        },
      });
    }
  }
  if (ops.length === 0) return true;
  try {
    const res = await bulkWriteRollups(ops);
    return res.matchedCount + res.upsertedCount === ops.length;
  } catch (err) {
    // The document appeared (or moved on) since it was read: an upsert hit its _id.
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

export async function refreshRollupDays(days: readonly string[]): Promise<void> {
  const unique = [...new Set(days)].sort();
  if (unique.length === 0) return;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (await refreshOnce(unique)) return;
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

  constructor(private readonly refresh: (days: readonly string[]) => Promise<void> = refreshRollupDays) {}

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
