import { expect } from 'chai';
import { clockAt, liveStatsView, snapshotSources, snapshotView, type LiveDataView, type PricesView } from '../../../shared/domain/events/liveViews';

const T0 = new Date('2026-11-21T12:00:00Z');
const secs = (s: number) => new Date(T0.getTime() + s * 1000);

const HOME = '555-SOCCER_MATCH_RESULT-1';
const DRAW = '555-SOCCER_MATCH_RESULT-X';
const AWAY = '555-SOCCER_MATCH_RESULT-2';

/** Stored prices that moved at T0: the home price from 2.1 to 2.0 (book-a 2.1 -> 2.05); book-b quotes only the draw. */
function prices(over: Partial<PricesView> = {}): PricesView {
  return {
    dataSource: 'simulated',
    markets: [
      {
        id: '555-SOCCER_MATCH_RESULT',
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        line: null,
        betItems: [
          { id: HOME, code: '1', price: 2.0, isAvailable: true, bookPrices: { 'book-a': 2.05 } },
          { id: DRAW, code: 'X', price: 3.4, isAvailable: true, bookPrices: { 'book-a': 3.3, 'book-b': 3.5 } },
          { id: AWAY, code: '2', price: 3.6, isAvailable: false, bookPrices: { 'book-a': 3.6 } },
        ],
      },
    ],
    previous: [{ id: HOME, price: 2.1, bookPrices: { 'book-a': 2.1 } }],
    movedAt: T0,
    ...over,
  };
}

const live = (over: LiveDataView = {}): LiveDataView => ({
  homeGoals: 1,
  awayGoals: 0,
  homeCorners: 3,
  phaseSysname: 'FIRST_HALF',
  isLive: true,
  isInPlay: true,
  elapsedSeconds: 600,
  elapsedAt: T0,
  clockRate: 1,
  ...over,
});

/** The home item's priceChange in the flat live stats and in the consensus snapshot. */
function homeChange(p: PricesView, at: Date): { liveBetItem: number | null; snapshot: number | null } {
  const item = liveStatsView('555', live(), p, at)!.liveBetItems.find((i) => i.betItemId === HOME)!;
  const snap = snapshotView(p, p.dataSource, at, false)!.liveMarkets[0].betItems.find((i) => i.betItemId === HOME)!;
  return { liveBetItem: item.priceChange, snapshot: snap.priceChange };
}

