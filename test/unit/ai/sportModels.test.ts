import { expect } from 'chai';
import { priceMarket, priceOutcome } from '../../../shared/domain/ai/pricing';
import { expectedScore, forEachCell, resultProbabilities } from '../../../shared/domain/ai/scoreGrid';
import { normalCdf } from '../../../shared/domain/ai/countDistributions';
import { baseballGrid, iceHockeyGrid, normalScoreGrid, setProbabilityFromMatch, setsGrid } from '../../../shared/domain/ai/sportModels';
import type { GridOptions } from '../../../shared/domain/ai/sportParams';
import { sportDefinition } from '../../../shared/domain/sports/registry';
import { MARKET_TYPES } from '../../../shared/domain/markets/catalog';

const total = (g: ReturnType<typeof setsGrid>) => g.p.flat().reduce((a, b) => a + b, 0);

describe('sport models', () => {
  const logit = (p: number) => Math.log(p / (1 - p));
  // Each sport's own model (its definition's), at parameters of a typical match.
  const params: { name: string; sportId: number; x: number[]; options?: GridOptions; line: number; noTies: boolean }[] = [
    { name: 'basketball', sportId: 2, x: [4.5, 221.5], options: { marginSD: 12, totalSD: 17 }, line: 220.5, noTies: true },
    { name: 'tennis', sportId: 3, x: [logit(0.62)], options: { bestOf: 3 }, line: 2.5, noTies: true },
    { name: 'baseball', sportId: 4, x: [Math.log(4.6), Math.log(4.1)], line: 8.5, noTies: true },
    { name: 'volleyball', sportId: 5, x: [logit(0.55)], line: 3.5, noTies: true },
    { name: 'american football', sportId: 6, x: [-3, 44.5], options: { marginSD: 13.5, totalSD: 13 }, line: 44.5, noTies: true },
    { name: 'ice hockey', sportId: 7, x: [Math.log(3.1), Math.log(2.8)], line: 5.5, noTies: true },
    { name: 'handball', sportId: 8, x: [Math.log(29), Math.log(27)], line: 55.5, noTies: false },
  ];
  for (const c of params) {
    it(`${c.name}: a proper distribution that prices every catalog market`, () => {
      const grid = sportDefinition(c.sportId).model.grid(c.x, c.options ?? {});
      expect(total(grid)).to.be.closeTo(1, 1e-9);
      if (c.noTies) expect(resultProbabilities(grid).draw).to.be.below(1e-12);
      for (const t of MARKET_TYPES.filter((m) => m.sportId === c.sportId)) {
        const line = t.kind === 'total' ? c.line : t.kind === 'handicap' ? -1.5 : null;
        const priced = priceMarket({ sportId: c.sportId, fullTime: grid }, t.sysname, line);
        const sum = priced.reduce((s, p) => s + p.distribution.win, 0);
        // Two-way markets at half lines are exhaustive; three-way result markets too.
        if (t.kind !== 'doubleChance') expect(sum, t.sysname).to.be.closeTo(1, 1e-9);
      }
    });
  }

  it('basketball margin and total follow the normal parameters', () => {
    const g = normalScoreGrid({ expectedMargin: 6, marginSD: 12, expectedTotal: 220, totalSD: 17, overtimeMargin: 3 });
    const e = expectedScore(g);
    expect(e.home - e.away).to.be.closeTo(6, 0.3);
    expect(e.home + e.away).to.be.closeTo(220, 0.5);
    // Home wins: regulation margin > 0 plus its share of overtime.
    expect(resultProbabilities(g).home).to.be.closeTo(normalCdf(6 / 12), 0.01);
    const over = priceOutcome({ sportId: 2, fullTime: g }, 'BASKETBALL_TOTAL_POINTS', 'O', 220.5).probability;
    expect(over).to.be.closeTo(1 - normalCdf(0.5 / 17), 0.03);
  });

  it('hockey overtime goes to the stronger side and adds exactly one goal', () => {
    const g = iceHockeyGrid({ home: 3.4, away: 2.6 });
    const r = resultProbabilities(g);
    expect(r.draw).to.equal(0);
    let oneGoalWins = 0;
    forEachCell(g, (h, a, p) => (oneGoalWins += h - a === 1 ? p : 0));
    expect(oneGoalWins).to.be.greaterThan(0.25);
    expect(r.home).to.be.greaterThan(0.55);
  });

  it('baseball runs are overdispersed relative to Poisson', () => {
    const g = baseballGrid({ home: 4.5, away: 4.5, dispersion: 4 });
    let m = 0;
    let v = 0;
    forEachCell(g, (h, _a, p) => (m += h * p));
    forEachCell(g, (h, _a, p) => (v += (h - m) ** 2 * p));
    expect(v).to.be.greaterThan(m * 1.4);
  });

  const sets = [
    { p: 0.6, bestOf: 3 as const, win: 0.6 ** 2 * (1 + 2 * 0.4) },
    { p: 0.6, bestOf: 5 as const, win: 0.6 ** 3 * (1 + 3 * 0.4 + 6 * 0.16) },
    { p: 0.5, bestOf: 5 as const, win: 0.5 },
  ];
  for (const s of sets) {
    it(`sets: p=${s.p} best of ${s.bestOf} wins ${s.win.toFixed(4)} and inverts back`, () => {
      const g = setsGrid({ setWinProbability: s.p, bestOf: s.bestOf });
      expect(resultProbabilities(g).home).to.be.closeTo(s.win, 1e-12);
      expect(setProbabilityFromMatch(s.win, s.bestOf)).to.be.closeTo(s.p, 1e-9);
    });
  }
});
