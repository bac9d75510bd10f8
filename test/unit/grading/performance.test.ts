import { expect } from 'chai';
import {
  applyDelta,
  dailyBreakdown,
  equalRollups,
  formatPercent,
  formatProfit,
  performanceReport,
  recomputeFromBets,
  rollupDelta,
  windowDays,
  type Rollup,
  type SettledBet,
} from '../../../shared/domain/grading/performance';
import { returnPerUnit, resultOf, type ResultDetail } from '../../../shared/domain/grading/results';

function bet(day: string, confidence: SettledBet['confidence'], detail: ResultDetail, odds: number, edge = 5): SettledBet {
  return { day, confidence, result: resultOf(detail), resultDetail: detail, returnPerUnit: returnPerUnit(detail, odds), edgePercentage: edge };
}

// Five bets, one of each detail, on one day: staked 5, returned 2 + 1.45 + 0 + 1 + 0.5 = 4.95.
const MIXED: SettledBet[] = [
  bet('2024-05-10', 'High', 'won', 2, 4),
  bet('2024-05-10', 'High', 'half_won', 1.9, 6),
  bet('2024-05-10', 'High', 'lost', 3, 8),
  bet('2024-05-10', 'High', 'push', 1.8, 2),
  bet('2024-05-10', 'High', 'half_lost', 2.2, 10),
];

describe('performance: rollups', () => {
  it('rolls one (day, confidence) up with half results inside wins/losses', () => {
    expect(recomputeFromBets(MIXED)).to.deep.equal([
      { day: '2024-05-10', confidence: 'High', total: 5, wins: 2, losses: 2, pushes: 1, halfWins: 1, halfLosses: 1, staked: 5, returned: 4.95, sumEdge: 30 },
    ]);
  });

  it('separates days and confidences, sorted by day then High/Medium/Low', () => {
    const r = recomputeFromBets([bet('2024-05-11', 'Low', 'won', 2), bet('2024-05-10', 'Low', 'lost', 2), bet('2024-05-10', 'High', 'won', 2)]);
    expect(r.map((x) => `${x.day} ${x.confidence} ${x.total}`)).to.deep.equal(['2024-05-10 High 1', '2024-05-10 Low 1', '2024-05-11 Low 1']);
  });

  it('incremental deltas with corrections (-old, +new) equal a recomputation from the final bets', () => {
    const rollups = new Map<string, Rollup>();
    const bets = MIXED.map((b, i) => ({ ...b, day: `2024-05-1${i % 3}`, confidence: (['High', 'Medium', 'Low'] as const)[i % 3] }));
    for (const b of bets) applyDelta(rollups, b);
    // correct bet 2 (lost -> won) and bet 4 (half_lost -> push)
    const final = [...bets];
    for (const [i, detail] of [
      [2, 'won'],
      [4, 'push'],
    ] as const) {
      const corrected = { ...bets[i], result: resultOf(detail), resultDetail: detail, returnPerUnit: returnPerUnit(detail, 3) };
      applyDelta(rollups, bets[i], -1);
      applyDelta(rollups, corrected, 1);
      final[i] = corrected;
    }
    const cmp = equalRollups([...rollups.values()], recomputeFromBets(final));
    expect(cmp.differences).to.deep.equal([]);
    expect(cmp.equal).to.equal(true);
  });

  it('equalRollups reports every differing counter and treats a missing rollup as zero', () => {
    const good = recomputeFromBets(MIXED);
    const bad = good.map((r) => ({ ...r, wins: r.wins + 1, returned: r.returned + 0.5 }));
    expect(equalRollups(good, bad).differences).to.deep.equal(['2024-05-10 High wins: 2 vs 3', '2024-05-10 High returned: 4.95 vs 5.45']);
    expect(equalRollups(good, bad).mismatches).to.deep.equal([
      { day: '2024-05-10', confidence: 'High', counter: 'wins', a: 2, b: 3 },
      { day: '2024-05-10', confidence: 'High', counter: 'returned', a: 4.95, b: 5.45 },
    ]);
    const zero: Rollup = { day: '2024-05-01', confidence: 'Low', total: 0, wins: 0, losses: 0, pushes: 0, halfWins: 0, halfLosses: 0, staked: 0, returned: 0, sumEdge: 0 };
    expect(equalRollups([...good, zero], good).equal).to.equal(true);
    expect(equalRollups([], good).equal).to.equal(false);
  });

  it('rollupDelta with sign -1 is the exact negation', () => {
    for (const b of MIXED) {
      const plus = rollupDelta(b, 1);
      const minus = rollupDelta(b, -1);
      for (const k of Object.keys(plus) as (keyof typeof plus)[]) expect(minus[k] + plus[k]).to.equal(0);
    }
  });

  const invalid: [string, Partial<SettledBet>][] = [
    ['bad day', { day: '10/05/2024' }],
    ['unknown confidence', { confidence: 'Huge' as never }],
    ['result not matching detail', { result: 'won', resultDetail: 'half_lost' }],
    ['negative return', { returnPerUnit: -1 }],
  ];
  for (const [name, over] of invalid) {
    it(`rejects a bet with ${name}`, () => {
      expect(() => recomputeFromBets([{ ...MIXED[0], ...over }])).to.throw(RangeError);
      expect(() => rollupDelta({ ...MIXED[0], ...over })).to.throw(RangeError);
    });
  }
});