describe('live views built at read time (shared/domain/events/liveViews)', () => {
  describe('priceChange: the move when it happened at the served instant, else 0', () => {
    const rows: [string, PricesView, Date, { liveBetItem: number | null; snapshot: number | null }][] = [
      ['served at the move (movedAt = freshness): 2.0 - 2.1', prices(), T0, { liveBetItem: -0.1, snapshot: -0.1 }],
      ['served at a later poll (nothing moved since): 0', prices(), secs(10), { liveBetItem: 0, snapshot: 0 }],
      ['the price before unknown (null): null in the snapshot, 0 in the live bet items', prices({ previous: [{ id: HOME, price: null }] }), T0, { liveBetItem: 0, snapshot: null }],
      ['the price before unknown, served later: 0', prices({ previous: [{ id: HOME, price: null }] }), secs(10), { liveBetItem: 0, snapshot: 0 }],
      ['the item did not move (no price before): 0', prices({ previous: [] }), T0, { liveBetItem: 0, snapshot: 0 }],
      ['no previous recorded at all: 0', prices({ previous: null }), T0, { liveBetItem: 0, snapshot: 0 }],
    ];
    for (const [name, p, at, want] of rows) it(`${name} -> ${JSON.stringify(want)}`, () => expect(homeChange(p, at)).to.deep.equal(want));

    it("a book's snapshot changes by that book's price before", () => {
      const bookA = snapshotView(prices(), 'book-a', T0, false)!;
      expect(bookA.liveMarkets[0].betItems.map((i) => [i.betItemId, i.price, i.priceChange])).to.deep.equal([
        [HOME, 2.05, -0.05],
        [DRAW, 3.3, 0],
        [AWAY, 3.6, 0],
      ]);
      expect(snapshotView(prices(), 'book-a', secs(10), false)!.liveMarkets[0].betItems.map((i) => i.priceChange)).to.deep.equal([0, 0, 0]);
    });
  });

  describe('snapshots per dataSource', () => {
    it("a book's snapshot shows only the items that book quotes", () => {
      const bookB = snapshotView(prices(), 'book-b', T0, true)!;
      expect(bookB).to.deep.include({ dataSource: 'book-b', capturedAt: T0, stale: true });
      expect(bookB.liveMarkets).to.have.length(1);
      expect(bookB.liveMarkets[0].betItems).to.deep.equal([{ betItemId: DRAW, code: 'X', price: 3.5, priceChange: 0, isAvailable: true }]);
    });

    it('the consensus snapshot shows every item, availability included', () => {
      const consensus = snapshotView(prices(), 'simulated', T0, false)!;
      expect(consensus.liveMarkets[0]).to.deep.include({ marketId: '555-SOCCER_MATCH_RESULT', marketSysname: 'SOCCER_MATCH_RESULT', marketCaption: 'Match Result', line: null });
      expect(consensus.liveMarkets[0].betItems.map((i) => [i.code, i.price, i.isAvailable])).to.deep.equal([
        ['1', 2.0, true],
        ['X', 3.4, true],
        ['2', 3.6, false],
      ]);
    });

    const nulls: [string, PricesView, string, boolean][] = [
      ['a book that quotes nothing of the event', prices(), 'book-z', true],
      ['a book, the event without prices', prices({ markets: [] }), 'book-a', true],
      ['the consensus of an event without prices: an empty snapshot', prices({ markets: [] }), 'simulated', false],
    ];
    for (const [name, p, ds, isNull] of nulls) it(`${name} -> ${isNull ? 'null' : 'a snapshot'}`, () => expect(snapshotView(p, ds, T0, false) === null).to.equal(isNull));

    it('the snapshot instant is the freshness, else the prices’ own move', () => {
      expect(snapshotView(prices(), 'simulated', secs(30), false)!.capturedAt).to.deep.equal(secs(30));
      expect(snapshotView(prices(), 'simulated', null, false)!.capturedAt).to.deep.equal(T0);
    });

    const sources: [string, PricesView, string[]][] = [
      ['the provider first, then the books sorted', prices(), ['simulated', 'book-a', 'book-b']],
      [
        'books in any order of appearance come out sorted',
        prices({ markets: [{ id: 'm', betTypeSysname: 'SOCCER_MATCH_RESULT', betItems: [{ id: 'i', code: '1', price: 2, bookPrices: { zed: 2, alpha: 2, mid: 2 } }] }] }),
        ['simulated', 'alpha', 'mid', 'zed'],
      ],
      ['a book named as the provider is listed once, first', prices({ dataSource: 'book-b' }), ['book-b', 'book-a']],
      ['no prices: the provider alone', prices({ markets: [] }), ['simulated']],
    ];
    for (const [name, p, want] of sources) it(`snapshotSources: ${name}`, () => expect(snapshotSources(p)).to.deep.equal(want));
  });

  describe('liveStatsView', () => {
    it('null without live data', () => {
      expect(liveStatsView('555', null, prices(), T0)).to.equal(null);
    });

    const clocks: [string, LiveDataView, Date | null, number | null, string][] = [
      ['in play at rate 1: the clock runs on to the freshness', live(), secs(30), 630, secs(30).toISOString()],
      ['in a break the clock stands', live({ isInPlay: false, clockRate: null, phaseSysname: 'HALF_TIME', elapsedSeconds: 2700 }), secs(300), 2700, secs(300).toISOString()],
      ['a basketball quarter at 0.48', live({ phaseSysname: 'FIRST_QUARTER', elapsedSeconds: 300, clockRate: 0.48 }), secs(100), 348, secs(100).toISOString()],
      ['no rate yet: the reading', live({ clockRate: null }), secs(30), 600, secs(30).toISOString()],
      ['no clock reading: null', live({ elapsedSeconds: null }), secs(30), null, secs(30).toISOString()],
      ['no freshness recorded: the reading, at its own instant', live(), null, 600, T0.toISOString()],
    ];
    for (const [name, l, freshness, elapsed, reference] of clocks) {
      it(`${name}: elapsedSeconds ${elapsed}, referenceTime ${reference}`, () => {
        const ls = liveStatsView('555', l, prices(), freshness)!;
        expect(ls.elapsedSeconds).to.equal(elapsed);
        expect(ls.referenceTime).to.equal(reference);
        expect(ls.isInPlay).to.equal(l.isInPlay);
      });
    }

    it('counts and phase from the live data, every price as a live bet item stamped with the served instant', () => {
      const ls = liveStatsView('555', live(), prices(), secs(30))!;
      expect(ls).to.include({ id: '555', homeGoals: 1, awayGoals: 0, homeCorners: 3, awayCorners: null, phaseSysname: 'FIRST_HALF', isLive: true, capturedAt: secs(30).toISOString() });
      expect(ls.phaseCaption).to.deep.include({ en: '1H' });
      expect(ls.phaseCaptionLong).to.deep.include({ en: 'First half' });
      expect(ls.liveBetItems.map((i) => [i.betItemId, i.caption, i.price, i.isAvailable, i.timestamp])).to.deep.equal([
        [HOME, 'Home', 2.0, true, String(secs(30).getTime())],
        [DRAW, 'Draw', 3.4, true, String(secs(30).getTime())],
        [AWAY, 'Away', 3.6, false, String(secs(30).getTime())],
      ]);
    });

    it('without prices: no live bet items', () => {
      expect(liveStatsView('555', live(), null, secs(30))!.liveBetItems).to.deep.equal([]);
    });
  });

  describe('clockAt', () => {
    const rows: [string, Parameters<typeof clockAt>[0], Date, number | null][] = [
      ['in play, rate 1, 45 s on', live(), secs(45), 645],
      ['in play, an instant before the reading: the reading', live(), secs(-45), 600],
      ['not in play: stands', live({ isInPlay: false }), secs(45), 600],
      ['no reading instant: the reading', live({ elapsedAt: null }), secs(45), 600],
      ['no reading: null', live({ elapsedSeconds: null }), secs(45), null],
    ];
    for (const [name, l, at, want] of rows) it(`${name} -> ${want}`, () => expect(clockAt(l, at)).to.equal(want));
  });
});
