import { expect } from 'chai';
import { efficiencyBand, marketEfficiency, marketEfficiencyScore } from '../../../shared/domain/ai/efficiency';

describe('market efficiency', () => {
  const bands = [
    { score: 100, band: 'extremely efficient' },
    { score: 90, band: 'extremely efficient' },
    { score: 89.9, band: 'efficient' },
    { score: 80, band: 'efficient' },
    { score: 79.5, band: 'moderately efficient' },
    { score: 70, band: 'moderately efficient' },
    { score: 69.9, band: 'inefficient' },
    { score: 0, band: 'inefficient' },
  ];
  for (const b of bands) it(`${b.score} is ${b.band}`, () => expect(efficiencyBand(b.score)).to.equal(b.band));

  it('a sharp, consistent market scores high; a wide, scattered one low', () => {
    const sharp = marketEfficiency({
      bookmakers: [
        [2.02, 3.5, 4.1],
        [2.0, 3.55, 4.15],
        [2.03, 3.45, 4.05],
      ],
      model: [0.48, 0.27, 0.25],
    });
    expect(sharp.score).to.be.within(80, 100);
    const wide = marketEfficiency({
      bookmakers: [
        [1.8, 3.2, 3.6],
        [2.2, 3.0, 3.1],
        [1.7, 3.6, 4.2],
      ],
      model: [0.38, 0.3, 0.32],
    });
    expect(wide.score).to.be.below(70);
    expect(wide.marginPercent).to.be.greaterThan(sharp.marginPercent);
    expect(wide.dispersionPoints).to.be.greaterThan(sharp.dispersionPoints);
  });

  it('each symptom lowers the score on its own', () => {
    const base = { bookmakers: [[1.95, 1.95]] };
    const s0 = marketEfficiencyScore(base);
    expect(marketEfficiencyScore({ bookmakers: [[1.85, 1.85]] })).to.be.below(s0);
    expect(marketEfficiencyScore({ ...base, model: [0.56, 0.44] })).to.be.closeTo(s0 - 18, 1e-9);
    expect(
      marketEfficiencyScore({
        bookmakers: [
          [1.95, 1.95],
          [1.75, 2.15],
        ],
      }),
    ).to.be.below(s0);
    // 2.56 % overround costs 2.5 points per percent.
    expect(s0).to.be.closeTo(Math.round(10 * (100 - 2.5 * 100 * (2 / 1.95 - 1))) / 10, 1e-9);
  });
});
