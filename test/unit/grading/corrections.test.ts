import { expect } from 'chai';
import { decideCorrection, type SettledOutcome } from '../../../shared/domain/grading/corrections';
import { gradeSelection } from '../../../shared/domain/grading/grade';
import { sel, stats } from './helpers';

const o = (result: SettledOutcome['result'], resultDetail: SettledOutcome['resultDetail'], returnPerUnit: number): SettledOutcome => ({
  result,
  resultDetail,
  returnPerUnit,
});

describe('decideCorrection', () => {
  const rows: [string, SettledOutcome, SettledOutcome | null, boolean][] = [
    ['identical regrade', o('won', 'won', 2), o('won', 'won', 2), false],
    ['float noise in the return only', o('won', 'half_won', 1.45), o('won', 'half_won', 1.45 + 1e-13), false],
    ['won -> lost', o('won', 'won', 2), o('lost', 'lost', 0), true],
    ['same result, different detail', o('won', 'won', 1.9), o('won', 'half_won', 1.45), true],
    ['push -> won', o('push', 'push', 1), o('won', 'won', 1.9), true],
    ['same detail, different return (odds corrected)', o('won', 'won', 1.9), o('won', 'won', 1.95), true],
    ['regrade says it may not be settled', o('lost', 'lost', 0), null, true],
  ];
  for (const [name, prev, next, changed] of rows) {
    it(`${name} -> ${changed ? 'changed' : 'unchanged'}`, () => {
      const d = decideCorrection(prev, next, '2024-05-01T10:00:00Z', name);
      expect(d.changed).to.equal(changed);
      if (d.changed) {
        expect(d.entry).to.deep.equal({
          previousResult: prev.result,
          previousResultDetail: prev.resultDetail,
          previousReturnPerUnit: prev.returnPerUnit,
          newResult: next?.result ?? null,
          newResultDetail: next?.resultDetail ?? null,
          newReturnPerUnit: next?.returnPerUnit ?? null,
          correctedAt: '2024-05-01T10:00:00.000Z',
          reason: name,
        });
      }
    });
  }

  it('a provider score correction (1-1 -> 2-1) regrades an over 2.5 from lost to won', () => {
    const before = gradeSelection(sel('SOCCER_UNDER_OVER', 'O', 2.5, stats('1-1'), 'completed', true, 1.9))!;
    const after = gradeSelection(sel('SOCCER_UNDER_OVER', 'O', 2.5, stats('2-1'), 'completed', true, 1.9))!;
    const d = decideCorrection(before, after, new Date('2024-05-02T00:00:00Z'), 'provider corrected the score');
    expect(d).to.deep.include({ changed: true });
    if (d.changed) expect([d.entry.previousResult, d.entry.newResult, d.entry.previousReturnPerUnit, d.entry.newReturnPerUnit]).to.deep.equal(['lost', 'won', 0, 1.9]);
  });

  it('rejects an invalid correction date', () => {
    expect(() => decideCorrection(o('won', 'won', 2), o('lost', 'lost', 0), 'not a date', 'x')).to.throw(RangeError);
  });
});
