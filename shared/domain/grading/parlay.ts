import { GradingError } from './errors';
import { assertOdds, resultOf, returnPerUnit, type ResultDetail, type SettlementResult } from './results';

/** One leg: the odds it was taken at and its grade's detail, null while it is unsettled. */
export interface ParlayLeg {
  odds: number;
  resultDetail: ResultDetail | null;
}

type SettledLeg = ParlayLeg & { resultDetail: ResultDetail };

export interface ParlayGrade {
  result: SettlementResult;
  /**
   * 'lost' when some leg lost outright; 'half_lost' when the parlay counts as lost only through
   * half-lost legs (money still comes back); 'push' when refunded legs decide it; 'half_won' when
   * it counts as won but some leg won only half; 'won' when every leg won in full.
   */
  resultDetail: ResultDetail;
  /** Product of the legs' returnPerUnit: the bookmaker's money for a 1-unit parlay. */
  returnPerUnit: number;
  /** The contract's actualReturn: totalOdds when won, else 0. */
  actualReturn: number;
  /** The contract's totalOdds: product of all legs' odds. */
  totalOdds: number;
}

/**
 * The contract's parlay rule over the legs' three-value results (half_won counts as won, half_lost as
 * lost): any lost -> lost; else any push -> push; else won. The money follows the bookmaker
 * convention instead: each leg contributes its returnPerUnit (won = odds, half_won = (odds+1)/2,
 * push = 1, half_lost = 0.5, lost = 0) and the parlay returns their product. So a parlay can be
 * 'lost' yet return money (a half-lost leg), or 'push' yet return more than the stake
 * (push + half_won legs); ROI uses returnPerUnit, the contract's result fields use the rule.
 *
 * A leg without resultDetail has not settled yet (its event has not finished or never started). The parlay then
 * waits (null), unless a leg already lost outright: nothing can change a zero return.
 * A single pick is a parlay of one leg and settles exactly as it.
 */
export function gradeParlay(legs: readonly ParlayLeg[]): ParlayGrade | null {
  if (legs.length === 0) throw new GradingError('EMPTY_PARLAY', 'a pick needs at least one leg');
  for (const leg of legs) assertOdds(leg.odds);
  const totalOdds = legs.reduce((p, l) => p * l.odds, 1);
  const settled = legs.filter((l): l is SettledLeg => l.resultDetail !== null);
  const anyFullLoss = settled.some((l) => l.resultDetail === 'lost');
  if (settled.length < legs.length) {
    if (!anyFullLoss) return null;
    return { result: 'lost', resultDetail: 'lost', returnPerUnit: 0, actualReturn: 0, totalOdds };
  }
  const results = settled.map((l) => resultOf(l.resultDetail));
  const result: SettlementResult = results.includes('lost') ? 'lost' : results.includes('push') ? 'push' : 'won';
  const rpu = settled.reduce((p, l) => p * returnPerUnit(l.resultDetail, l.odds), 1);
  let resultDetail: ResultDetail = result;
  if (result === 'lost' && !anyFullLoss) resultDetail = 'half_lost';
  if (result === 'won' && settled.some((l) => l.resultDetail === 'half_won')) resultDetail = 'half_won';
  return { result, resultDetail, returnPerUnit: rpu, actualReturn: result === 'won' ? totalOdds : 0, totalOdds };
}

/** The contract: a single pick settles exactly as its one recommendation. */
export function gradePick(pickType: 'single' | 'parlay', legs: readonly ParlayLeg[]): ParlayGrade | null {
  if (pickType === 'single' && legs.length !== 1) {
    throw new GradingError('EMPTY_PARLAY', `a single pick has exactly one leg, got ${legs.length}`);
  }
  return gradeParlay(legs);
}
