import { GradingError } from './errors';

/** The contract's three settlement results. */
export type SettlementResult = 'won' | 'lost' | 'push';

/**
 * What actually happened to the stake. Quarter lines (x.25, x.75) split the stake in two, so one
 * half can win or lose while the other is refunded. The contract only knows three results, so
 * half_won is reported as result 'won' and half_lost as 'lost' (the bettor ended up ahead /
 * behind); the exact money is carried by returnPerUnit.
 */
export type ResultDetail = SettlementResult | 'half_won' | 'half_lost';

export function resultOf(detail: ResultDetail): SettlementResult {
  if (detail === 'half_won') return 'won';
  if (detail === 'half_lost') return 'lost';
  return detail;
}

export function assertOdds(odds: number): void {
  if (!Number.isFinite(odds) || odds < 1) {
    throw new GradingError('INVALID_ODDS', `decimal odds must be a finite number >= 1, got ${odds}`);
  }
}

/** Money back per 1 unit staked, stake included: the figure ROI is computed from. */
export function returnPerUnit(detail: ResultDetail, odds: number): number {
  assertOdds(odds);
  switch (detail) {
    case 'won':
      return odds;
    case 'lost':
      return 0;
    case 'push':
      return 1;
    case 'half_won':
      return (odds + 1) / 2;
    case 'half_lost':
      return 0.5;
  }
}

/**
 * The contract's actualReturn, kept literally: won = the odds value, lost = 0, push = 0 (the stake is
 * refunded, nothing is returned on top). It follows the three-value result, so a half_won bet
 * reports the full odds here; use returnPerUnit for money.
 */
export function actualReturn(result: SettlementResult, odds: number): number {
  assertOdds(odds);
  return result === 'won' ? odds : 0;
}
