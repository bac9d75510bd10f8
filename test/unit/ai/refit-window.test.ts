import { expect } from 'chai';
import { refitWindowDue, refitWindowOf } from '../../../shared/domain/ai/refitWindow';

describe('refit once per hour of the world clock (pure)', () => {
  const rows: [string, string | null, string, string | null][] = [
    ['first check asks', null, '2018-08-10T11:55:00Z', '2018081011'],
    ['same world hour: nothing', '2018081011', '2018-08-10T11:59:59Z', null],
    ['next world hour asks', '2018081011', '2018-08-10T12:00:00Z', '2018081012'],
    // At 3000x a real minute is two world days: one refit per check, for the hour the world is in.
    ['two days later asks once, for that hour', '2018081012', '2018-08-12T13:10:00Z', '2018081213'],
    ['a world clock set back (new SIM_EPOCH) asks too', '2026112517', '2018-08-10T11:00:00Z', '2018081011'],
  ];
  for (const [name, last, now, want] of rows) it(name, () => expect(refitWindowDue(last, new Date(now))).to.equal(want));
  it('the window is the UTC hour of the world instant', () => expect(refitWindowOf(new Date('2026-11-25T17:07:00+02:00'))).to.equal('2026112515'));
});
