import { expect } from 'chai';
import { calibrationBins, clvSummary, cumulativeProfit, firstPerOutcome, summarize, trackRecord, type TrackRecordBet } from '../../../shared/domain/trackRecord/aggregate';
import { clvHistogramSvg, cumulativeProfitSvg, escapeXml, reliabilitySvg } from '../../../shared/domain/trackRecord/charts';
import { wellFormedRoot } from '../../helpers/xml';

const at = (d: number) => new Date(Date.UTC(2023, 0, d));
const bet = (o: Partial<TrackRecordBet>): TrackRecordBet => ({ confidence: 'High', probability: 0.5, odds: 2, result: 'won', returnPerUnit: 2, eventStartAt: at(1), ...o });

describe('track record: aggregation', () => {
  it('happy: counts, flat-stake profit and ROI from returnPerUnit (half results included)', () => {
    const s = summarize([
      bet({ result: 'won', returnPerUnit: 2.5 }),
      bet({ result: 'lost', returnPerUnit: 0 }),
      bet({ result: 'push', returnPerUnit: 1 }),
      bet({ result: 'won', resultDetail: 'half_won', returnPerUnit: 1.5 }),
    ]);
    expect(s).to.deep.include({ bets: 4, wins: 2, losses: 1, pushes: 1, staked: 4, returned: 5, profit: 1, roi: 0.25 });
    // profits 1.5, -1, 0, 0.5: mean 0.25, squared deviations sum to 3.25, sample sd sqrt(3.25 / 3); over sqrt(4)
    expect(s.roiStandardError).to.be.closeTo(Math.sqrt(3.25 / 3) / 2, 1e-6);
  });

  it('happy: CLV mean, standard error and share beating the close over bets with a closing line only', () => {
    const c = clvSummary([bet({ clv: 0.02 }), bet({ clv: -0.01 }), bet({ clv: 0.05 }), bet({ clv: null }), bet({})]);
    expect(c.bets).to.equal(3);
    expect(c.mean).to.equal(0.02);
    // sd of (0.02, -0.01, 0.05) = 0.03; / sqrt(3)
    expect(c.standardError).to.be.closeTo(0.03 / Math.sqrt(3), 1e-6);
    expect(c.beatCloseShare).to.be.closeTo(2 / 3, 1e-6);
  });

  it('edge: no bets, no closing lines: nulls, not NaN', () => {
    expect(summarize([])).to.deep.equal({
      bets: 0,
      wins: 0,
      losses: 0,
      pushes: 0,
      staked: 0,
      returned: 0,
      profit: 0,
      roi: null,
      roiStandardError: null,
      clv: { bets: 0, mean: null, standardError: null, beatCloseShare: null },
    });
    expect(summarize([bet({})]).roiStandardError, 'one bet has no spread').to.equal(null);
    expect(clvSummary([bet({ clv: 0.1 })])).to.deep.equal({ bets: 1, mean: 0.1, standardError: null, beatCloseShare: 1 });
  });

  describe('standard errors are clustered by event (bets on one event share its result)', () => {
    // profits 1, 1, -1 (mean 1/3): plain s.e. sqrt((4/9 + 4/9 + 16/9) / (2 x 3)) = 2/3;
    // clustered {a, a}, {b}: deviation sums 4/3 and -4/3, sqrt(2/1 x 32/9) / 3 = 8/9.
    const won = { result: 'won', returnPerUnit: 2, clv: 0.1 } as const;
    const lost = { result: 'lost', returnPerUnit: 0, clv: -0.1 } as const;
    const cases: [name: string, bets: TrackRecordBet[], roiSe: number | null][] = [
      ['one bet per event: the plain standard error', [bet({ ...won, eventId: 'a' }), bet({ ...won, eventId: 'b' }), bet({ ...lost, eventId: 'c' })], 2 / 3],
      ['no event ids: each bet its own cluster', [bet(won), bet(won), bet(lost)], 2 / 3],
      ['a re-issued bet on one event: wider', [bet({ ...won, eventId: 'a' }), bet({ ...won, eventId: 'a' }), bet({ ...lost, eventId: 'b' })], 8 / 9],
      ['every bet on one event: no spread to measure', [bet({ ...won, eventId: 'a' }), bet({ ...lost, eventId: 'a' })], null],
    ];
    for (const [name, bets, roiSe] of cases) {
      it(name, () => {
        const s = summarize(bets);
        if (roiSe === null) expect(s.roiStandardError).to.equal(null);
        else expect(s.roiStandardError).to.be.closeTo(roiSe, 1e-6);
        // clv 0.1, 0.1, -0.1 has the same shape as the profits, scaled by 0.1
        if (roiSe === null) expect(s.clv.standardError).to.equal(null);
        else expect(s.clv.standardError).to.be.closeTo(roiSe / 10, 1e-6);
      });
    }
  });

  it('happy: calibration bins by tenths of predicted probability; pushes left out, half won counts 0.5', () => {
    const bins = calibrationBins([
      bet({ probability: 0.42, result: 'won' }),
      bet({ probability: 0.48, result: 'lost', returnPerUnit: 0 }),
      bet({ probability: 0.45, result: 'push', returnPerUnit: 1 }),
      bet({ probability: 0.71, result: 'won', resultDetail: 'half_won', returnPerUnit: 1.5 }),
      bet({ probability: 1, result: 'won' }),
    ]);
    expect(bins.map((b) => [b.from, b.to, b.bets, b.predicted, b.observed])).to.deep.equal([
      [0.4, 0.5, 2, 0.45, 0.5],
      [0.7, 0.8, 1, 0.71, 0.5],
      [0.9, 1, 1, 1, 1],
    ]);
    expect(bins[0].standardError).to.be.closeTo(Math.sqrt((0.45 * 0.55) / 2), 1e-6);
  });

  it('happy: by confidence in High, Medium, Low order, each with its own summary', () => {
    const r = trackRecord([bet({ confidence: 'Low', result: 'lost', returnPerUnit: 0 }), bet({ confidence: 'High' })]);
    expect(r.byConfidence.map((c) => [c.confidence, c.bets, c.profit])).to.deep.equal([
      ['High', 1, 1],
      ['Medium', 0, 0],
      ['Low', 1, -1],
    ]);
    expect(r.bets).to.equal(2);
  });

  it('happy: cumulative profit follows the events in start order', () => {
    expect(
      cumulativeProfit([
        bet({ eventStartAt: at(3), result: 'lost', returnPerUnit: 0 }),
        bet({ eventStartAt: at(1), returnPerUnit: 2.5 }),
        bet({ eventStartAt: at(2), result: 'push', returnPerUnit: 1 }),
      ]),
    ).to.deep.equal([1.5, 1.5, 0.5]);
  });
});

