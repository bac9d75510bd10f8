import { expect } from 'chai';
import { dcScoreGrid } from '../../../shared/domain/ai/dixonColes';
import { countGrid, firstHalfGrid, priceMarket, priceOutcome, settleOnScore, type PricingInputs } from '../../../shared/domain/ai/pricing';
import { overProbability, resultProbabilities } from '../../../shared/domain/ai/scoreGrid';
import { MARKET_TYPES } from '../../../shared/domain/markets/catalog';

const grid = dcScoreGrid(1.6, 1.1, -0.07);
const soccer: PricingInputs = {
  sportId: 1,
  fullTime: grid,
  firstHalf: firstHalfGrid(1.6, 1.1),
  corners: { home: 5.8, away: 4.6, dispersion: 20 },
  cards: { home: 1.9, away: 2.1, dispersion: 8 },
};
const cell = (h: number, a: number) => grid.p[h]?.[a] ?? 0;
const sumCells = (pred: (h: number, a: number) => boolean) => {
  let s = 0;
  grid.p.forEach((row, h) => row.forEach((p, a) => (s += pred(h, a) ? p : 0)));
  return s;
};

describe('pricing', () => {
  it('1X2 and double chance agree with the grid', () => {
    const r = resultProbabilities(grid);
    const [h, x, a] = priceMarket(soccer, 'SOCCER_MATCH_RESULT');
    expect(h.probability).to.be.closeTo(r.home, 1e-12);
    expect(x.probability).to.be.closeTo(r.draw, 1e-12);
    expect(a.probability).to.be.closeTo(r.away, 1e-12);
    expect(h.fairOdds).to.be.closeTo(1 / r.home, 1e-9);
    const [dc1x, dc12, dcx2] = priceMarket(soccer, 'SOCCER_DOUBLE_CHANCE');
    expect(dc1x.probability).to.be.closeTo(r.home + r.draw, 1e-12);
    expect(dc12.probability).to.be.closeTo(r.home + r.away, 1e-12);
    expect(dcx2.probability).to.be.closeTo(r.draw + r.away, 1e-12);
  });

  it('BTTS is one minus the mass with a zero', () => {
    const y = priceOutcome(soccer, 'SOCCER_BOTH_TEAMS_TO_SCORE', 'Y');
    expect(y.probability).to.be.closeTo(
      sumCells((h, a) => h > 0 && a > 0),
      1e-12,
    );
  });

  const asian: { line: number; code: string; expect: (h: number, a: number) => [number, number, number, number, number] }[] = [
    // [win, halfWin, push, halfLoss, loss] as a function of the goal difference
    { line: -0.5, code: '1', expect: (h, a) => (h - a >= 1 ? [1, 0, 0, 0, 0] : [0, 0, 0, 0, 1]) },
    { line: 0, code: '1', expect: (h, a) => (h > a ? [1, 0, 0, 0, 0] : h === a ? [0, 0, 1, 0, 0] : [0, 0, 0, 0, 1]) },
    { line: -0.25, code: '1', expect: (h, a) => (h > a ? [1, 0, 0, 0, 0] : h === a ? [0, 0, 0, 1, 0] : [0, 0, 0, 0, 1]) },
    { line: -0.75, code: '1', expect: (h, a) => (h - a >= 2 ? [1, 0, 0, 0, 0] : h - a === 1 ? [0, 1, 0, 0, 0] : [0, 0, 0, 0, 1]) },
    { line: -0.25, code: '2', expect: (h, a) => (a > h ? [1, 0, 0, 0, 0] : h === a ? [0, 1, 0, 0, 0] : [0, 0, 0, 0, 1]) },
    { line: 1.25, code: '2', expect: (h, a) => (a - h >= 2 ? [1, 0, 0, 0, 0] : a - h === 1 ? [0, 0, 0, 1, 0] : [0, 0, 0, 0, 1]) },
  ];
  for (const c of asian) {
    it(`Asian handicap ${c.code} at ${c.line} splits the stake as settlement does`, () => {
      const want = [0, 0, 0, 0, 0];
      grid.p.forEach((row, h) => row.forEach((p, a) => c.expect(h, a).forEach((v, k) => (want[k] += v * p))));
      const d = priceOutcome(soccer, 'SOCCER_ASIAN_HANDICAP', c.code, c.line).distribution;
      [d.win, d.halfWin, d.push, d.halfLoss, d.loss].forEach((v, k) => expect(v).to.be.closeTo(want[k], 1e-12));
    });
  }

  it('totals: half lines match the grid, whole lines push, quarter lines half-win/lose', () => {
    expect(priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'O', 2.5).probability).to.be.closeTo(overProbability(grid, 2.5), 1e-12);
    const w = priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'O', 2).distribution;
    expect(w.push).to.be.closeTo(
      sumCells((h, a) => h + a === 2),
      1e-12,
    );
    const q = priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'U', 2.75).distribution;
    expect(q.halfLoss).to.be.closeTo(
      sumCells((h, a) => h + a === 3),
      1e-12,
    );
    expect(q.win).to.be.closeTo(
      sumCells((h, a) => h + a <= 2),
      1e-12,
    );
  });

  it('over and under at the same line are complementary in fair terms', () => {
    for (const line of [0.5, 1.75, 2, 2.25, 3.5]) {
      const o = priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'O', line).probability;
      const u = priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'U', line).probability;
      expect(o + u, `line ${line}`).to.be.closeTo(1, 1e-12);
    }
  });

  it('first half, corners and cards use their own distributions', () => {
    const fh = priceOutcome(soccer, 'SOCCER_FIRST_HALF_UNDER_OVER', 'O', 0.5).probability;
    expect(fh).to.be.closeTo(1 - Math.exp(-0.45 * 2.7), 0.02);
    const corners = priceOutcome(soccer, 'SOCCER_CORNERS_UNDER_OVER', 'O', 10.5).probability;
    expect(corners).to.be.closeTo(overProbability(countGrid(soccer.corners!), 10.5), 1e-12);
    expect(corners).to.be.within(0.4, 0.6);
    const cards = priceOutcome(soccer, 'SOCCER_CARDS_UNDER_OVER', 'U', 3.5).probability;
    expect(cards).to.be.within(0.35, 0.65);
  });

  it('prices every soccer catalog market and rejects what it cannot price', () => {
    for (const t of MARKET_TYPES.filter((m) => m.sportId === 1)) {
      const priced = priceMarket(soccer, t.sysname, t.kind === 'total' || t.kind === 'handicap' ? 2.5 : null);
      priced.forEach((p) => expect(p.probability).to.be.within(0, 1));
    }
    expect(() => priceOutcome({ sportId: 1, fullTime: grid }, 'SOCCER_CORNERS_UNDER_OVER', 'O', 9.5)).to.throw(/corners/);
    expect(() => priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'O')).to.throw(/line/);
    expect(() => priceOutcome(soccer, 'SOCCER_MATCH_RESULT', 'O')).to.throw(/outcome/);
    expect(() => priceOutcome(soccer, 'BASKETBALL_MONEYLINE', '1')).to.throw(/sport/);
    expect(() => priceOutcome(soccer, 'SOCCER_UNDER_OVER', 'O', 2.3)).to.throw(/0.25/);
  });

  it('settleOnScore treats code 2 as the away side at minus the line', () => {
    expect(settleOnScore('handicap', '2', 1.5, 1, 3).win).to.equal(1);
    expect(settleOnScore('handicap', '2', 1.5, 2, 1).loss).to.equal(1);
    expect(settleOnScore('handicap', '1', 1.5, 0, 1).win).to.equal(1);
    expect(settleOnScore('handicap', '2', -1, 1, 0).push).to.equal(1);
    expect(cell(0, 0)).to.be.greaterThan(0);
  });
});
