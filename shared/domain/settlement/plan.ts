import {
  decideCorrection,
  gradePick,
  gradeSelection,
  isGradingError,
  type CorrectionEntry,
  type ParlayGrade,
  type RecordedOutcome,
  type ResultDetail,
  type SelectionGrade,
  type SettlementResult,
} from '../grading';
import type { ClosingLine } from '../ingest/closing';
import type { EventStats } from '../stats';
import { closingValue } from './clv';
import type { SettlementState } from './state';

/**
 * What settlement does to one bet, decided from the bet as read and the event's final data
 * (pure). Each decision becomes one conditional update whose filter is the bet's state as read
 * (settled, settledVersion / legsState): if anything changed it in between (a retry, a duplicate
 * job, another worker), the update matches nothing and the caller re-reads instead of writing a
 * transition twice.
 */

/** The fields of a stored recommendation that settlement reads. */
export interface RecommendationRead {
  _id: string;
  betItemId?: string | null;
  betTypeSysname: string;
  code: string;
  line?: number | null;
  odds: number;
  settled: boolean;
  result?: SettlementResult | null;
  resultDetail?: ResultDetail | null;
  returnPerUnit?: number | null;
  settledVersion?: number | null;
  settlementError?: { code?: string | null; resultVersion?: number | null } | null;
}

export interface GradingContext {
  state: SettlementState;
  stats: EventStats;
  /** The event's resultVersion the grading is of. */
  version: number;
  now: Date;
  /** The event's closing line (null when it was never captured): the settled bet's closingOdds and clv. */
  closing?: ClosingLine | null;
}

export type RecommendationDecision =
  | { kind: 'settle'; grade: SelectionGrade }
  | { kind: 'correct'; grade: SelectionGrade | null; entry: CorrectionEntry }
  /** Settled at an older version and the regrade agrees: only the version moves. */
  | { kind: 'confirm' }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'none'; why: 'up-to-date' | 'not-started' | 'not-ended' | 'error-recorded' };

/**
 * A settlement result to write, applied only while the document is still as it was read
 * (`expect`, beside its id): the repository turns it into a conditional update.
 */
export interface ResultWrite {
  id: string;
  expect: Record<string, unknown>;
  set: Record<string, unknown>;
  /** Appended to the document's corrections (a result corrected). */
  correction?: Record<string, unknown>;
  /** Raises the document's count of result writes (the exactly-once audit). */
  counted?: true;
}

/** What a settled bet says it settled as (a correction's previous* fields). */
function recordedOutcome(r: { result?: SettlementResult | null; resultDetail?: ResultDetail | null; returnPerUnit?: number | null }): RecordedOutcome {
  return { result: r.result ?? null, resultDetail: r.resultDetail ?? null, returnPerUnit: r.returnPerUnit ?? 0 };
}

export function decideRecommendation(rec: RecommendationRead, ctx: GradingContext): RecommendationDecision {
  if (ctx.state.kind === 'pending') return { kind: 'none', why: 'not-ended' };
  const version = rec.settledVersion ?? -1;
  if (rec.settled && version >= ctx.version) return { kind: 'none', why: 'up-to-date' };
  let grade: SelectionGrade | null;
  try {
    grade = gradeSelection({
      betTypeSysname: rec.betTypeSysname,
      code: rec.code,
      line: rec.line ?? null,
      odds: rec.odds,
      stats: ctx.stats,
      endState: ctx.state.kind === 'ended' ? ctx.state.endState : 'completed',
      started: ctx.state.kind === 'ended',
    });
  } catch (err) {
    if (!isGradingError(err)) throw err;
    const recorded = rec.settlementError;
    if (recorded && recorded.code === err.code && recorded.resultVersion === ctx.version) return { kind: 'none', why: 'error-recorded' };
    return { kind: 'error', code: err.code, message: err.message };
  }
  if (!rec.settled) return grade ? { kind: 'settle', grade } : { kind: 'none', why: 'not-started' };
  const decision = decideCorrection(recordedOutcome(rec), grade, ctx.now, correctionReason(ctx.version));
  return decision.changed ? { kind: 'correct', grade, entry: decision.entry } : { kind: 'confirm' };
}

export function correctionReason(version: number): string {
  return `event result corrected (resultVersion ${version})`;
}

function gradeFields(g: SelectionGrade) {
  return {
    settled: true,
    result: g.result,
    resultDetail: g.resultDetail,
    returnPerUnit: g.returnPerUnit,
    actualReturn: g.actualReturn,
    reasonCode: g.reasonCode,
    reason: g.reason,
    settlementError: null,
  };
}

const UNSETTLED_FIELDS = {
  settled: false,
  result: null,
  resultDetail: null,
  returnPerUnit: null,
  actualReturn: null,
  settlementDate: null,
  reasonCode: null,
  reason: 'event did not start: bet void, not settled',
};

