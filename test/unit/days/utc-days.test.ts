import { expect } from 'chai';
import { addDays, dayOf, dayRange, DAY_MS, daysBefore, epochDay, utcDay, utcDayRange, utcDayStart } from '../../../shared/domain/days';

describe('UTC days and day arithmetic (shared/days)', () => {
  // instant, its UTC day
  const days: [string, string][] = [
    ['2024-05-01T23:30:00-02:00', '2024-05-02'], // a negative offset late in the evening is already tomorrow in UTC
    ['2024-05-02T00:30:00+02:00', '2024-05-01'],
    ['2024-12-31T23:59:59.999Z', '2024-12-31'],
    ['2025-01-01T00:00:00.000Z', '2025-01-01'],
    ['2024-02-29T12:00:00Z', '2024-02-29'],
    ['1970-01-01T00:00:00Z', '1970-01-01'],
  ];
  for (const [at, day] of days) {
    it(`${at} falls on the UTC day ${day}`, () => {
      expect(utcDay(new Date(at))).to.equal(day);
      expect(dayOf(new Date(at), 'UTC')).to.equal(day);
    });
  }

  // day, n, day n days later
  const sums: [string, number, string][] = [
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-01-01', -1, '2023-12-31'],
    ['2024-03-31', -30, '2024-03-01'],
    ['2024-03-10', 1, '2024-03-11'], // a DST change elsewhere is not a UTC matter
    ['2024-06-15', 0, '2024-06-15'],
    ['2024-12-31', 366, '2026-01-01'],
  ];
  for (const [day, n, expected] of sums) {
    it(`${day} plus ${n} days is ${expected}`, () => expect(addDays(day, n)).to.equal(expected));
  }

  it('a UTC day is [its midnight, the next midnight), DAY_MS long, the same as the UTC zone gives', () => {
    for (const day of ['2024-02-29', '2024-03-31', '2024-11-03', '2030-06-01']) {
      const r = utcDayRange(day);
      expect(r.gte.toISOString()).to.equal(`${day}T00:00:00.000Z`);
      expect(r.lt.getTime() - r.gte.getTime()).to.equal(DAY_MS);
      expect(r).to.deep.equal(dayRange(day, 'UTC'));
    }
  });

  // not a real YYYY-MM-DD day
  for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-1-01', '20240101', '', 'yesterday', '2024-06-01T00:00:00Z']) {
    it(`"${bad}" is not a day: RangeError`, () => {
      expect(() => utcDayStart(bad)).to.throw(RangeError);
      expect(() => addDays(bad, 1)).to.throw(RangeError);
    });
  }

  it('a look-back cutoff is whole DAY_MS steps before the instant, from a Date or epoch ms', () => {
    const at = new Date('2024-03-31T12:00:00Z');
    expect(daysBefore(at, 1).toISOString()).to.equal('2024-03-30T12:00:00.000Z');
    expect(daysBefore(at.getTime(), 14).toISOString()).to.equal('2024-03-17T12:00:00.000Z');
    expect(daysBefore(at, 0).getTime()).to.equal(at.getTime());
  });

  // epoch ms, whole UTC days since 1970-01-01
  const epochs: [number, number][] = [
    [0, 0],
    [DAY_MS - 1, 0],
    [DAY_MS, 1],
    [-1, -1], // before the epoch rounds down, not toward zero
    [Date.parse('2024-06-01T23:59:59Z'), 19875],
  ];
  for (const [ms, day] of epochs) {
    it(`epoch ms ${ms} is epoch day ${day}`, () => expect(epochDay(ms)).to.equal(day));
  }
});
