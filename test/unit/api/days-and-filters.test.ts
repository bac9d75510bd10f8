import { expect } from 'chai';
import { listingFilter, searchPattern, todayFilter, zoneKey } from '../../../api/queries/filters';
import { dayOf, dayRange, daySpan, isValidTimeZone } from '../../../shared/domain/days';

const iso = (d: Date | undefined) => d?.toISOString();

describe('calendar days in a time zone (shared/days)', () => {
  // day, zone, first instant, first instant of the next day, hours
  const rows: [string, string, string, string, number][] = [
    ['2024-03-10', 'UTC', '2024-03-10T00:00:00.000Z', '2024-03-11T00:00:00.000Z', 24],
    ['2024-03-10', 'America/New_York', '2024-03-10T05:00:00.000Z', '2024-03-11T04:00:00.000Z', 23], // DST starts
    ['2024-11-03', 'America/New_York', '2024-11-03T04:00:00.000Z', '2024-11-04T05:00:00.000Z', 25], // DST ends
    ['2024-03-31', 'Europe/Madrid', '2024-03-30T23:00:00.000Z', '2024-03-31T22:00:00.000Z', 23],
    ['2024-06-01', 'Asia/Tokyo', '2024-05-31T15:00:00.000Z', '2024-06-01T15:00:00.000Z', 24],
    ['2024-06-01', 'Asia/Kolkata', '2024-05-31T18:30:00.000Z', '2024-06-01T18:30:00.000Z', 24],
    ['2024-06-01', 'Pacific/Kiritimati', '2024-05-31T10:00:00.000Z', '2024-06-01T10:00:00.000Z', 24],
    ['2024-06-01', 'Pacific/Pago_Pago', '2024-06-01T11:00:00.000Z', '2024-06-02T11:00:00.000Z', 24],
    ['2024-02-29', 'America/Sao_Paulo', '2024-02-29T03:00:00.000Z', '2024-03-01T03:00:00.000Z', 24],
  ];
  for (const [day, zone, start, end, hours] of rows) {
    it(`${day} in ${zone} is [${start}, ${end}) (${hours} h)`, () => {
      const r = dayRange(day, zone);
      expect(iso(r.gte)).to.equal(start);
      expect(iso(r.lt)).to.equal(end);
      expect((r.lt.getTime() - r.gte.getTime()) / 3600e3).to.equal(hours);
    });
  }

  it('a span runs from the start of its first day to the end of its last, either end open', () => {
    expect(daySpan('2024-06-01', '2024-06-03', 'Asia/Tokyo')).to.deep.equal({
      gte: new Date('2024-05-31T15:00:00Z'),
      lt: new Date('2024-06-03T15:00:00Z'),
    });
    expect(daySpan('2024-06-01', undefined, 'UTC')).to.deep.equal({ gte: new Date('2024-06-01T00:00:00Z') });
    expect(daySpan(undefined, '2024-06-01', 'UTC')).to.deep.equal({ lt: new Date('2024-06-02T00:00:00Z') });
    expect(daySpan(undefined, undefined, 'UTC')).to.deep.equal({});
  });

  it('the day an instant falls on depends on the zone', () => {
    const at = new Date('2024-06-01T23:30:00Z');
    expect(dayOf(at, 'UTC')).to.equal('2024-06-01');
    expect(dayOf(at, 'Asia/Tokyo')).to.equal('2024-06-02');
    expect(dayOf(at, 'America/Los_Angeles')).to.equal('2024-06-01');
    expect(todayFilter('Asia/Tokyo', at)).to.deep.equal({
      day: '2024-06-02',
      range: { gte: new Date('2024-06-01T15:00:00Z'), lt: new Date('2024-06-02T15:00:00Z') },
    });
  });

  it('time zone names are canonicalized for cache keys', () => {
    expect(zoneKey('utc')).to.equal('UTC');
    expect(zoneKey('america/new_york')).to.equal('America/New_York');
    expect(zoneKey(undefined)).to.equal('UTC');
  });
});

describe('event filters from validated queries (api/queries/filters)', () => {
  it("happy: converts every filter to its stored type (the listing's rows), no operator from the client", () => {
    const f = listingFilter({
      status: ['live', 'upcoming', 'live'],
      competitionId: '0010',
      regionId: '2',
      sportName: 'ice-hockey',
      date: '2024-03-10',
      timezone: 'America/New_York',
    });
    expect(f).to.deep.equal({
      status: ['live', 'upcoming'],
      competitionId: 10,
      regionId: 2,
      sportId: 7,
      startGte: Date.parse('2024-03-10T05:00:00Z'),
      startLt: Date.parse('2024-03-11T04:00:00Z'),
    });
  });

  it('happy: no date filter means no start-time condition; startDate alone is open-ended', () => {
    expect(listingFilter({ status: ['completed'] })).to.deep.equal({ status: ['completed'] });
    expect(listingFilter({ startDate: '2024-06-01', timezone: 'Asia/Tokyo' })).to.deep.equal({ startGte: Date.parse('2024-05-31T15:00:00Z') });
  });

  it('security: team search text is folded and every regex metacharacter escaped', () => {
    expect(searchPattern('Atlético  MADRID')).to.equal('atletico madrid');
    expect(searchPattern('São')).to.equal('sao');
    expect(searchPattern('a.b')).to.equal('a\\.b');
    expect(new RegExp(searchPattern('x.*(y)|[z]\\')).test('x.*(y)|[z]\\')).to.equal(true);
    expect(new RegExp(searchPattern('.*')).test('anything')).to.equal(false);
  });
});

describe('time zone names', () => {
  it('edge: IANA names are zones; offsets (which Intl takes since Node 24), blanks and made-up names are not (table)', () => {
    const rows: [string, boolean][] = [
      ['UTC', true],
      ['Europe/Madrid', true],
      ['america/new_york', true],
      ['Etc/GMT+5', true],
      ['+05:00', false],
      ['-03:30', false],
      ['0', false],
      ['', false],
      ['Mars/Olympus_Mons', false],
    ];
    for (const [name, valid] of rows) expect(isValidTimeZone(name), name).to.equal(valid);
  });
});
