import { marketType, OUTCOME_CODES, type MarketType } from '../markets/catalog';
import type { EndState, EventStats } from '../stats';
import { GradingError } from './errors';
import { assertLine, gradeLine, partOutcome } from './lines';
import { actualReturn, assertOdds, resultOf, returnPerUnit, type ResultDetail, type SettlementResult } from './results';

export interface SelectionToGrade {
  betTypeSysname: string;
  code: string;
  /** Required for total and handicap markets; ignored by the others (feeds send 0 or null there). */
  line?: number | null;
  odds: number;
  stats: EventStats;
  endState: EndState;
  /** Whether the event ever kicked off: a never-started event settles nothing. */
  started: boolean;
}

/** Why a selection settled the way it did; the worker stores it next to the result. */
export type SettlementReason = 'graded' | 'void_abandoned' | 'void_postponed' | 'missing_score' | 'missing_corners' | 'missing_cards' | 'missing_first_half';

type RefundReason = Exclude<SettlementReason, 'graded'>;

export interface SelectionGrade {
  result: SettlementResult;
  resultDetail: ResultDetail;
  returnPerUnit: number;
  actualReturn: number;
  reasonCode: SettlementReason;
  reason: string;
}

interface Pair {
  home: number;
  away: number;
}

const VALID_CODES = OUTCOME_CODES;

/** Resolves and validates the bet itself; throws GradingError, whatever the event did. */
function resolveMarket(sel: SelectionToGrade): { type: MarketType; line: number } {
  const type = marketType(sel.betTypeSysname);
  if (!type) throw new GradingError('UNKNOWN_MARKET', `unknown market type ${sel.betTypeSysname}`);
  if (!VALID_CODES[type.kind].includes(sel.code)) {
    throw new GradingError('UNKNOWN_CODE', `code ${sel.code} is not an outcome of ${type.sysname}`);
  }
  const line = type.kind === 'total' || type.kind === 'handicap' ? assertLine(sel.line, type.sysname) : 0;
  assertOdds(sel.odds);
  return { type, line };
}

function count(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new GradingError('INVALID_STATS', `${field} must be a non-negative integer, got ${value}`);
  }
  return value;
}

function sumOrNull(values: (number | null)[], field: string): number | null {
  let total = 0;
  for (const v of values) {
    if (v === null) return null;
    total += count(v, field);
  }
  return total;
}

/** The pair of counts the market is decided on, or the reason it is missing. */
function readStat(type: MarketType, s: EventStats): Pair | RefundReason {
  if (s.homeGoals === null || s.awayGoals === null) return 'missing_score';
  if (type.period === '1H') {
    if (s.homeGoalsFirstHalf === null || s.awayGoalsFirstHalf === null) return 'missing_first_half';
    return { home: count(s.homeGoalsFirstHalf, 'homeGoalsFirstHalf'), away: count(s.awayGoalsFirstHalf, 'awayGoalsFirstHalf') };
  }
  if (type.stat === 'corners') {
    if (s.homeCorners === null || s.awayCorners === null) return 'missing_corners';
    return { home: count(s.homeCorners, 'homeCorners'), away: count(s.awayCorners, 'awayCorners') };
  }
  if (type.stat === 'cards') {
    // A missing red-card count is as unknown as a missing yellow one: cards = yellow + red.
    const home = sumOrNull([s.homeYellowCards, s.homeRedCards], 'home cards');
    const away = sumOrNull([s.awayYellowCards, s.awayRedCards], 'away cards');
    if (home === null || away === null) return 'missing_cards';
    return { home, away };
  }
  return { home: count(s.homeGoals, 'homeGoals'), away: count(s.awayGoals, 'awayGoals') };
}

function decide(type: MarketType, code: string, line: number, p: Pair): ResultDetail {
  const { home, away } = p;
  switch (type.kind) {
    case 'result3': {
      const actual = home > away ? '1' : home < away ? '2' : 'X';
      return actual === code ? 'won' : 'lost';
    }
    case 'winner2':
      // A level score in a two-way market (an NFL tie, a curtailed game) has no winner: refund.
      return partOutcome(code === '1' ? home - away : away - home);
    case 'total':
      return gradeLine(line, (l) => (code === 'O' ? home + away - l : l - (home + away)));
    case 'handicap':
      return gradeLine(line, (l) => (code === '1' ? home + l - away : away - l - home));
    case 'btts':
      return (home > 0 && away > 0) === (code === 'Y') ? 'won' : 'lost';
    case 'doubleChance': {
      const covered = code === '1X' ? home >= away : code === 'X2' ? away >= home : home !== away;
      return covered ? 'won' : 'lost';
    }
  }
}

const REASON_TEXT: Record<RefundReason, string> = {
  void_abandoned: 'event abandoned (void flag): stake refunded',
  void_postponed: 'event postponed after it started: stake refunded',
  missing_score: 'final score missing: every bet of the event is refunded',
  missing_corners: 'corner counts missing: corner markets refunded',
  missing_cards: 'card counts missing: card markets refunded',
  missing_first_half: 'first-half score missing: first-half markets refunded',
};

function pushed(odds: number, reasonCode: RefundReason): SelectionGrade {
  return {
    result: 'push',
    resultDetail: 'push',
    returnPerUnit: returnPerUnit('push', odds),
    actualReturn: actualReturn('push', odds),
    reasonCode,
    reason: REASON_TEXT[reasonCode],
  };
}

/**
 * Grades one selection under the contract's settlement table. Returns null when nothing may be
 * settled (the event never started). Throws GradingError when the bet itself is invalid,
 * even for an event that never started, so bad bets surface instead of lingering.
 */
export function gradeSelection(sel: SelectionToGrade): SelectionGrade | null {
  const { type, line } = resolveMarket(sel);
  if (!sel.started) return null;
  if (sel.endState === 'abandoned') return pushed(sel.odds, 'void_abandoned');
  if (sel.endState === 'postponed') return pushed(sel.odds, 'void_postponed');
  const pair = readStat(type, sel.stats);
  if (typeof pair === 'string') return pushed(sel.odds, pair);
  const detail = decide(type, sel.code, line, pair);
  const result = resultOf(detail);
  return {
    result,
    resultDetail: detail,
    returnPerUnit: returnPerUnit(detail, sel.odds),
    actualReturn: actualReturn(result, sel.odds),
    reasonCode: 'graded',
    reason: `${type.sysname} ${sel.code}${type.kind === 'total' || type.kind === 'handicap' ? ` @${line}` : ''}: ${detail} on ${pair.home}-${pair.away}${type.period === '1H' ? ' (1H)' : ''}${type.stat !== 'score' ? ` ${type.stat}` : ''}`,
  };
}
