import { expect } from 'chai';
import { dcScoreGrid } from '../../../shared/domain/ai/dixonColes';
import { expectedScore, resultProbabilities } from '../../../shared/domain/ai/scoreGrid';
import { simulateMatch } from '../../../shared/domain/ai/simulate';
import { mulberry32, samplePoisson } from '../../../shared/domain/ai/random';

describe('match simulation', () => {
  const cases = [
    { lh: 1.55, la: 1.1, rho: -0.08, seed: 42 },
    { lh: 2.6, la: 0.6, rho: -0.03, seed: 7 },
  ];
  for (const c of cases) {
    it(`frequencies agree with the analytic grid within 3 sigma (${c.lh}-${c.la}, seed ${c.seed})`, () => {
      const grid = dcScoreGrid(c.lh, c.la, c.rho);
      const n = 20_000;
      const sim = simulateMatch({ grid }, n, c.seed);
      const exact = resultProbabilities(grid);
      for (const k of ['home', 'draw', 'away'] as const) {
        const sigma = Math.sqrt((exact[k] * (1 - exact[k])) / n);
        expect(Math.abs(sim.outcomeFrequencies[k] - exact[k]), k).to.be.below(3 * sigma);
      }
      const e = expectedScore(grid);
      expect(sim.expectedScore.home).to.be.closeTo(e.home, 3 * Math.sqrt(c.lh / n) + 0.02);
      const top = sim.mostLikelyScores[0];
      const [h, a] = top.score.split('-').map(Number);
      expect(Math.abs(top.probability - grid.p[h][a])).to.be.below(3 * Math.sqrt((grid.p[h][a] * (1 - grid.p[h][a])) / n));
    });
  }

  it('is reproducible for a seed and differs across seeds', () => {
    const grid = dcScoreGrid(1.3, 1.2, -0.05);
    expect(simulateMatch({ grid }, 2000, 9)).to.deep.equal(simulateMatch({ grid }, 2000, 9));
    expect(simulateMatch({ grid }, 2000, 9).scoreDistribution).to.not.deep.equal(simulateMatch({ grid }, 2000, 10).scoreDistribution);
  });

  it('Poisson sampling has the right mean and variance', () => {
    const rng = mulberry32(5);
    for (const mean of [0.7, 3, 80]) {
      const xs = Array.from({ length: 20_000 }, () => samplePoisson(rng, mean));
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
      expect(m).to.be.closeTo(mean, 4 * Math.sqrt(mean / xs.length));
      expect(v / mean).to.be.closeTo(1, 0.05);
    }
    const sim = simulateMatch({ lambdaHome: 1.4, lambdaAway: 1.0 }, 20_000, 3);
    expect(sim.expectedScore.home).to.be.closeTo(1.4, 4 * Math.sqrt(1.4 / 20_000));
    expect(sim.outcomeFrequencies.home + sim.outcomeFrequencies.draw + sim.outcomeFrequencies.away).to.be.closeTo(1, 1e-12);
  });
});
