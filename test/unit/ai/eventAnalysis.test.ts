import { expect } from 'chai';
import { devigShin } from '../../../shared/domain/ai/devig';
import { analyzeEvent, fullQuotes, withProbability, type AnalysisEvent } from '../../../shared/domain/ai/eventAnalysis';
import { marketFair, rankBooks } from '../../../shared/domain/ai/fairPrice';
import { priceFromSummary, summarizeGrid, mixGrids } from '../../../shared/domain/ai/gridPricing';
import { effectiveProbability, priceOutcome } from '../../../shared/domain/ai/pricing';
import { invertMarket } from '../../../shared/domain/ai/inversion';
import { sportDefinition } from '../../../shared/domain/sports/registry';
import { MAX_CREDIBLE_EDGE, edgePercentage } from '../../../shared/domain/ai/staking';
import { mulberry32 } from '../../../shared/domain/ai/random';
import { marketType, MARKET_TYPES } from '../../../shared/domain/markets/catalog';
import { BOOKS, SOCCER_MARKETS, simEvent, trueInputs } from '../../helpers/simEvents';

const asInput = (e: ReturnType<typeof simEvent>): AnalysisEvent => ({ ...e, id: e._id });
const start = new Date(Date.UTC(2030, 0, 5, 15));
const now = new Date(Date.UTC(2030, 0, 5, 9));

