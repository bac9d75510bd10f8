import { expect } from 'chai';
import { countListing, listingFieldsOf, listingIds, mostViewed, listingPage, listingStats, marketCountOf, sortedListing, type ListingRow } from '../../../shared/domain/listing/rows';

const T0 = Date.parse('2026-11-26T12:00:00Z');
const row = (st: string, minutes: number, extra: Partial<ListingRow> = {}): ListingRow => ({ s: 1, c: 10, r: 1, st, t: T0 + minutes * 60_000, p: 0, ...extra });

// Ids chosen so that id order and start order differ, and two events share a start.
const LISTING = sortedListing([
  ['9', row('upcoming', 30)],
  ['10', row('live', -20, { p: 100 })],
  ['11', row('upcoming', 30, { c: 20, r: 2 })],
  ['12', row('completed', -200, { s: 2 })],
  ['13', row('live', -10, { p: 50, s: 2 })],
  ['14', row('postponed', 60)],
]);

describe('listing rows (pure)', () => {
  describe('the page and count of a filter come from one snapshot', () => {
    const cases: { name: string; filter: Parameters<typeof listingPage>[1]; sort?: 'start' | 'priority'; page?: number; limit?: number; ids: string[]; count: number }[] = [
      { name: 'everything, soonest first, ties by id (as strings)', filter: {}, ids: ['12', '10', '13', '11', '9', '14'], count: 6 },
      { name: 'a status set', filter: { status: ['upcoming', 'live'] }, ids: ['10', '13', '11', '9'], count: 4 },
      { name: 'a sport', filter: { sportId: 2 }, ids: ['12', '13'], count: 2 },
      { name: 'a competition and region', filter: { competitionId: 20, regionId: 2 }, ids: ['11'], count: 1 },
      { name: 'a half-open start range', filter: { startGte: T0 - 20 * 60_000, startLt: T0 + 60 * 60_000 }, ids: ['10', '13', '11', '9'], count: 4 },
      { name: 'page 2 of 2', filter: {}, page: 2, limit: 4, ids: ['9', '14'], count: 6 },
      { name: 'a page past the end', filter: {}, page: 3, limit: 4, ids: [], count: 6 },
      { name: 'live by priority, then start', filter: { status: ['live'] }, sort: 'priority', ids: ['10', '13'], count: 2 },
      { name: 'nothing matches', filter: { status: ['cancelled'] }, ids: [], count: 0 },
    ];
    for (const c of cases) {
      it(`happy: ${c.name}`, () => {
        expect(listingPage(LISTING, c.filter, { sort: c.sort ?? 'start', page: c.page ?? 1, limit: c.limit ?? 100 })).to.deep.equal({ ids: c.ids, count: c.count });
      });
    }
    it('edge: the count does not depend on the page asked for', () => {
      const counts = [1, 2, 3].map((page) => listingPage(LISTING, {}, { sort: 'start', page, limit: 2 }).count);
      expect(counts).to.deep.equal([6, 6, 6]);
      const ids = [1, 2, 3].flatMap((page) => listingPage(LISTING, {}, { sort: 'start', page, limit: 2 }).ids);
      expect(new Set(ids).size).to.equal(6);
    });
  });

  describe('the listing fields an event write sets', () => {
    it('happy: an insert gives the whole row', () => {
      const set = { sportId: 1, competitionId: 10, regionId: 1, status: 'upcoming', startDateTime: new Date(T0), priority: 80, homeTeam: {}, markets: [] };
      expect(listingFieldsOf(set)).to.deep.equal({ s: 1, c: 10, r: 1, st: 'upcoming', t: T0, p: 80 });
    });
    it('happy: an update gives only what it changes', () => {
      expect(listingFieldsOf({ status: 'live', startedAt: new Date(T0) })).to.deep.equal({ st: 'live' });
      expect(listingFieldsOf({ startDateTime: new Date(T0 + 1) })).to.deep.equal({ t: T0 + 1 });
    });
    it('edge: a write of no listing field gives nothing to write', () => {
      expect(listingFieldsOf({ stats: { homeGoals: 1 }, lineups: null })).to.equal(null);
    });
    it('edge: a missing priority counts as 0', () => {
      expect(listingFieldsOf({ priority: null })).to.deep.equal({ p: 0 });
    });
  });

  describe('counts per field and the stats of one snapshot', () => {
    const cases: { name: string; filter: Parameters<typeof countListing>[1]; by: 's' | 'c' | 'r'; counts: [number, number][] }[] = [
      {
        name: 'every event per sport',
        filter: {},
        by: 's',
        counts: [
          [1, 4],
          [2, 2],
        ],
      },
      {
        name: 'open events per competition',
        filter: { status: ['upcoming', 'live'] },
        by: 'c',
        counts: [
          [10, 3],
          [20, 1],
        ],
      },
      {
        name: 'a sport per region',
        filter: { sportId: 1 },
        by: 'r',
        counts: [
          [1, 3],
          [2, 1],
        ],
      },
      { name: 'nothing matches', filter: { status: ['cancelled'] }, by: 'c', counts: [] },
    ];
    for (const c of cases) {
      it(`happy: ${c.name}`, () => {
        expect([...countListing(LISTING, c.filter, c.by)].sort((a, b) => a[0] - b[0])).to.deep.equal(c.counts);
      });
    }
    it('happy: stats count statuses, sports by status, and the markets of open events only', () => {
      const listing = sortedListing([
        ['a', row('upcoming', 30, { m: 12 })],
        ['b', row('live', -10, { m: 5, s: 2 })],
        ['c', row('completed', -200, { m: 40 })],
        ['d', row('upcoming', 60)],
      ]);
      const stats = listingStats(listing);
      expect([...stats.byStatus]).to.have.deep.members([
        ['upcoming', 2],
        ['live', 1],
        ['completed', 1],
      ]);
      expect([...stats.bySportStatus.get(1)!]).to.have.deep.members([
        ['upcoming', 2],
        ['completed', 1],
      ]);
      expect(stats.openMarkets).to.equal(17);
      expect(stats.unknownMarkets.map(([id]) => id)).to.deep.equal(['d']);
    });
    it('happy: a prices write that sets the markets gives their count; one that does not, nothing', () => {
      expect(marketCountOf({ markets: [{}, {}, {}] })).to.deep.equal({ m: 3 });
      expect(marketCountOf({ analysisVersion: 4 })).to.deep.equal({});
    });
  });

  describe('the trending list: most viewed first, then soonest, then by id', () => {
    const views = new Map([
      ['9', 5],
      ['11', 5],
      ['13', 9],
    ]);
    const cases: { name: string; filter: Parameters<typeof mostViewed>[1]; limit: number; ids: string[] }[] = [
      { name: 'every event, ties broken by start then id', filter: {}, limit: 10, ids: ['13', '11', '9', '12', '10', '14'] },
      { name: 'the top two of the open ones', filter: { status: ['upcoming', 'live'] }, limit: 2, ids: ['13', '11'] },
      { name: 'a sport without views: soonest first', filter: { sportId: 1, status: ['live', 'postponed'] }, limit: 5, ids: ['10', '14'] },
    ];
    for (const c of cases) {
      it(`happy: ${c.name}`, () => {
        expect(mostViewed(LISTING, c.filter, views, c.limit)).to.deep.equal(c.ids);
      });
    }
    it("happy: the candidates are the filter's events, soonest first", () => {
      expect(listingIds(LISTING, { status: ['upcoming'] })).to.deep.equal(['11', '9']);
    });
  });
});
