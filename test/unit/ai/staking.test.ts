import { expect } from 'chai';
import { KELLY_MULTIPLIER, confidenceLevel, edgePercentage, kellyForReturns, kellyFraction, parlay, probabilityStandardError, PRICE_MOVE_SCALE } from '../../../shared/domain/ai/staking';

describe('staking', () => {
  const plain = [
    { p: 0.55, odds: 2.0, edge: 10, full: 0.1 },
    { p: 0.3, odds: 4.0, edge: 20, full: (0.3 * 4 - 1) / 3 },
    { p: 0.5, odds: 1.9, edge: -5, full: 0 },
    { p: 0.5, odds: 2.0, edge: 0, full: 0 },
  ];
  for (const c of plain) {
    it(`plain bet p=${c.p} at ${c.odds}: edge ${c.edge} %, quarter Kelly`, () => {
      expect(edgePercentage(c.p, c.odds)).to.be.closeTo(c.edge, 1e-9);
      expect(kellyFraction(c.p, c.odds)).to.be.closeTo(KELLY_MULTIPLIER * c.full, 1e-9);
      expect(kellyFraction(c.p, c.odds, 1)).to.be.closeTo(c.full, 1e-9);
    });
  }

  it('split and push-able bets use the expected return and the general Kelly', () => {
    const d = { win: 0.4, halfWin: 0.2, push: 0.1, halfLoss: 0, loss: 0.3 };
    expect(edgePercentage(d, 2)).to.be.closeTo(100 * (0.4 * 1 + 0.2 * 0.5 - 0.3), 1e-9);
    // A push-able plain bet: Kelly equals the no-push Kelly scaled onto the stake at risk.
    const push = { win: 0.5, halfWin: 0, push: 0.2, halfLoss: 0, loss: 0.3 };
    const f = kellyForReturns([
      { net: 1, probability: 0.5 },
      { net: 0, probability: 0.2 },
      { net: -1, probability: 0.3 },
    ]);
    expect(f).to.be.closeTo((0.5 - 0.3) / (0.5 + 0.3), 1e-9);
    expect(kellyFraction(push, 2, 1)).to.be.closeTo(f, 1e-12);
  });

  it('Kelly maximises expected log growth', () => {
    const d = { win: 0.35, halfWin: 0.15, push: 0.05, halfLoss: 0.15, loss: 0.3 };
    const odds = 2.3;
    const f = kellyFraction(d, odds, 1);
    const growth = (x: number) => d.win * Math.log(1 + x * (odds - 1)) + d.halfWin * Math.log(1 + (x * (odds - 1)) / 2) + d.halfLoss * Math.log(1 - x / 2) + d.loss * Math.log(1 - x);
    expect(f).to.be.greaterThan(0);
    expect(growth(f)).to.be.greaterThan(growth(f * 0.9));
    expect(growth(f)).to.be.greaterThan(growth(f * 1.1));
  });

  it('parlay multiplies odds and probabilities of independent legs', () => {
    const p = parlay([
      { odds: 2.0, probability: 0.55 },
      { odds: 1.8, probability: 0.6 },
      { odds: 3.0, probability: 0.36 },
    ]);
    expect(p.totalOdds).to.be.closeTo(10.8, 1e-12);
    expect(p.probability).to.be.closeTo(0.55 * 0.6 * 0.36, 1e-12);
    expect(p.edgePercentage).to.be.closeTo((p.probability * 10.8 - 1) * 100, 1e-9);
    expect(p.fullKelly).to.be.closeTo((p.probability * 10.8 - 1) / 9.8, 1e-9);
    expect(p.kellyFraction).to.be.closeTo(KELLY_MULTIPLIER * p.fullKelly, 1e-12);
  });

  it('a pushed parlay leg counts at odds one', () => {
    const withPush = parlay([
      { odds: 2.0, probability: { win: 0.5, halfWin: 0, push: 0.2, halfLoss: 0, loss: 0.3 } },
      { odds: 2.0, probability: 0.6 },
    ]);
    // E[gross] = (0.5*2 + 0.2*1) * (0.6*2) = 1.2 * 1.2
    expect(withPush.edgePercentage).to.be.closeTo((1.2 * 1.2 - 1) * 100, 1e-9);
    expect(() => parlay([{ odds: 2, probability: 0.5 }])).to.throw(RangeError);
  });

  // z = (p - 1/odds) / se; High needs edge >= 5 and z >= 1, Medium edge >= 3 and z >= 0.5.
  const bands = [
    { edge: 8, p: 0.6, odds: 1.8, se: 0.02, want: 'High' }, // z = 1.67
    { edge: 8, p: 0.6, odds: 1.8, se: 0.06, want: 'Medium' }, // z = 0.56
    { edge: 3.2, p: 0.6, odds: 1.72, se: 0.01, want: 'Medium' }, // z = 1.86, edge only Medium
    { edge: 2.9, p: 0.6, odds: 1.715, se: 0.001, want: 'Low' }, // edge below Medium
    { edge: 8, p: 0.6, odds: 1.8, se: 0.1, want: 'Low' }, // z = 0.33
    { edge: 1, p: 0.6, odds: 1.683, se: 0.001, want: 'Low' },
  ];
  for (const b of bands) {
    it(`confidence ${b.want} for edge ${b.edge} % and standard error ${b.se}`, () => {
      expect(edgePercentage(b.p, b.odds)).to.be.closeTo(b.edge, 0.1);
      expect(confidenceLevel({ edgePercentage: edgePercentage(b.p, b.odds), probability: b.p, odds: b.odds, standardError: b.se })).to.equal(b.want);
    });
  }

  it('the standard error combines the fit, the expected price move and disagreement in quadrature', () => {
    const move = PRICE_MOVE_SCALE * Math.sqrt(0.5 * 0.5);
    expect(probabilityStandardError({ probability: 0.5, priceMoveScale: 0 })).to.equal(0);
    expect(probabilityStandardError({ probability: 0.5 })).to.be.closeTo(move, 1e-12);
    expect(probabilityStandardError({ probability: 0.5, fitStandardError: 0.03 })).to.be.closeTo(Math.hypot(0.03, move), 1e-12);
    expect(probabilityStandardError({ probability: 0.5, fitStandardError: 0.03, referenceProbability: 0.42 })).to.be.closeTo(Math.hypot(0.03, move, 0.25 * 0.08), 1e-12);
    // A longshot's price moves less in absolute terms.
    expect(probabilityStandardError({ probability: 0.1 })).to.be.below(probabilityStandardError({ probability: 0.4 }));
  });
});
