/**
 * The betting-recommendations list as a read model: per recommendation, what its filters and its
 * order need, kept by the writers (the AI worker inserts, settlement grades) so a list page never
 * counts or sorts the stored collection. Pure: a row of a stored document, which write wins, and
 * a page of a snapshot.
 */
export interface RecommendationRow {
  /** createdAt, ms: the list is newest first, then by id. */
  c: number;
  /** eventId. */
  e: string;
  /** confidence. */
  f: string;
  /** settled, 1 or 0. */
  s: 0 | 1;
  /** result (won, lost, push) once settled. */
  r: string | null;
  /**
   * Which write wins: 2 x settlementWrites, plus 1 when settlement wrote the row. A graded row
   * outranks the insert's, a correction (one more write) outranks the grading it replaces, and
   * settlement restating a row (a retry, a grading error) replaces a row of the same writes.
   */
  o: number;
  /** What of the body settlement can change without a counted write: its graded version and a grading error. */
  v: string;
}

/** The fields of a stored recommendation a row is made of. */
export interface RowSource {
  _id: unknown;
  createdAt?: Date | null;
  eventId: string;
  confidence: string;
  settled?: boolean | null;
  result?: string | null;
  settlementWrites?: number | null;
  settledVersion?: number | null;
  settlementError?: unknown;
}

export type RowWriter = 'insert' | 'settlement';

export function rowOf(doc: RowSource, writer: RowWriter): RecommendationRow {
  const writes = doc.settlementWrites ?? 0;
  return {
    c: doc.createdAt ? doc.createdAt.getTime() : 0,
    e: doc.eventId,
    f: doc.confidence,
    s: doc.settled ? 1 : 0,
    r: doc.settled ? (doc.result ?? null) : null,
    o: 2 * writes + (writer === 'settlement' ? 1 : 0),
    v: `${doc.settledVersion ?? ''}${doc.settlementError ? 'e' : ''}`,
  };
}

/** Whether `next` replaces what the model holds (see RecommendationRow.o). */
export const supersedes = (next: RecommendationRow, current: RecommendationRow | undefined): boolean => !current || next.o >= current.o;

/** The list's filters (each optional, all of them apply). */
export interface RowFilter {
  settled?: boolean;
  result?: string;
  eventId?: string;
  confidence?: string;
}

export function matches(row: RecommendationRow, f: RowFilter): boolean {
  return (
    (f.settled === undefined || row.s === (f.settled ? 1 : 0)) &&
    (f.result === undefined || row.r === f.result) &&
    (f.eventId === undefined || row.e === f.eventId) &&
    (f.confidence === undefined || row.f === f.confidence)
  );
}

/** The list's order: newest first, then by id (as the store's sort createdAt -1, _id 1). */
export function newestFirst(a: [string, RecommendationRow], b: [string, RecommendationRow]): number {
  return b[1].c - a[1].c || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/** Where `entry` goes in `sorted` (newest first) to keep it sorted: a binary search. */
export function insertionIndex(sorted: readonly [string, RecommendationRow][], entry: [string, RecommendationRow]): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newestFirst(sorted[mid], entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ids of page `page` (from 1) of `limit` of the rows matching `f`, and how many match. */
export function pageOf(sorted: readonly [string, RecommendationRow][], f: RowFilter, page: number, limit: number): { ids: string[]; count: number } {
  const from = (page - 1) * limit;
  const ids: string[] = [];
  let count = 0;
  for (const entry of sorted) {
    if (!matches(entry[1], f)) continue;
    if (count >= from && ids.length < limit) ids.push(entry[0]);
    count++;
  }
  return { ids, count };
}