describe('event analysis', () => {
  describe('grid summary pricing equals the cell-by-cell pricing', () => {
    const cases = [
      { sportId: 1, x: [Math.log(1.7), Math.log(0.9)] },
      { sportId: 2, x: [4.5, 221] },
      { sportId: 3, x: [0.4] },
      { sportId: 4, x: [Math.log(4.8), Math.log(4.1)] },
      { sportId: 5, x: [-0.3] },
      { sportId: 6, x: [-3, 44.5] },
      { sportId: 7, x: [Math.log(3.2), Math.log(2.6)] },
      { sportId: 8, x: [Math.log(29), Math.log(26.5)] },
    ];
    for (const c of cases) {
      it(`sport ${c.sportId}: every full-time market at several lines`, () => {
        const grid = sportDefinition(c.sportId).model.grid(c.x, {});
        const s = summarizeGrid(grid);
        for (const type of MARKET_TYPES.filter((t) => t.sportId === c.sportId && t.stat === 'score' && t.period === 'FT')) {
          const lines = type.kind === 'total' ? [2.25, 2.5, 3, 7.5, 45, 220.5, 221] : type.kind === 'handicap' ? [-1.5, -0.75, 0, 0.25, 1, 4.5] : [null];
          for (const line of lines)
            for (const o of type.outcomes) {
              const a = priceFromSummary(s, type.sysname, o.code, line);
              const b = priceOutcome({ sportId: c.sportId, fullTime: grid }, type.sysname, o.code, line);
              for (const k of ['win', 'halfWin', 'push', 'halfLoss', 'loss'] as const) expect(a.distribution[k], `${type.sysname} ${o.code} ${line} ${k}`).to.be.closeTo(b.distribution[k], 1e-12);
            }
        }
      });
    }
  });

  describe('market inversion recovers the parameters behind noiseless prices', () => {
    const cases = [
      {
        sportId: 1,
        x: [Math.log(1.6), Math.log(1.1)],
        markets: [
          ['SOCCER_MATCH_RESULT', null],
          ['SOCCER_UNDER_OVER', 2.5],
        ],
      },
      {
        sportId: 2,
        x: [6, 224],
        markets: [
          ['BASKETBALL_MONEYLINE', null],
          ['BASKETBALL_TOTAL_POINTS', 220.5],
        ],
      },
      { sportId: 3, x: [0.5], markets: [['TENNIS_MATCH_WINNER', null]] },
      {
        sportId: 4,
        x: [Math.log(4.9), Math.log(4)],
        markets: [
          ['BASEBALL_MONEYLINE', null],
          ['BASEBALL_TOTAL_RUNS', 8.5],
        ],
      },
      { sportId: 5, x: [-0.4], markets: [['VOLLEYBALL_MATCH_WINNER', null]] },
      {
        sportId: 6,
        x: [-2.5, 47],
        markets: [
          ['AMERICAN_FOOTBALL_SPREAD', -3.5],
          ['AMERICAN_FOOTBALL_TOTAL_POINTS', 45.5],
        ],
      },
      {
        sportId: 7,
        x: [Math.log(3.3), Math.log(2.7)],
        markets: [
          ['ICE_HOCKEY_MONEYLINE', null],
          ['ICE_HOCKEY_TOTAL_GOALS', 5.5],
        ],
      },
      {
        sportId: 8,
        x: [Math.log(30), Math.log(27)],
        markets: [
          ['HANDBALL_MATCH_RESULT', null],
          ['HANDBALL_TOTAL_GOALS', 56.5],
        ],
      },
    ] as const;
    for (const c of cases) {
      it(`sport ${c.sportId}`, () => {
        const sport = sportDefinition(c.sportId);
        const inputs = trueInputs(c.sportId, [...c.x]);
        const targets = c.markets.flatMap(([sysname, line]) => {
          const type = marketType(sysname)!;
          return type.outcomes.slice(0, -1).map((o) => ({ sysname, code: o.code, line, probability: priceOutcome(inputs, sysname, o.code, line).probability }));
        });
        const inv = invertMarket(sport, targets)!;
        expect(inv.residual).to.be.below(1e-6);
        inv.x.forEach((v, i) => expect(v, sport.model.names[i]).to.be.closeTo(c.x[i], 0.01 * Math.max(1, Math.abs(c.x[i]))));
      });
    }
  });

  it("fair prices are the sharpest book's Shin de-vig; the bet is at the best price of any book", () => {
    const event = simEvent({
      id: 'u1',
      sportId: 1,
      x: [Math.log(1.5), Math.log(1.2)],
      home: { id: 1, name: 'Alpha' },
      away: { id: 2, name: 'Beta' },
      startDateTime: start,
      markets: SOCCER_MARKETS,
      seed: 9,
    });
    const a = analyzeEvent(asInput(event), null, { minEdge: 2, now })!;
    const oneXtwo = event.markets.find((m) => m.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
    const sharp = devigShin(oneXtwo.betItems.map((i) => i.bookPrices.sharpbook)).probabilities;
    for (const [k, item] of oneXtwo.betItems.entries()) {
      const it = a.items.find((x) => x.betItemId === item.id)!;
      expect(it.probability).to.be.closeTo(sharp[k], 1e-12);
      const best = Math.max(...Object.values(item.bookPrices));
      expect(it.bestOdds).to.equal(best);
      expect(item.bookPrices[it.bestBook!]).to.equal(best);
    }
    // Double chance is priced from the grid fitted to the exclusive markets: 1X = 1 + X.
    const dc = a.items.find((x) => x.sysname === 'SOCCER_DOUBLE_CHANCE' && x.code === '1X')!;
    const p1 = a.items.find((x) => x.sysname === 'SOCCER_MATCH_RESULT' && x.code === '1')!.probability;
    const px = a.items.find((x) => x.sysname === 'SOCCER_MATCH_RESULT' && x.code === 'X')!.probability;
    expect(dc.probability).to.be.closeTo(p1 + px, 0.01);
    expect(a.recommendations.length).to.be.greaterThan(0);
    for (const r of a.recommendations) {
      expect(r.edgePercentage).to.be.within(2, MAX_CREDIBLE_EDGE);
      expect(r.edgePercentage).to.be.closeTo(edgePercentage(r.distribution, r.odds), 1e-3);
      if (r.distribution.push === 0 && r.distribution.halfWin === 0 && r.distribution.halfLoss === 0) expect(r.edgePercentage).to.be.closeTo((r.probability * r.odds - 1) * 100, 1e-3);
      expect(r.kellyFraction).to.be.greaterThan(0);
      expect(r.eventStartAt).to.equal(start);
      expect(r.rationale[0].es).to.not.equal(r.rationale[0].en);
    }
  });

  it('on simulated markets (truth known), recommendations have a positive true expected return, ordered High > Medium > Low', function () {
    this.timeout(20000);
    const rng = mulberry32(5);
    const byBand: Record<string, number[]> = { High: [], Medium: [], Low: [] };
    for (let i = 0; i < 200; i++) {
      const x = [Math.log(0.8 + 1.2 * rng()), Math.log(0.6 + rng())];
      const e = simEvent({ id: `t${i}`, sportId: 1, x, home: { id: 1, name: 'H' }, away: { id: 2, name: 'A' }, startDateTime: start, markets: SOCCER_MARKETS, seed: i });
      const truth = trueInputs(1, x);
      for (const r of analyzeEvent(asInput(e), null, { minEdge: 2, now })!.recommendations)
        byBand[r.confidence].push(edgePercentage(priceOutcome(truth, r.betTypeSysname, r.code, r.line).distribution, r.odds));
    }
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    for (const band of ['High', 'Medium', 'Low']) expect(byBand[band].length, band).to.be.greaterThan(30);
    expect(mean(byBand.Low)).to.be.greaterThan(0);
    expect(mean(byBand.Medium)).to.be.greaterThan(mean(byBand.Low));
    expect(mean(byBand.High)).to.be.greaterThan(mean(byBand.Medium));
  });

  it('an edge beyond the credible maximum (a stale or mistyped price) is never recommended', () => {
    const event = simEvent({
      id: 'u2',
      sportId: 1,
      x: [Math.log(1.5), Math.log(1.2)],
      home: { id: 1, name: 'Alpha' },
      away: { id: 2, name: 'Beta' },
      startDateTime: start,
      markets: SOCCER_MARKETS.slice(0, 1),
      seed: 3,
    });
    event.markets[0].betItems[0].bookPrices.localodds = 9.5; // home at 9.5 with a fair ~45 %
    const a = analyzeEvent(asInput(event), null, { minEdge: 2, now })!;
    expect(a.items.find((i) => i.code === '1')!.edgePercentage).to.be.greaterThan(MAX_CREDIBLE_EDGE);
    expect(a.recommendations.find((r) => r.code === '1')).to.equal(undefined);
  });

  it('a fitted model moves the fair price by its blend weight: (1 - w) x market + w x model', () => {
    const event = simEvent({
      id: 'u3',
      sportId: 1,
      x: [Math.log(1.5), Math.log(1.2)],
      home: { id: 1, name: 'Alpha' },
      away: { id: 2, name: 'Beta' },
      startDateTime: start,
      markets: SOCCER_MARKETS.slice(0, 2),
      seed: 4,
    });
    const params = {
      family: 'goals' as const,
      dc: { teams: ['1', '2'], attack: [0.3, -0.1], defence: [-0.2, 0.1], intercept: 0.1, homeAdvantage: 0.25, rho: -0.05 },
      attackSE: [0.1, 0.1],
      defenceSE: [0.1, 0.1],
      corners: null,
      cards: null,
    };
    const market = analyzeEvent(asInput(event), null, { minEdge: 2, now })!;
    const blended = analyzeEvent(asInput(event), { params, blendWeight: 0.4, gamesUsed: 300, fittedAt: now }, { minEdge: 2, now })!;
    for (const it of blended.items) {
      const m = market.items.find((x) => x.betItemId === it.betItemId)!;
      expect(it.marketProbability).to.be.closeTo(m.probability, 1e-9);
      expect(it.probability).to.be.closeTo(0.6 * m.probability + 0.4 * it.modelProbability!, 1e-9);
      // The model's own uncertainty and its disagreement widen the standard error.
      expect(it.standardError).to.be.greaterThan(m.standardError - 1e-12);
    }
    expect(blended.insight.analysisInsight.blendInputs).to.not.equal(null);
  });

  it('withProbability keeps the push share and the split between whole and half results', () => {
    const d = { win: 0.3, halfWin: 0.2, push: 0.1, halfLoss: 0.1, loss: 0.3 };
    const r = withProbability(d, 0.6);
    expect(effectiveProbability(r)).to.be.closeTo(0.6, 1e-12);
    expect(r.push).to.equal(0.1);
    expect(r.win / r.halfWin).to.be.closeTo(1.5, 1e-12);
    expect(r.win + r.halfWin + r.push + r.halfLoss + r.loss).to.be.closeTo(1, 1e-12);
  });

  it('sharpness is the lowest median margin, not one boosted market', () => {
    const ranking = rankBooks(
      new Map([
        ['boosty', [0.08, 0.07, -0.01]],
        ['sharp', [0.025, 0.02, 0.03]],
        ['soft', [0.06, 0.05, 0.07]],
      ]),
    );
    expect(ranking).to.deep.equal(['sharp', 'soft', 'boosty']);
    const fair = marketFair(
      [
        { book: 'boosty', odds: [2.2, 3.6, 4.2] },
        { book: 'sharp', odds: [2.05, 3.4, 3.85] },
      ],
      ranking,
    )!;
    expect(fair.sharpBook).to.equal('sharp');
    expect(fair.consensus).to.have.length(3);
  });

  it('mixGrids aligns grids that start at different scores', () => {
    const a = sportDefinition(2).model.grid([2, 210], {});
    const b = sportDefinition(2).model.grid([-4, 230], {});
    const m = mixGrids(a, b, 0.25);
    const pa = priceFromSummary(summarizeGrid(a), 'BASKETBALL_MONEYLINE', '1', null).probability;
    const pb = priceFromSummary(summarizeGrid(b), 'BASKETBALL_MONEYLINE', '1', null).probability;
    expect(priceFromSummary(summarizeGrid(m), 'BASKETBALL_MONEYLINE', '1', null).probability).to.be.closeTo(0.75 * pa + 0.25 * pb, 1e-9);
  });

  it('fullQuotes keeps only books quoting every outcome', () => {
    const event = simEvent({ id: 'u4', sportId: 1, x: [0.3, 0.1], home: { id: 1, name: 'A' }, away: { id: 2, name: 'B' }, startDateTime: start, markets: SOCCER_MARKETS.slice(0, 1), seed: 1 });
    delete event.markets[0].betItems[1].bookPrices.softbet;
    const quotes = fullQuotes(marketType('SOCCER_MATCH_RESULT')!, event.markets[0], event.dataSource);
    expect(quotes.map((q) => q.book).sort()).to.deep.equal(
      BOOKS.map((b) => b.name)
        .filter((b) => b !== 'softbet')
        .sort(),
    );
  });
});
