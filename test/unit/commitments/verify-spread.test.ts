import { expect } from 'chai';
import { spread } from '../../../shared/app/commitments/verifyRemote';

describe('verify-record picks the proofs it fetches spread over the chain', () => {
  const xs = Array.from({ length: 10 }, (_, i) => i);
  const rows: [number, number[]][] = [
    [0, []],
    [1, [9]],
    [2, [0, 9]],
    [3, [0, 5, 9]],
    [4, [0, 3, 6, 9]],
    [10, xs],
    [20, xs],
  ];
  for (const [n, want] of rows) it(`${n} of 10 -> ${JSON.stringify(want)} (oldest and newest included)`, () => expect(spread(xs, n)).to.deep.equal(want));
  it('edge: nothing to spread', () => expect(spread([], 3)).to.deep.equal([]));
});
