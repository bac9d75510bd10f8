import type { ResultDetail, SettlementResult } from './results';

/** The settlement fields a correction can change. */
export interface SettledOutcome {
  result: SettlementResult;
  resultDetail: ResultDetail;
  returnPerUnit: number;
}

/**
 * A settled bet's outcome as read back from its document, which does not guarantee the fields:
 * one found missing is recorded as null in the correction's previous* fields.
 */
export interface RecordedOutcome {
  result: SettlementResult | null;
  resultDetail: ResultDetail | null;
  returnPerUnit: number;
}

/**
 * One entry of a bet's correction history. The previous* fields are what the bet said before;
 * the new* fields are what it says after (null when a regrade finds the bet may not be settled
 * at all, e.g. the event turned out never to have started), so the history reads on its own.
 */
export interface CorrectionEntry {
  previousResult: SettlementResult | null;
  previousResultDetail: ResultDetail | null;
  previousReturnPerUnit: number;
  newResult: SettlementResult | null;
  newResultDetail: ResultDetail | null;
  newReturnPerUnit: number | null;
  correctedAt: string;
  reason: string;
}

export type CorrectionDecision = { changed: false } | { changed: true; entry: CorrectionEntry };

// Returns are products and quotients of odds: compare them as money, not as bit patterns.
const MONEY_EPSILON = 1e-9;

export function sameOutcome(a: RecordedOutcome, b: SettledOutcome): boolean {
  return a.result === b.result && a.resultDetail === b.resultDetail && Math.abs(a.returnPerUnit - b.returnPerUnit) <= MONEY_EPSILON;
}

/**
 * Decides whether a regrade (a stats correction from the provider, a manual review) changes an
 * already-settled bet. Re-running settlement on unchanged data yields { changed: false }, which is
 * what keeps retries and duplicate jobs from writing spurious history.
 */
export function decideCorrection(previous: RecordedOutcome, next: SettledOutcome | null, correctedAt: Date | string, reason: string): CorrectionDecision {
  if (next !== null && sameOutcome(previous, next)) return { changed: false };
  const at = typeof correctedAt === 'string' ? new Date(correctedAt) : correctedAt;
  if (Number.isNaN(at.getTime())) throw new RangeError(`correctedAt is not a valid date: ${String(correctedAt)}`);
  return {
    changed: true,
    entry: {
      previousResult: previous.result,
      previousResultDetail: previous.resultDetail,
      previousReturnPerUnit: previous.returnPerUnit,
      newResult: next?.result ?? null,
      newResultDetail: next?.resultDetail ?? null,
      newReturnPerUnit: next?.returnPerUnit ?? null,
      correctedAt: at.toISOString(),
      reason,
    },
  };
}