/** The conditional write for a decision, or null when nothing is written. */
export function recommendationUpdate(rec: RecommendationRead, d: RecommendationDecision, ctx: GradingContext): ResultWrite | null {
  const at = { id: rec._id, expect: { settled: rec.settled, settledVersion: rec.settledVersion ?? null } };
  switch (d.kind) {
    case 'none':
      return null;
    case 'settle':
      return { ...at, set: { ...gradeFields(d.grade), ...closingValue(rec, ctx.closing), settlementDate: ctx.now, settledVersion: ctx.version }, counted: true };
    case 'confirm':
      return { ...at, set: { settledVersion: ctx.version, settlementError: null } };
    case 'correct':
      // settlementDate keeps the first settlement; the history entry carries when it was corrected.
      return {
        ...at,
        set: { ...(d.grade ? gradeFields(d.grade) : UNSETTLED_FIELDS), settledVersion: ctx.version },
        correction: { ...d.entry, correctedAt: ctx.now, resultVersion: ctx.version },
        counted: true,
      };
    case 'error':
      return { ...at, set: { settlementError: { code: d.code, message: d.message, resultVersion: ctx.version, at: ctx.now } } };
  }
}

// ---------------------------------------------------------------------------------------------
// Picks

export interface PickLegRead extends Record<string, unknown> {
  recommendationId: string;
  eventId: string;
  odds: number;
  result?: string | null;
  resultDetail?: string | null;
  returnPerUnit?: number | null;
}

export interface PickRead {
  _id: string;
  pickType: 'single' | 'parlay';
  legs: PickLegRead[];
  settled: boolean;
  result?: SettlementResult | null;
  resultDetail?: ResultDetail | null;
  returnPerUnit?: number | null;
  settledVersion?: number | null;
  legsState?: string | null;
  settlementError?: { code?: string | null } | null;
}

/** A leg's recommendation as settlement last left it. */
export interface LegRecommendation {
  settled: boolean;
  result?: SettlementResult | null;
  resultDetail?: ResultDetail | null;
  returnPerUnit?: number | null;
}

export interface LegView {
  result: SettlementResult | null;
  resultDetail: ResultDetail | null;
  returnPerUnit: number | null;
}

/**
 * A leg's outcome for its pick: its recommendation's settlement; a leg whose event was cancelled
 * before it started is void (push, stake back), as bookmakers settle parlays; otherwise open.
 */
export function legView(rec: LegRecommendation | undefined, eventCancelledUnplayed: boolean): LegView {
  if (rec?.settled && rec.resultDetail) {
    return { result: rec.result ?? null, resultDetail: rec.resultDetail, returnPerUnit: rec.returnPerUnit ?? null };
  }
  if (eventCancelledUnplayed) return { result: 'push', resultDetail: 'push', returnPerUnit: 1 };
  return { result: null, resultDetail: null, returnPerUnit: null };
}

/** A compact, order-preserving signature of the legs' outcomes: the compare-and-set key of a pick. */
export function legsSignature(legs: readonly { resultDetail?: string | null; returnPerUnit?: number | null }[]): string {
  return legs.map((l) => (l.resultDetail ? `${l.resultDetail}:${l.returnPerUnit ?? ''}` : '-')).join('|');
}

export type PickDecision =
  | { kind: 'settle'; grade: ParlayGrade }
  | { kind: 'correct'; grade: ParlayGrade | null; entry: CorrectionEntry }
  | { kind: 'legs' }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'none' };

export function decidePick(pick: PickRead, legs: readonly LegView[], now: Date, reason: string): PickDecision {
  let grade: ParlayGrade | null;
  try {
    grade = gradePick(
      pick.pickType,
      legs.map((l, i) => ({ odds: pick.legs[i].odds, resultDetail: l.resultDetail })),
    );
  } catch (err) {
    if (!isGradingError(err)) throw err;
    return pick.settlementError?.code === err.code ? { kind: 'none' } : { kind: 'error', code: err.code, message: err.message };
  }
  const legsChanged = legsSignature(legs) !== (pick.legsState ?? legsSignature(pick.legs));
  if (!pick.settled) {
    if (grade) return { kind: 'settle', grade };
    return legsChanged ? { kind: 'legs' } : { kind: 'none' };
  }
  const decision = decideCorrection(recordedOutcome(pick), grade, now, reason);
  if (decision.changed) return { kind: 'correct', grade, entry: decision.entry };
  return legsChanged ? { kind: 'legs' } : { kind: 'none' };
}

function pickGradeFields(g: ParlayGrade) {
  return gradeFields({ ...g, reasonCode: 'graded', reason: `${g.result} by the parlay rule (${g.resultDetail})` });
}

export function pickUpdate(pick: PickRead, legs: readonly LegView[], d: PickDecision, now: Date, version: number): ResultWrite | null {
  if (d.kind === 'none') return null;
  const at = { id: pick._id, expect: { settled: pick.settled, legsState: pick.legsState ?? null } };
  // The whole legs array is rewritten (portable: no positional paths), guarded by legsState.
  const legFields = { legsState: legsSignature(legs), legs: pick.legs.map((leg, i) => ({ ...leg, ...legs[i] })) };
  switch (d.kind) {
    case 'legs':
      return { ...at, set: legFields };
    case 'settle':
      return { ...at, set: { ...legFields, ...pickGradeFields(d.grade), settlementDate: now, settledVersion: version }, counted: true };
    case 'correct':
      return {
        ...at,
        set: { ...legFields, ...(d.grade ? pickGradeFields(d.grade) : { ...UNSETTLED_FIELDS, reason: 'a leg was unsettled by a result correction' }), settledVersion: version },
        correction: { ...d.entry, correctedAt: now, resultVersion: version },
        counted: true,
      };
    case 'error':
      return { ...at, set: { settlementError: { code: d.code, message: d.message, resultVersion: version, at: now } } };
  }
}
