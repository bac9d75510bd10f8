import { expect } from 'chai';
import { MAX_LEAD_MS, parseAnchor, reconcileAnchor, simAt, skipAnchor, type ClockAnchor } from '../../../shared/domain/clock/anchor';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;

describe('simulated clock anchor (pure)', () => {
  it('happy: runs `speed` times faster from its anchor', () => {
    const a: ClockAnchor = { realMs: NOW, simMs: NOW, speed: 120, epoch: null };
    expect(simAt(a, NOW)).to.equal(NOW);
    expect(simAt(a, NOW + 1000)).to.equal(NOW + 120_000);
  });

  const cases: { name: string; stored: ClockAnchor | null; speed: number; epoch: string | null; simNow: number; replaced: RegExp | null }[] = [
    { name: 'no stored anchor: starts at the real time', stored: null, speed: 120, epoch: null, simNow: NOW, replaced: null },
    { name: 'no stored anchor, SIM_EPOCH set: starts there', stored: null, speed: 60, epoch: '2026-11-21T12:00:00Z', simNow: Date.parse('2026-11-21T12:00:00Z'), replaced: null },
    {
      name: 'same settings: kept (every process agrees)',
      stored: { realMs: NOW - HOUR, simMs: NOW - HOUR, speed: 120, epoch: null },
      speed: 120,
      epoch: null,
      simNow: NOW - HOUR + 120 * HOUR,
      replaced: null,
    },
    {
      name: 'another speed: continues from the simulated instant reached',
      stored: { realMs: NOW - HOUR, simMs: NOW - HOUR, speed: 120, epoch: null },
      speed: 60,
      epoch: null,
      simNow: NOW - HOUR + 120 * HOUR,
      replaced: /SIM_SPEED changed \(120 -> 60\)/,
    },
    {
      name: 'another SIM_EPOCH: starts over from it',
      stored: { realMs: NOW - HOUR, simMs: NOW - HOUR, speed: 120, epoch: null },
      speed: 120,
      epoch: '2026-12-01T00:00:00Z',
      simNow: Date.parse('2026-12-01T00:00:00Z'),
      replaced: /SIM_EPOCH changed \(unset -> 2026-12-01/,
    },
    {
      name: 'a clock of an old fixed epoch far ahead (the year 2823): starts over at the real time',
      stored: { realMs: Date.parse('2026-11-01T00:00:00Z'), simMs: Date.parse('2026-11-01T00:00:00Z'), speed: 12_000, epoch: null },
      speed: 12_000,
      epoch: null,
      simNow: NOW,
      replaced: /days ahead of real time/,
    },
    { name: 'SIM_EPOCH beyond a season: refused, real time', stored: null, speed: 10, epoch: '2031-01-01T00:00:00Z', simNow: NOW, replaced: /days ahead/ },
  ];
  for (const c of cases) {
    it(`${c.replaced ? 'error' : 'happy'}: ${c.name}`, () => {
      const { anchor, replaced } = reconcileAnchor(c.stored, { speed: c.speed, epoch: c.epoch }, NOW);
      expect(simAt(anchor, NOW)).to.equal(c.simNow);
      expect(anchor.speed).to.equal(c.speed);
      if (c.replaced) expect(replaced).to.match(c.replaced);
      else expect(replaced).to.equal(undefined);
      expect(simAt(anchor, NOW) - NOW).to.be.at.most(MAX_LEAD_MS);
    });
  }

  it('error: an unreadable stored anchor reads as none', () => {
    for (const raw of ['', 'not json', '{"realMs":1}', '42', 'null', '{"realMs":1,"simMs":2,"speed":1.5,"epoch":null}']) expect(parseAnchor(raw), raw).to.equal(null);
    expect(parseAnchor('{"realMs":1,"simMs":2,"speed":3,"epoch":null}')).to.deep.equal({ realMs: 1, simMs: 2, speed: 3, epoch: null });
  });

  it('happy: skipAnchor moves the clock forward to a later instant from now on, keeping speed and epoch; never back', () => {
    const a = { realMs: NOW - 10_000, simMs: 1_000_000, speed: 100, epoch: '2022-08-05T16:00:00.000Z' };
    const at = simAt(a, NOW);
    const skipped = skipAnchor(a, NOW, at + 86_400_000)!;
    expect(simAt(skipped, NOW)).to.equal(at + 86_400_000);
    expect(simAt(skipped, NOW + 1000)).to.equal(at + 86_400_000 + 100_000);
    expect(skipped).to.include({ speed: 100, epoch: a.epoch });
    expect(skipAnchor(a, NOW, at), 'already there').to.equal(null);
    expect(skipAnchor(a, NOW, at - 1), 'backwards').to.equal(null);
    expect(skipAnchor(a, NOW, Number.NaN), 'not a time').to.equal(null);
  });
});
