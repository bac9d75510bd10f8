import { expect } from 'chai';
import { clvHistogramSvg, cumulativeProfitSvg, reliabilitySvg } from '../../../shared/domain/trackRecord/charts';
import { niceStep, niceTicks, tickLabel } from '../../../shared/domain/trackRecord/ticks';

describe('chart axis ticks (shared/domain/trackRecord/ticks.ts)', () => {
  it('happy: a step is 1, 2 or 5 times a power of ten, the smallest at least the raw step', () => {
    const rows: [number, number][] = [
      [0.07, 0.1],
      [0.1, 0.1],
      [0.3, 0.5],
      [0.30000000000000004, 0.5],
      [1, 1],
      [1.2, 2],
      [2, 2],
      [3.8, 5],
      [5.01, 10],
      [8.156, 10],
      [40.78, 50],
      [120, 200],
    ];
    for (const [raw, step] of rows) expect(niceStep(raw), String(raw)).to.be.closeTo(step, 1e-12);
  });

  it('happy: ticks on round values around the data, at most the asked number of intervals (table)', () => {
    const rows: { lo: number; hi: number; whole?: boolean; maxTicks?: number; values: number[] }[] = [
      // The cumulative profit the issue saw: -9.4 to 40.78 units.
      { lo: -9.4, hi: 40.78, values: [-20, 0, 20, 40, 60] },
      { lo: 0, hi: 30.65, values: [0, 10, 20, 30, 40] },
      { lo: -3.2, hi: 0, values: [-4, -3, -2, -1, 0] },
      { lo: 0, hi: 1, values: [0, 0.2, 0.4, 0.6, 0.8, 1] },
      { lo: -0.5, hi: 2.25, values: [-1, 0, 1, 2, 3] },
      // Counts of bets: whole steps, never 3.8.
      { lo: 0, hi: 19, whole: true, values: [0, 5, 10, 15, 20] },
      { lo: 0, hi: 3, whole: true, values: [0, 1, 2, 3] },
      { lo: 0, hi: 1, whole: true, values: [0, 1] },
      { lo: 0, hi: 7, whole: true, values: [0, 2, 4, 6, 8] },
      { lo: 0, hi: 186, whole: true, values: [0, 50, 100, 150, 200] },
      // No span: widened to a step around the value.
      { lo: 0, hi: 0, values: [0, 0.2, 0.4, 0.6, 0.8, 1] },
      { lo: 5, hi: 5, values: [4, 4.5, 5, 5.5, 6] },
      { lo: 2, hi: 5, maxTicks: 2, values: [2, 4, 6] },
    ];
    for (const r of rows) {
      const t = niceTicks(r.lo, r.hi, { whole: r.whole, maxTicks: r.maxTicks });
      const name = `${r.lo}..${r.hi}${r.whole ? ' whole' : ''}`;
      expect(t.values, name).to.deep.equal(r.values);
      expect([t.min, t.max], name).to.deep.equal([r.values[0], r.values[r.values.length - 1]]);
      expect(t.min, name).to.be.at.most(Math.min(r.lo, r.hi));
      expect(t.max, name).to.be.at.least(Math.max(r.lo, r.hi));
      expect(t.values.length - 1, name).to.be.at.most(r.maxTicks ?? 5);
      if (r.whole) for (const v of t.values) expect(Number.isInteger(v), `${name}: ${v}`).to.equal(true);
    }
  });

  it('happy: labels carry the decimals the step needs, and no float noise', () => {
    const tenths = niceTicks(0, 1);
    expect(tenths.values.map((v) => tickLabel(v, tenths))).to.deep.equal(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    const units = niceTicks(-9.4, 40.78);
    expect(units.values.map((v) => tickLabel(v, units))).to.deep.equal(['-20', '0', '20', '40', '60']);
    const fine = niceTicks(0.1, 0.3);
    expect(fine.values.map((v) => tickLabel(v, fine))).to.deep.equal(['0.10', '0.15', '0.20', '0.25', '0.30']);
  });

  it('edge: reversed or non-finite bounds still give ticks', () => {
    expect(niceTicks(10, 0).values).to.deep.equal([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(Number.NaN, 3, { whole: true }).values).to.deep.equal([0, 1, 2, 3]);
  });
});

describe('track record charts: their y axes on the round ticks', () => {
  /** The y axis's labels of a chart (drawn right-aligned left of the plot, at x = 54). */
  const yLabels = (svg: string) => [...svg.matchAll(/<text x="54" y="[^"]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);

  it('happy: cumulative profit in whole units around the data, CLV counts in whole bets, calibration in tenths', () => {
    expect(yLabels(cumulativeProfitSvg([1, -2.5, 10, 40.78, 33], 's'))).to.deep.equal(['-20', '0', '20', '40', '60']);
    expect(yLabels(clvHistogramSvg([0.01, 0.012, 0.015, -0.05], 's'))).to.deep.equal(['0', '1', '2', '3']);
    expect(
      yLabels(
        clvHistogramSvg(
          Array.from({ length: 19 }, () => 0.02),
          's',
        ),
      ),
    ).to.deep.equal(['0', '5', '10', '15', '20']);
    expect(yLabels(reliabilitySvg([{ from: 0.5, to: 0.6, bets: 4, predicted: 0.55, observed: 0.5, standardError: 0.25 }], 's'))).to.deep.equal(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
  });
});
