import { expect } from 'chai';
import { msToNextSlot, SLOT_MARGIN_MS } from '../../../shared/domain/ingest/slots';

describe('poll slots: the wait until the next slot begins (pure)', () => {
  const cases: [string, number, number, number][] = [
    ['at a slot start: the whole next interval', 30_000, 30_000, 30_000 + SLOT_MARGIN_MS],
    ['one ms into a slot', 30_001, 30_000, 29_999 + SLOT_MARGIN_MS],
    ['half-way', 45_000, 30_000, 15_000 + SLOT_MARGIN_MS],
    ['one ms before the next', 59_999, 30_000, 1 + SLOT_MARGIN_MS],
    ['2 s slots (demo speed)', 1_796_285_187_089, 2000, 911 + SLOT_MARGIN_MS],
    ['a clock before 1970 (negative): still within an interval', -500, 2000, 500 + SLOT_MARGIN_MS],
  ];
  for (const [title, now, interval, want] of cases) {
    it(`${title}: ${now} every ${interval} -> ${want}`, () => {
      expect(msToNextSlot(now, interval)).to.equal(want);
      // The wait lands past the next slot's start by the margin, never in the slot before.
      expect(Math.floor((now + msToNextSlot(now, interval)) / interval)).to.equal(Math.floor(now / interval) + 1);
    });
  }
  it('a margin of its own', () => expect(msToNextSlot(45_000, 30_000, 0)).to.equal(15_000));
});
