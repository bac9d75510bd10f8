import { expect } from 'chai';
import { DEVIG_METHODS, devig, devigPower, devigProportional, devigShin, devigShinStrict } from '../../../shared/domain/ai/devig';
import { marketFair } from '../../../shared/domain/ai/fairPrice';
import { loadConfig } from '../../../shared/platform/config';

const sum = (p: number[]) => p.reduce((a, b) => a + b, 0);

describe('devig', () => {
  const markets: { name: string; odds: number[] }[] = [
    { name: 'three-way favourite', odds: [1.5, 4.2, 7.0] },
    { name: 'three-way balanced', odds: [2.6, 3.2, 2.9] },
    { name: 'two-way with margin', odds: [1.91, 1.91] },
    { name: 'longshot', odds: [1.1, 9.0, 21.0] },
  ];

  for (const { name, odds } of markets) {
    it(`every method sums to one and reports the overround (${name})`, () => {
      const booksum = sum(odds.map((o) => 1 / o));
      for (const method of ['proportional', 'power', 'shin'] as const) {
        const r = devig(odds, method);
        expect(sum(r.probabilities)).to.be.closeTo(1, 1e-9);
        expect(r.margin).to.be.closeTo(booksum - 1, 1e-12);
        expect(r.method).to.equal(method);
      }
    });

    it(`Shin and power shift probability from the longshot to the favourite (${name})`, () => {
      const prop = devigProportional(odds).probabilities;
      const fav = prop.indexOf(Math.max(...prop));
      const dog = prop.indexOf(Math.min(...prop));
      if (fav === dog) return;
      for (const r of [devigShin(odds), devigPower(odds)!]) {
        expect(r.probabilities[fav]).to.be.at.least(prop[fav] - 1e-12);
        expect(r.probabilities[dog]).to.be.at.most(prop[dog] + 1e-12);
      }
    });
  }

  it('proportional is 1/odds over the booksum', () => {
    const r = devigProportional([2, 4, 4.5]);
    const q = [0.5, 0.25, 1 / 4.5];
    const b = sum(q);
    r.probabilities.forEach((p, i) => expect(p).to.be.closeTo(q[i] / b, 1e-12));
  });

  it('Shin reproduces the implied probabilities of its own generative model', () => {
    // Under Shin's model the quoted implied probabilities are proportional to sqrt(z p + (1 - z) p^2).
    const p = [0.55, 0.27, 0.18];
    const z = 0.03;
    const raw = p.map((x) => Math.sqrt(z * x + (1 - z) * x * x));
    const B = sum(raw);
    const q = raw.map((x) => x * B);
    const r = devigShinStrict(q.map((x) => 1 / x))!;
    expect(r.method).to.equal('shin');
    expect(r.parameter!).to.be.closeTo(z, 1e-6);
    r.probabilities.forEach((x, i) => expect(x).to.be.closeTo(p[i], 1e-6));
  });

  it('Shin falls back (recorded) when the odds carry no margin', () => {
    const odds = [2.1, 2.1];
    expect(devigShinStrict(odds)).to.equal(null);
    const r = devigShin(odds);
    expect(r.method).to.equal('power');
    expect(r.margin).to.be.below(0);
    r.probabilities.forEach((x) => expect(x).to.be.closeTo(0.5, 1e-9));
  });

  it('rejects odds that are not decimal prices above one', () => {
    expect(() => devigProportional([1, 2])).to.throw(RangeError);
    expect(() => devigShin([2])).to.throw(RangeError);
  });
});

describe('the de-vig method is a setting of the model (AI_DEVIG)', () => {
  const quotes = [
    { book: 'sharp', odds: [1.52, 4.3, 7.4] },
    { book: 'soft', odds: [1.48, 4.1, 6.9] },
    { book: 'softer', odds: [1.45, 4.0, 6.5] },
  ];
  const mean = (rows: number[][], k: number) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
  for (const method of DEVIG_METHODS) {
    it(`happy: ${method}: the sharp book's fair price and the others' consensus are both ${method}'s`, () => {
      const fair = marketFair(quotes, ['sharp', 'soft', 'softer'], method)!;
      expect(fair.method).to.equal(method);
      expect(fair.probabilities).to.deep.equal(devig(quotes[0].odds, method).probabilities);
      const others = quotes.slice(1).map((q) => devig(q.odds, method).probabilities);
      fair.consensus!.forEach((p, k) => expect(p).to.be.closeTo(mean(others, k), 1e-15));
    });
  }

  it('happy: the methods disagree where they should: Shin and power take from the longshot what proportional leaves', () => {
    const fair = Object.fromEntries(DEVIG_METHODS.map((m) => [m, marketFair(quotes, ['sharp'], m)!.probabilities[2]]));
    expect(fair.shin).to.be.below(fair.proportional);
    expect(fair.power).to.be.below(fair.proportional);
  });

  it('edge: odds without a margin are only rescaled, whatever the method', () => {
    for (const method of DEVIG_METHODS) {
      const r = devig([2.1, 2.1], method);
      expect(r.method, method).to.equal('proportional');
      expect(r.probabilities).to.deep.equal([0.5, 0.5]);
    }
  });

  it("happy: without a setting, Shin (the configuration's default)", () => {
    expect(marketFair(quotes, ['sharp'])!.method).to.equal('shin');
    expect(loadConfig({}).AI_DEVIG).to.equal('shin');
    expect(loadConfig({ AI_DEVIG: 'power' }).AI_DEVIG).to.equal('power');
  });
});