describe('performance: report (contract shapes A and B)', () => {
  const now = new Date('2024-05-31T12:00:00Z');

  it('win rate excludes pushes; ROI and profit come from returnPerUnit', () => {
    const r = performanceReport(recomputeFromBets(MIXED), { days: 30, today: '2024-05-31', now });
    expect(r.recommendations).to.deep.equal({ total: 5, wins: 2, losses: 2, pushes: 1, winRate: '50.0%' });
    expect(r.overall).to.deep.equal({ totalBets: 5, wins: 2, winRate: '50.0%', roi: '-1.0%', profit: '-0.05' });
  });

  it('pushes alone do not move the win rate: 3 won, 1 lost, 5 pushes -> 75.0%', () => {
    const bets = [...Array(3).fill(bet('2024-05-30', 'Medium', 'won', 1.5)), bet('2024-05-30', 'Medium', 'lost', 1.5), ...Array(5).fill(bet('2024-05-30', 'Medium', 'push', 1.5))];
    const r = performanceReport(recomputeFromBets(bets), { days: 7, today: '2024-05-31', now });
    expect(r.overall.winRate).to.equal('75.0%');
    // staked 9, returned 3 * 1.5 + 5 = 9.5 -> roi 5.6%, profit +0.50
    expect(r.overall.roi).to.equal('5.6%');
    expect(r.overall.profit).to.equal('+0.50');
  });

  it('has every shape field, lists all three confidences and filters the window', () => {
    const bets = [
      bet('2024-05-31', 'High', 'won', 2.5, 7),
      bet('2024-05-25', 'High', 'lost', 2, 3),
      bet('2024-05-25', 'Low', 'won', 1.5, 1),
      bet('2024-05-24', 'High', 'won', 10, 50), // outside a 7-day window ending 05-31
    ];
    const r = performanceReport(recomputeFromBets(bets), { days: 7, today: '2024-05-31', now });
    expect(Object.keys(r)).to.have.members(['period', 'recommendations', 'overall', 'byConfidence', 'lastUpdated']);
    expect(r.period).to.equal('7 days');
    expect(r.lastUpdated).to.equal('2024-05-31T12:00:00.000Z');
    expect(r.overall).to.deep.equal({ totalBets: 3, wins: 2, winRate: '66.7%', roi: '33.3%', profit: '+1.00' });
    expect(r.byConfidence).to.deep.equal([
      { confidence: 'High', total: 2, wins: 1, winRate: '50.0%', roi: '25.0%', avgEdge: 5 },
      { confidence: 'Medium', total: 0, wins: 0, winRate: '0.0%', roi: '0.0%', avgEdge: 0 },
      { confidence: 'Low', total: 1, wins: 1, winRate: '100.0%', roi: '50.0%', avgEdge: 1 },
    ]);
  });

  it('daily breakdown lists every day with a cumulative profit that ends at the overall profit', () => {
    const bets = [bet('2024-05-29', 'High', 'won', 2), bet('2024-05-31', 'Low', 'lost', 2), bet('2024-05-31', 'Low', 'half_won', 3)];
    const rollups = recomputeFromBets(bets);
    const d = dailyBreakdown(rollups, { days: 3, today: '2024-05-31' });
    expect(d.map((x) => [x.date, x.total, x.profit, x.cumulativeProfit])).to.deep.equal([
      ['2024-05-29', 1, 1, 1],
      ['2024-05-30', 0, 0, 1],
      ['2024-05-31', 2, 0, 1],
    ]);
    expect(formatProfit(d[d.length - 1].cumulativeProfit)).to.equal(performanceReport(rollups, { days: 3, today: '2024-05-31', now }).overall.profit);
  });

  const formats: [number, string, string][] = [
    [0.5417, '54.2%', '+0.54'],
    [0, '0.0%', '+0.00'],
    [-0.031, '-3.1%', '-0.03'],
    [-0.0001, '0.0%', '+0.00'],
    [12.4, '1240.0%', '+12.40'],
  ];
  for (const [x, pct, profit] of formats) {
    it(`formats ${x} as ${pct} and ${profit}`, () => {
      expect(formatPercent(x)).to.equal(pct);
      expect(formatProfit(x)).to.equal(profit);
    });
  }

  it('windowDays crosses month ends and rejects bad input', () => {
    expect(windowDays('2024-03-01', 3)).to.deep.equal(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(() => windowDays('2024-03-01', 0)).to.throw(RangeError);
    expect(() => windowDays('March 1', 3)).to.throw(RangeError);
  });
});
