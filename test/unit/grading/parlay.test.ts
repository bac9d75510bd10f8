import { expect } from 'chai';
import { GradingError } from '../../../shared/domain/grading/errors';
import { gradeSelection } from '../../../shared/domain/grading/grade';
import { gradeParlay, gradePick, type ParlayLeg } from '../../../shared/domain/grading/parlay';
import type { ResultDetail } from '../../../shared/domain/grading/results';
import { sel, stats } from './helpers';

const leg = (resultDetail: ResultDetail | null, odds = 2): ParlayLeg => ({ resultDetail, odds });

describe("gradeParlay: the contract's parlay rule and the bookmaker's money", () => {
  // legs, expected result, expected detail, expected returnPerUnit
  const rows: [ParlayLeg[], string, string, number][] = [
    [[leg('won'), leg('won', 3)], 'won', 'won', 6],
    [[leg('won'), leg('lost')], 'lost', 'lost', 0],
    [[leg('lost'), leg('push')], 'lost', 'lost', 0], // lost beats push
    [[leg('won'), leg('push', 3)], 'push', 'push', 2], // refunded leg counts as odds 1
    [[leg('push'), leg('push')], 'push', 'push', 1],
    [[leg('won', 2), leg('half_won', 3)], 'won', 'half_won', 2 * 2],
    [[leg('won', 2), leg('half_lost', 3)], 'lost', 'half_lost', 2 * 0.5],
    [[leg('half_lost', 2), leg('push', 3)], 'lost', 'half_lost', 0.5], // half_lost maps to lost, before push
    [[leg('half_won', 1.8), leg('push')], 'push', 'push', 1.4],
    [[leg('half_lost'), leg('lost')], 'lost', 'lost', 0],
    [[leg('won', 1.5)], 'won', 'won', 1.5],
  ];
  for (const [legs, result, detail, rpu] of rows) {
    it(`${legs.map((l) => `${l.resultDetail}@${l.odds}`).join(' + ')} -> ${result} (${detail}), return/unit ${rpu}`, () => {
      const g = gradeParlay(legs)!;
      expect(g.result).to.equal(result);
      expect(g.resultDetail).to.equal(detail);
      expect(g.returnPerUnit).to.be.closeTo(rpu, 1e-12);
      const totalOdds = legs.reduce((p, l) => p * l.odds, 1);
      expect(g.totalOdds).to.be.closeTo(totalOdds, 1e-12);
      expect(g.actualReturn).to.equal(result === 'won' ? g.totalOdds : 0);
    });
  }

  it('waits while a leg is unsettled', () => {
    expect(gradeParlay([leg('won'), leg(null)])).to.equal(null);
    expect(gradeParlay([leg('half_lost'), leg(null)])).to.equal(null); // money still depends on the open leg
  });

  it('settles lost at once when a leg lost outright, even with open legs', () => {
    expect(gradeParlay([leg('lost'), leg(null, 3)])).to.deep.equal({ result: 'lost', resultDetail: 'lost', returnPerUnit: 0, actualReturn: 0, totalOdds: 6 });
  });

  it('rejects an empty parlay and a single pick with several legs', () => {
    expect(() => gradeParlay([])).to.throw(GradingError);
    expect(() => gradePick('single', [leg('won'), leg('won')])).to.throw(GradingError);
  });
});

describe('gradePick: a single pick settles exactly as its one recommendation', () => {
  const cases: [string, string, number | null, string, number][] = [
    ['SOCCER_MATCH_RESULT', '1', null, '2-0', 2.1],
    ['SOCCER_MATCH_RESULT', 'X', null, '2-0', 3.4],
    ['SOCCER_UNDER_OVER', 'O', 3, '2-1', 1.9],
    ['SOCCER_ASIAN_HANDICAP', '1', -0.75, '1-0', 1.95],
    ['SOCCER_ASIAN_HANDICAP', '2', -0.75, '1-0', 1.95],
  ];
  for (const [m, code, line, score, odds] of cases) {
    it(`${m} ${code} ${line ?? ''} on ${score}`, () => {
      const g = gradeSelection(sel(m, code, line, stats(score), 'completed', true, odds))!;
      const p = gradePick('single', [{ odds, resultDetail: g.resultDetail }])!;
      expect({ result: p.result, resultDetail: p.resultDetail, returnPerUnit: p.returnPerUnit, actualReturn: p.actualReturn }).to.deep.equal({
        result: g.result,
        resultDetail: g.resultDetail,
        returnPerUnit: g.returnPerUnit,
        actualReturn: g.actualReturn,
      });
    });
  }
});
