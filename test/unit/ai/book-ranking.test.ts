import { expect } from 'chai';
import { rankBookmakers, type RankingEvent } from '../../../shared/domain/ai/bookRanking';
import type { AnalysisMarket } from '../../../shared/domain/ai/analysis/types';

/** A match-result market quoted by books at given prices (outcome order 1, X, 2). */
function market(books: Record<string, [number, number, number]>, available = true): AnalysisMarket {
  return {
    id: 'm',
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    line: null,
    betItems: ['1', 'X', '2'].map((code, i) => ({ id: `m-${code}`, code, price: 2, isAvailable: available, bookPrices: Object.fromEntries(Object.entries(books).map(([b, p]) => [b, p[i]])) })),
  };
}
// Margins: sharp 1/2 + 1/4 + 1/4 = 1.00 (none), soft 1/1.9 + 1/3.8 + 1/3.8 = 1.0526.
const PRICES = { sharp: [2, 4, 4], soft: [1.9, 3.8, 3.8] } as Record<string, [number, number, number]>;
const upcoming: RankingEvent = { dataSource: 'sharp', markets: [market(PRICES)], closing: null };
const ended: RankingEvent = { dataSource: 'sharp', markets: [market(PRICES, false)], closing: [market(PRICES)] };
const endedWithoutClose: RankingEvent = { dataSource: 'sharp', markets: [market(PRICES, false)], closing: null };

describe('bookmakers ranked by median margin over recent events (pure)', () => {
  const rows: [string, RankingEvent[], string[]][] = [
    ['events still quoted count by their markets', [upcoming, upcoming], ['sharp', 'soft']],
    ['events past kickoff count by their closing line (their markets are suspended)', [ended, ended], ['sharp', 'soft']],
    ['one of each is two markets per book', [upcoming, ended], ['sharp', 'soft']],
    ['suspended markets without a closing line count for nothing', [endedWithoutClose, endedWithoutClose, upcoming], []],
    ['fewer markets than the minimum: no ranking', [upcoming], []],
  ];
  for (const [name, events, ranking] of rows) it(name, () => expect(rankBookmakers(events, 2).bookRanking).to.deep.equal(ranking));
  it('the margins are the median overround minus one per book', () => {
    const { bookMargins } = rankBookmakers([upcoming, ended], 2);
    expect(bookMargins.sharp).to.be.closeTo(0, 1e-9);
    expect(bookMargins.soft).to.be.closeTo(0.0526316, 1e-6);
  });
});