describe('track record: the first recommendation per outcome', () => {
  const at = (h: number) => new Date(Date.UTC(2019, 7, 10, h));
  const bet = (id: string, eventId: string, betItemId: string, hour: number) => ({ id, eventId, betItemId, createdAt: at(hour) });
  const rows: [string, ReturnType<typeof bet>[], string[]][] = [
    ['a re-issue at new odds is not counted again', [bet('a', 'e1', 'e1-MR-1', 9), bet('b', 'e1', 'e1-MR-1', 11)], ['a']],
    ['the earliest wins whatever the order given', [bet('b', 'e1', 'e1-MR-1', 11), bet('a', 'e1', 'e1-MR-1', 9)], ['a']],
    ['other outcomes and other events count', [bet('a', 'e1', 'e1-MR-1', 9), bet('x', 'e1', 'e1-MR-X', 10), bet('c', 'e2', 'e2-MR-1', 8)], ['a', 'x', 'c']],
    ['nothing in, nothing out', [], []],
    ['an undated document counts after the dated ones', [{ ...bet('u', 'e1', 'e1-MR-1', 0), createdAt: null as unknown as Date }, bet('a', 'e1', 'e1-MR-1', 9)], ['a']],
  ];
  for (const [name, bets, want] of rows) it(name, () => expect(firstPerOutcome(bets).map((b) => b.id)).to.deep.equal(want));
});

describe('track record: SVG charts', () => {
  const bins = calibrationBins(Array.from({ length: 40 }, (_, i) => bet({ probability: 0.3 + (i % 5) / 10, result: i % 3 ? 'won' : 'lost', returnPerUnit: i % 3 ? 2 : 0 })));
  const charts: [string, string][] = [
    ['cumulative', cumulativeProfitSvg([1, 0, -1, 0.5, 2], 'last 30 days')],
    ['cumulative, one bet', cumulativeProfitSvg([1], 'x')],
    ['cumulative, empty', cumulativeProfitSvg([], 'x')],
    ['clv', clvHistogramSvg([0.02, -0.01, 0.3, -0.5, 0.049], 'x')],
    ['clv, empty', clvHistogramSvg([], 'x')],
    ['calibration', reliabilitySvg(bins, 'x')],
    ['calibration, empty', reliabilitySvg([], 'x')],
    ['hostile subtitle', cumulativeProfitSvg([1], '</svg><script>alert("x")</script>&amp')],
  ];
  for (const [name, svg] of charts) {
    it(`happy: ${name} is a well-formed SVG document without script`, () => {
      expect(wellFormedRoot(svg)).to.equal('svg');
      expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).to.not.match(/<script/i);
    });
  }

  it('happy: escapeXml escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });

  it('sad: the XML check itself refuses broken documents', () => {
    for (const bad of ['<svg><g></svg>', '<svg a="1" a="2"/>', '<svg>&nbsp;</svg>', '<svg/><svg/>', 'text<svg/>', '<svg><text>a < b</text></svg>']) {
      expect(() => wellFormedRoot(bad), bad).to.throw();
    }
  });
});
