import { GradingError } from './errors';
import type { ResultDetail } from './results';

/** Outcome of one part of the stake against one whole or half line. */
export type PartOutcome = 'won' | 'lost' | 'push';

/** Lines are quoted in quarters; anything else is a feed or model bug, not a bet to guess at. */
export function assertLine(line: number | null | undefined, what: string): number {
  if (line === null || line === undefined) throw new GradingError('MISSING_LINE', `${what} needs a line`);
  if (!Number.isFinite(line) || !Number.isInteger(line * 4)) {
    throw new GradingError('INVALID_LINE', `${what}: line ${line} is not a multiple of 0.25`);
  }
  return line;
}

export function isQuarterLine(line: number): boolean {
  return !Number.isInteger(line * 2);
}

/**
 * The lines the stake is placed on: one for whole and half lines, the two neighbouring half
 * lines for quarter lines (2.25 -> 2.0 and 2.5; -0.75 -> -0.5 and -1.0).
 */
export function splitLine(line: number): number[] {
  return isQuarterLine(line) ? [line - 0.25, line + 0.25] : [line];
}

/** margin > 0 wins the part, < 0 loses it, 0 (exact line, handicap tie) refunds it. */
export function partOutcome(margin: number): PartOutcome {
  if (margin > 0) return 'won';
  if (margin < 0) return 'lost';
  return 'push';
}

/**
 * Combines the parts of a split stake. With integer counts the two neighbouring lines of a
 * quarter line are 0.5 apart, so at most one of them can be exact and the parts can never
 * be one won and one lost.
 */
export function combineParts(parts: PartOutcome[]): ResultDetail {
  if (parts.length === 1) return parts[0];
  const [a, b] = parts;
  if (a === b) return a;
  if (a === 'push' || b === 'push') return a === 'won' || b === 'won' ? 'half_won' : 'half_lost';
  throw new GradingError('INVALID_STATS', 'a quarter line cannot both win and lose: counts must be integers');
}

/** Grades a line market from the selection's side: margin(line) is positive when that line wins. */
export function gradeLine(line: number, margin: (partLine: number) => number): ResultDetail {
  return combineParts(splitLine(line).map((l) => partOutcome(margin(l))));
}
