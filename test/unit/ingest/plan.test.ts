import { expect } from 'chai';
import { liveStatsView, snapshotSources, snapshotView, type PricesView } from '../../../shared/domain/events/liveViews';
import { closingLineOf } from '../../../shared/domain/ingest/closing';
import { clockOnTrack, consensusPrice, extrapolateClock, planIngest, settleable, type DocWrite, type FeedBatch, type PrevLive, type PrevState } from '../../../shared/domain/ingest/plan';
import type { PrevEvent, StoredMarket } from '../../../shared/domain/ingest/stored';
import type { FeedEvent, FeedLiveStats, FeedOdds, FeedResult, FeedStatus } from '../../../shared/domain/providers/types';
import { EMPTY_STATS, type EventStats } from '../../../shared/domain/stats';

const T0 = new Date('2026-11-21T12:00:00Z');
const NOW = new Date('2026-11-21T12:00:05Z');
/** T0 plus `s` world seconds. */
const secs = (s: number) => new Date(T0.getTime() + s * 1000);

const ITEM = { home: '555-SOCCER_MATCH_RESULT-1', draw: '555-SOCCER_MATCH_RESULT-X', away: '555-SOCCER_MATCH_RESULT-2' };

type Plan = ReturnType<typeof planIngest>;
type Previous = Map<string, PrevState>;

function event(status: FeedStatus, over: Partial<FeedEvent> = {}): FeedEvent {
  return {
    eventId: '555',
    providerEventId: '555',
    sportId: 1,
    competition: { id: 101, name: 'UEFA Champions League', regionCode: 'EU', priority: 100 },
    homeTeam: { name: 'Spain', regionCode: 'ES' },
    awayTeam: { name: 'Ashford United', regionCode: 'GB-ENG' },
    startDateTime: T0,
    status,
    voided: false,
    startedAt: status === 'upcoming' ? null : T0,
    endedAt: null,
    lineups: null,
    ...over,
  };
}

function odds(prices: (number | null)[][], over: Partial<FeedOdds> = {}): FeedOdds {
  return {
    eventId: '555',
    at: T0,
    bookmakers: ['book-a', 'book-b', 'book-c'],
    markets: [{ betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, items: ['1', 'X', '2'].map((code, i) => ({ code, prices: prices[i] })) }],
    ...over,
  };
}

const stats = (h: number | null, a: number | null, over: Partial<EventStats> = {}): EventStats => ({ ...EMPTY_STATS, homeGoals: h, awayGoals: a, ...over });

function batch(events: FeedEvent[], parts: { odds?: FeedOdds[] | null; live?: FeedLiveStats[] | null; results?: FeedResult[] | null; at?: Date } = {}): FeedBatch {
  const map = <T extends { eventId: string }>(x: T[] | null | undefined) => (x === null ? null : new Map((x ?? []).map((v) => [v.eventId, v])));
  return { provider: 'simulated', capturedAt: parts.at ?? T0, events, odds: map(parts.odds), live: map(parts.live), results: map(parts.results) };
}

/** The stored state after a plan's writes (its `next`), with some of the event's fields overridden. */
function stateOf(plan: Plan, over: Partial<PrevEvent> = {}): Previous {
  const s = plan.next.get('555')!;
  return new Map([['555', { ...s, event: { ...s.event, ...over } }]]);
}

function only(writes: DocWrite[], what: string): DocWrite {
  expect(
    writes.map((w) => w.id),
    what,
  ).to.deep.equal(['555']);
  return writes[0];
}

/** The fields the plan writes on the event document. */
const setOf = (plan: Plan) => only(plan.events, 'one event write').set;
/** The markets of the prices document the plan writes. */
const marketsOf = (plan: Plan) => only(plan.prices, 'one prices write').set.markets as StoredMarket[];
/** What each write list of a plan holds, by count. */
const written = (plan: Plan) => ({ events: plan.events.length, prices: plan.prices.length, liveData: plan.liveData.length, history: plan.history.length });
const NOTHING = { events: 0, prices: 0, liveData: 0, history: 0 };

/** A live reading of the event: 1-0, first half, in play. */
function reading(elapsedSeconds: number | null, over: Partial<FeedLiveStats> = {}): FeedLiveStats {
  return {
    eventId: '555',
    stats: stats(1, 0, { homeCorners: 2, awayCorners: 1 }),
    phaseSysname: 'FIRST_HALF',
    elapsedSeconds,
    isLive: true,
    isInPlay: true,
    referenceTime: T0,
    details: { goals: [] },
    ...over,
  };
}

const liveOdds = (over: Partial<FeedOdds> = {}) =>
  odds(
    [
      [1.6, 1.62, 1.7],
      [3.8, 3.9, 4.0],
      [5.5, 5.6, 5.7],
    ],
    over,
  );

/** One poll of the live event `s` world seconds after T0. */
function livePoll(previous: Previous, s: number, live: FeedLiveStats | null, o: FeedOdds = liveOdds(), over: Partial<FeedEvent> = {}): Plan {
  return planIngest(batch([event('live', over)], { odds: [o], live: live ? [{ ...live, referenceTime: secs(s) }] : [], at: secs(s) }), previous, secs(s));
}

/** A live event first seen at 600 s, read again at 610 s ten seconds later: its clock's rate (1) is known. */
function liveWithRate(): { first: Plan; second: Plan } {
  const first = livePoll(new Map(), 0, reading(600));
  const second = livePoll(first.next, 10, reading(610));
  return { first, second };
}

describe('ingest planner', () => {
  describe('happy: documents', () => {
    it('consensus is the median of the books (the lower middle for an even count)', () => {
      expect(consensusPrice([2.1, 2.0, 2.2])).to.equal(2.1);
      expect(consensusPrice([2.1, null, 2.0, 2.3, 2.2])).to.equal(2.1);
      expect(consensusPrice([null, null])).to.equal(null);
    });

    it('a new event is inserted whole with localized references; its prices go to their own document', () => {
      const plan = planIngest(
        batch([event('upcoming')], {
          odds: [
            odds([
              [2.1, 2.0, 2.2],
              [3.3, 3.4, null],
              [3.5, 3.6, 3.7],
            ]),
          ],
        }),
        new Map(),
        NOW,
      );
      const write = only(plan.events, 'one event write');
      expect(write.insert).to.equal(true);
      const set = write.set;
      expect(set).to.include({ _id: '555', status: 'upcoming', resultVersion: 0, closingLine: null });
      expect(set.createdAt).to.deep.equal(NOW);
      // Prices, live data and views are stored apart from the event.
      expect(set).to.not.have.any.keys('views', 'markets', 'liveStats');
      expect(set.competition).to.deep.equal({ id: 101, name: { en: 'UEFA Champions League', es: 'Liga de Campeones de la UEFA', pt: 'Liga dos Campeões da UEFA' } });
      expect((set.region as any).name).to.deep.equal({ en: 'Europe', es: 'Europa', pt: 'Europa' });
      // A national team is translated by ICU; a club keeps its name.
      expect((set.homeTeam as any).name).to.deep.equal({ en: 'Spain', es: 'España', pt: 'Espanha' });
      expect((set.awayTeam as any).name).to.deep.equal({ en: 'Ashford United', es: 'Ashford United', pt: 'Ashford United' });
      expect(plan.prices[0].insert).to.equal(true);
      // The AI bookkeeping is kept with the prices: version 1, asked at once.
      expect(plan.prices[0].set).to.include({ analysisVersion: 1, analysisRequestedVersion: 1 });
      const items = marketsOf(plan)[0].betItems;
      expect(items.map((i) => [i.id, i.price, i.isAvailable])).to.deep.equal([
        [ITEM.home, 2.1, true],
        [ITEM.draw, 3.3, true],
        [ITEM.away, 3.6, true],
      ]);
      expect(items[1].bookPrices).to.deep.equal({ 'book-a': 3.3, 'book-b': 3.4 });
      expect(plan.teams.get((set.homeTeam as any).id)!.searchNames).to.deep.equal(['spain', 'espana', 'espanha']);
      // One reprice document holding the three new prices.
      expect(plan.history).to.have.length(1);
      expect(plan.history[0].items.map((i) => i.id)).to.deep.equal([ITEM.home, ITEM.draw, ITEM.away]);
      expect(plan.analyze).to.deep.equal([{ eventId: '555', version: 1 }]);
      // The reference pages' version is moved by the reference writes themselves (shared/platform/ingest/apply.ts), not by an event's.
      expect([...plan.changed]).to.deep.equal(['events']);
    });

    it('an unchanged poll writes nothing and appends no history', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const again = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), first.next, NOW);
      expect(written(again)).to.deep.equal(NOTHING);
      expect(again.analyze).to.have.length(0);
      expect(again.changes).to.deep.equal([]);
    });

    it('a moved price appends one history document keyed by the source time and re-triggers the AI before kickoff', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const at = new Date(T0.getTime() + 60_000);
      const moved = planIngest(batch([event('upcoming')], { odds: [odds([[2.0], [3.3], [3.6]], { at })] }), first.next, NOW);
      expect(moved.history).to.deep.equal([{ _id: `555|simulated|${at.getTime()}`, eventId: '555', dataSource: 'simulated', at, items: [{ id: ITEM.home, price: 2.0 }] }]);
      expect(moved.analyze).to.deep.equal([{ eventId: '555', version: 2 }]);
      // One write: the prices with the AI bookkeeping; the event document (and its views) untouched.
      expect(moved.events).to.deep.equal([]);
      expect(only(moved.prices, 'one prices write').set).to.include({ analysisVersion: 2, analysisRequestedVersion: 2 });
    });

    it('an item no book quotes keeps its last price, unavailable', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const next = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [null], [3.6]])] }), first.next, NOW);
      const items = marketsOf(next)[0].betItems;
      expect(items[1]).to.deep.include({ price: 3.3, isAvailable: false });
    });
  });

  describe('happy: live', () => {
    it('writes live data and prices from which the flat live stats (liveBetItems with priceChange) and one snapshot per dataSource are read', () => {
      const first = planIngest(
        batch([event('upcoming')], {
          odds: [
            odds([
              [2.1, 2.0, 2.2],
              [3.3, 3.4, 3.5],
              [3.6, 3.7, 3.8],
            ]),
          ],
        }),
        new Map(),
        NOW,
      );
      const plan = planIngest(batch([event('live')], { odds: [liveOdds()], live: [reading(600)] }), first.next, NOW);
      const liveDoc = only(plan.liveData, 'one live data write').set;
      expect(liveDoc).to.include({
        eventId: '555',
        homeGoals: 1,
        awayGoals: 0,
        homeCorners: 2,
        awayCorners: 1,
        phaseSysname: 'FIRST_HALF',
        isLive: true,
        isInPlay: true,
        elapsedSeconds: 600,
        dataSource: 'simulated',
      });
      expect(liveDoc.liveDataJson).to.deep.equal({ goals: [] });
      const pricesDoc = only(plan.prices, 'one prices write').set as unknown as PricesView;

      // The read side, over the documents just written, at the provider's freshness (this poll).
      const ls = liveStatsView('555', liveDoc, pricesDoc, pricesDoc.movedAt)!;
      expect(ls).to.include({ id: '555', homeGoals: 1, awayGoals: 0, homeCorners: 2, elapsedSeconds: 600, phaseSysname: 'FIRST_HALF', isLive: true, isInPlay: true });
      expect(ls.phaseCaption.en).to.equal('1H');
      expect(ls.phaseCaptionLong.en).to.equal('First half');
      expect(ls.liveBetItems[0]).to.include({
        betItemId: ITEM.home,
        marketSysname: 'SOCCER_MATCH_RESULT',
        marketCaption: 'Match Result',
        code: '1',
        caption: 'Home',
        price: 1.62,
        priceChange: -0.48,
        isAvailable: true,
        timestamp: String(T0.getTime()),
      });
      expect(snapshotSources(pricesDoc)).to.deep.equal(['simulated', 'book-a', 'book-b', 'book-c']);
      for (const ds of snapshotSources(pricesDoc)) expect(snapshotView(pricesDoc, ds, pricesDoc.movedAt, false), ds).to.not.equal(null);
      const bookA = snapshotView(pricesDoc, 'book-a', pricesDoc.movedAt, false)!;
      expect(bookA.liveMarkets[0].betItems[0]).to.deep.include({ code: '1', price: 1.6, priceChange: -0.5, isAvailable: true });
      expect(bookA).to.include({ stale: false, dataSource: 'book-a' });
      // Live price moves do not re-run the pre-match model; the insight follows the status change once.
      expect(plan.analyze).to.deep.equal([]);
      expect(plan.statusChanges).to.deep.equal([{ eventId: '555', status: 'live', beforeKickoff: false, startDateTime: T0 }]);
    });

    it('a poll with no change writes no price, live-data or event document', () => {
      const { second } = liveWithRate();
      // The second reading set the clock's rate (one clock second per world second), measured from
      // the first reading, which stays the anchor: the clock is served as the anchor run on.
      expect(only(second.liveData, 'the second reading sets the rate').set).to.include({ elapsedSeconds: 600, clockRate: 1 });
      expect(second.next.get('555')!.live).to.deep.include({ elapsedSeconds: 600, elapsedAt: secs(0), clockRate: 1 });
      expect(extrapolateClock(second.next.get('555')!.live!, secs(10))).to.equal(610);
      // Ten world seconds later the same feed, the clock ten seconds on: nothing to write.
      const third = livePoll(second.next, 20, reading(620));
      expect(written(third)).to.deep.equal(NOTHING);
      expect(third.changes).to.deep.equal([]);
      expect(third.counts).to.include({ live: 1, inserted: 0, updated: 0, priceChanges: 0 });
      // The stored state stands as it was.
      expect(third.next.get('555')).to.deep.equal(second.next.get('555'));
    });

    describe('what each change of a live poll writes (the clock running at 1 since 610 s at 10 s)', () => {
      const rows: [string, FeedLiveStats | null, FeedOdds | null, typeof NOTHING, PlanChangeKind[]][] = [
        ['nothing changed', reading(620), null, NOTHING, []],
        [
          'a price moved',
          reading(620),
          liveOdds({ at: secs(20), markets: [{ ...liveOdds().markets[0], items: [{ code: '1', prices: [1.5, 1.52, 1.6] }, ...liveOdds().markets[0].items.slice(1)] }] }),
          { ...NOTHING, prices: 1, history: 1 },
          ['price'],
        ],
        ['a goal', reading(620, { stats: stats(2, 0, { homeCorners: 2, awayCorners: 1 }) }), null, { ...NOTHING, events: 1, liveData: 1 }, ['score']],
        ['half-time: the phase and the in-play flag change', reading(620, { phaseSysname: 'HALF_TIME', isInPlay: false }), null, { ...NOTHING, events: 1, liveData: 1 }, ['score']],
        ['only the detail changed', reading(620, { details: { goals: [{ minute: 9 }] } }), null, { ...NOTHING, liveData: 1 }, []],
        ['only the in-play flag changed (play stopped)', reading(620, { isInPlay: false }), null, { ...NOTHING, liveData: 1 }, []],
        ['the clock left its track', reading(625), null, { ...NOTHING, liveData: 1 }, []],
        ['the clock reading went missing', reading(null), null, { ...NOTHING, liveData: 1 }, []],
        ['no reading for the event this poll: the stored live data stands', null, null, NOTHING, []],
      ];
      for (const [name, live, o, want, kinds] of rows) {
        it(`${name} -> ${JSON.stringify(want)}, changes ${JSON.stringify(kinds)}`, () => {
          const { second } = liveWithRate();
          const plan = livePoll(second.next, 20, live, o ?? liveOdds());
          expect(written(plan)).to.deep.equal(want);
          expect(plan.changes.map((c) => c.kind)).to.deep.equal(kinds);
        });
      }
    });

    it('a reading off the extrapolated track rewrites the live data with the rate measured from the anchor', () => {
      const { second } = liveWithRate();
      const plan = livePoll(second.next, 20, reading(625));
      const doc = only(plan.liveData, 'one live data write');
      expect(doc.insert).to.equal(false);
      // 25 clock seconds in 20 world seconds since the anchor (600 at 0 s): the anchor stays, the rate is 1.25.
      expect(doc.set).to.include({ elapsedSeconds: 600, clockRate: 1.25 });
      expect(doc.set.elapsedAt).to.deep.equal(secs(0));
      expect(extrapolateClock(plan.next.get('555')!.live!, secs(20))).to.equal(625);
      expect(plan.events).to.deep.equal([]);
      // The next poll extrapolates on that track.
      expect(written(livePoll(plan.next, 40, reading(650)))).to.deep.equal(NOTHING);
    });

    it('a clock standing in a break is on track: nothing is written while the break lasts', () => {
      const { second } = liveWithRate();
      const halfTime = livePoll(second.next, 20, reading(2700, { phaseSysname: 'HALF_TIME', isInPlay: false }));
      expect(only(halfTime.liveData, 'the break starts').set).to.include({ elapsedSeconds: 2700, isInPlay: false, clockRate: null });
      expect(written(livePoll(halfTime.next, 320, reading(2700, { phaseSysname: 'HALF_TIME', isInPlay: false })))).to.deep.equal(NOTHING);
      // The clock running again is a change.
      expect(written(livePoll(halfTime.next, 920, reading(2700, { phaseSysname: 'SECOND_HALF' }))).liveData).to.equal(1);
    });

    it('a basketball quarter clock runs at its own rate (0.48): readings on that track are no change', () => {
      const quarter = (elapsed: number) => reading(elapsed, { stats: stats(20, 18), phaseSysname: 'FIRST_QUARTER', details: {} });
      const poll = (previous: Previous, s: number, elapsed: number) =>
        planIngest(batch([event('live', { sportId: 2 })], { odds: [], live: [{ ...quarter(elapsed), referenceTime: secs(s) }], at: secs(s) }), previous, secs(s));
      const first = poll(new Map(), 0, 300);
      const second = poll(first.next, 100, 348);
      expect(only(second.liveData, 'the rate is measured').set).to.include({ elapsedSeconds: 300, clockRate: 0.48 });
      expect(written(poll(second.next, 200, 396))).to.deep.equal(NOTHING);
      expect(written(poll(second.next, 200, 400)).liveData).to.equal(1);
    });
  });

  describe('happy: a moved price', () => {
    const BOOKS = [
      [2.1, 2.0, 2.2],
      [3.3, 3.4, 3.5],
      [3.6, 3.7, 3.8],
    ];
    const AT = secs(60);
    const base = () => planIngest(batch([event('upcoming')], { odds: [odds(BOOKS)] }), new Map(), NOW);
    const repriced = (prices: (number | null)[][], over: Partial<FeedOdds> = {}) => planIngest(batch([event('upcoming')], { odds: [odds(prices, { at: AT, ...over })], at: AT }), base().next, AT);

    it('a moved price writes one prices document whose `previous` holds the old price of the moved item only, one history doc with only the moved items, and one price change', () => {
      const plan = repriced([[2.0, 1.95, 2.2], BOOKS[1], BOOKS[2]]);
      const doc = only(plan.prices, 'one prices write');
      expect(doc.insert).to.equal(false);
      expect(doc.set.previous).to.deep.equal([{ id: ITEM.home, price: 2.1, bookPrices: { 'book-a': 2.1, 'book-b': 2.0, 'book-c': 2.2 } }]);
      expect(doc.set.movedAt).to.deep.equal(AT);
      expect(doc.set.oddsUpdatedAt).to.deep.equal(AT);
      expect((doc.set.markets as StoredMarket[])[0].betItems.map((i) => i.price)).to.deep.equal([2.0, 3.4, 3.7]);
      expect(plan.history).to.deep.equal([{ _id: `555|simulated|${AT.getTime()}`, eventId: '555', dataSource: 'simulated', at: AT, items: [{ id: ITEM.home, price: 2.0 }] }]);
      expect(plan.changes).to.deep.equal([
        { eventId: '555', kind: 'price', at: AT, data: { items: [{ id: ITEM.home, price: 2.0, isAvailable: true, bookPrices: { 'book-a': 2.0, 'book-b': 1.95, 'book-c': 2.2 } }] } },
      ]);
      // Served at the move, only the moved item shows a change; once the provider has polled again, none does.
      const stored = doc.set as unknown as PricesView;
      const changes = (at: Date) => liveStatsView('555', { isInPlay: true }, stored, at)!.liveBetItems.map((i) => i.priceChange);
      expect(changes(AT)).to.deep.equal([-0.1, 0, 0]);
      expect(changes(secs(120))).to.deep.equal([0, 0, 0]);
      expect(snapshotView(stored, 'book-b', AT, false)!.liveMarkets[0].betItems.map((i) => i.priceChange)).to.deep.equal([-0.05, 0, 0]);
    });

    const rows: [string, () => Plan, { previous: unknown[]; history: number; changed: { id: string; isAvailable: boolean }[] }][] = [
      [
        'one book moved, the consensus did not: its price before is kept for that book, no history',
        () => repriced([[2.1, 2.0, 2.3], BOOKS[1], BOOKS[2]]),
        { previous: [{ id: ITEM.home, price: 2.1, bookPrices: { 'book-a': 2.1, 'book-b': 2.0, 'book-c': 2.2 } }], history: 0, changed: [{ id: ITEM.home, isAvailable: true }] },
      ],
      [
        'an item suspended at the same prices: its availability is written, no price before, no history',
        () => {
          const o = odds(BOOKS, { at: AT });
          o.markets[0].items[1].suspended = true;
          return planIngest(batch([event('upcoming')], { odds: [o], at: AT }), base().next, AT);
        },
        { previous: [], history: 0, changed: [{ id: ITEM.draw, isAvailable: false }] },
      ],
    ];
    for (const [name, plan, want] of rows) {
      it(name, () => {
        const p = plan();
        expect(only(p.prices, 'one prices write').set.previous).to.deep.equal(want.previous);
        expect(p.history).to.have.length(want.history);
        expect(p.changes.map((c) => c.kind)).to.deep.equal(['price']);
        expect((p.changes[0].data as { items: { id: string; isAvailable: boolean }[] }).items.map(({ id, isAvailable }) => ({ id, isAvailable }))).to.deep.equal(want.changed);
      });
    }
  });

  describe('happy: the change feed', () => {
    const upcomingWithPrices = () => planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
    const upcomingWithout = () => planIngest(batch([event('upcoming')], { odds: [] }), new Map(), NOW);
    const rows: [string, () => Plan, PlanChangeKind[]][] = [
      ['first sight of a live event with prices, live stats and lineups: none', () => livePoll(new Map(), 0, reading(600), liveOdds(), { lineups: { home: ['A'], away: ['B'] } }), []],
      [
        'first sight of a completed event with its result: none',
        () =>
          planIngest(
            batch([event('completed', { endedAt: T0 })], {
              results: [{ eventId: '555', status: 'completed', voided: false, stats: stats(2, 1), phaseSysname: 'FULL_TIME', endedAt: T0, details: {} }],
            }),
            new Map(),
            NOW,
          ),
        [],
      ],
      ['upcoming (no prices) -> live: one status change', () => planIngest(batch([event('live')], { odds: null, live: null }), upcomingWithout().next, NOW), ['status']],
      [
        'upcoming -> live at kickoff with stored prices: the status and the closing line',
        () => planIngest(batch([event('live')], { odds: null, live: null }), upcomingWithPrices().next, NOW),
        ['status', 'closing'],
      ],
      ['lineups announced', () => planIngest(batch([event('upcoming', { lineups: { home: ['A'], away: ['B'] } })], { odds: [] }), upcomingWithout().next, NOW), ['lineups']],
      ['a live poll without change: none', () => livePoll(liveWithRate().second.next, 20, reading(620)), []],
    ];
    for (const [name, plan, kinds] of rows) it(name, () => expect(plan().changes.map((c) => c.kind)).to.deep.equal(kinds));

    it('a status change carries the status before and after', () => {
      const plan = planIngest(batch([event('live')], { odds: null, live: null }), upcomingWithout().next, NOW);
      expect(plan.changes).to.have.length(1);
      expect(plan.changes[0]).to.deep.include({ eventId: '555', kind: 'status', at: T0 });
      expect(plan.changes[0].data).to.deep.include({ status: 'live', previous: 'upcoming', voided: false, startedAt: T0 });
    });

    it('the kickoff emits a closing change when the closing line is captured, the same line the event stores', () => {
      const before = upcomingWithPrices();
      const plan = planIngest(batch([event('live')], { odds: null, live: null }), before.next, NOW);
      const line = closingLineOf(before.next.get('555')!.prices!.markets, T0);
      expect(line.markets).to.have.length(1);
      expect(setOf(plan).closingLine).to.deep.equal(line);
      expect(plan.changes.filter((c) => c.kind === 'closing')).to.deep.equal([{ eventId: '555', kind: 'closing', at: T0, data: line }]);
      // Already live: no second closing line.
      const after = planIngest(batch([event('live')], { odds: null, live: null, at: secs(10) }), plan.next, NOW);
      expect(after.changes).to.deep.equal([]);
      expect(after.events).to.deep.equal([]);
    });
  });

  describe('happy: the game clock', () => {
    const stored = (over: Partial<PrevLive> = {}): Pick<PrevLive, 'elapsedSeconds' | 'elapsedAt' | 'clockRate' | 'isInPlay'> => ({
      elapsedSeconds: 600,
      elapsedAt: T0,
      clockRate: 1,
      isInPlay: true,
      ...over,
    });
    const onTrack: [string, ReturnType<typeof stored>, number | null, Date, boolean][] = [
      ['in play at rate 1, 30 s on: 630', stored(), 630, secs(30), true],
      ['in play at rate 1, 30 s on: 631 is off', stored(), 631, secs(30), false],
      ['in play at rate 1, 30 s on: 600 (stopped) is off', stored(), 600, secs(30), false],
      ['in a break the clock stands: 600 30 s on', stored({ isInPlay: false, clockRate: null }), 600, secs(30), true],
      ['in a break the clock stands: 630 is off', stored({ isInPlay: false, clockRate: null }), 630, secs(30), false],
      ['a basketball quarter at 0.48: 300 + 48 after 100 s', stored({ elapsedSeconds: 300, clockRate: 0.48 }), 348, secs(100), true],
      ['a basketball quarter at 0.48: 400 after 100 s is off', stored({ elapsedSeconds: 300, clockRate: 0.48 }), 400, secs(100), false],
      ['no rate yet (one reading): only the same reading', stored({ clockRate: null }), 600, secs(30), true],
      ['no rate yet (one reading): a later reading is off', stored({ clockRate: null }), 630, secs(30), false],
      ['null reading, none stored', stored({ elapsedSeconds: null }), null, secs(30), true],
      ['null reading, one stored', stored(), null, secs(30), false],
      ['a reading, none stored', stored({ elapsedSeconds: null }), 630, secs(30), false],
    ];
    for (const [name, s, elapsed, at, want] of onTrack) it(`clockOnTrack: ${name} -> ${want}`, () => expect(clockOnTrack(s, elapsed, at)).to.equal(want));

    const extrapolated: [string, ReturnType<typeof stored>, Date, number][] = [
      ['in play at rate 1, 30 s on', stored(), secs(30), 630],
      ['in a break it stands', stored({ isInPlay: false }), secs(30), 600],
      ['a basketball quarter at 0.48, 100 s on', stored({ elapsedSeconds: 300, clockRate: 0.48 }), secs(100), 348],
      ['a basketball quarter at 0.48, 25 s on (rounded)', stored({ elapsedSeconds: 300, clockRate: 0.48 }), secs(25), 312],
      ['no rate: the reading', stored({ clockRate: null }), secs(30), 600],
      ['no reading instant: the reading', stored({ elapsedAt: null }), secs(30), 600],
      ['an instant before the reading: the reading', stored(), secs(-30), 600],
    ];
    for (const [name, s, at, want] of extrapolated) it(`extrapolateClock: ${name} -> ${want}`, () => expect(extrapolateClock(s, at)).to.equal(want));
  });

  describe('happy: results and settlement', () => {
    const live = () => planIngest(batch([event('live')], { odds: [odds([[2], [3], [4]])], live: [] }), new Map(), NOW);
    const end = (prev: Previous, status: FeedStatus, s: EventStats, over: Partial<FeedEvent> = {}, phase = 'FULL_TIME') =>
      planIngest(
        batch([event(status, { endedAt: NOW, ...over })], {
          results: [{ eventId: '555', status: status as 'completed', voided: Boolean(over.voided), stats: s, phaseSysname: phase, endedAt: NOW, details: {} }],
        }),
        prev,
        NOW,
      );

    it('entering completed enqueues settlement once, closes the markets and ends the live data', () => {
      const prev = stateOf(live(), { status: 'live' });
      const plan = end(prev, 'completed', stats(2, 1));
      expect(plan.settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      const set = setOf(plan);
      expect(set).to.include({ status: 'completed' });
      expect(set.stats).to.deep.include({ homeGoals: 2, awayGoals: 1, phase: 'FULL_TIME' });
      expect(marketsOf(plan)[0].betItems.every((i) => !i.isAvailable)).to.equal(true);
      // The live data is the final, no longer live (the read side serves no live stats for it).
      expect(only(plan.liveData, 'one live data write').set).to.include({ homeGoals: 2, awayGoals: 1, phaseSysname: 'FULL_TIME', isLive: false, isInPlay: false, elapsedSeconds: null });
      // The same result again settles nothing more, and writes nothing.
      const again = end(plan.next, 'completed', stats(2, 1));
      expect(again.settle).to.deep.equal([]);
      expect(written(again)).to.deep.equal(NOTHING);
    });

    it('a changed final after completion bumps resultVersion and settles again', () => {
      const prev = stateOf(live(), { status: 'live' });
      const done = end(prev, 'completed', stats(2, 1)).next;
      const corrected = end(done, 'completed', stats(2, 1, { homeCorners: 7 }));
      expect(corrected.settle).to.deep.equal([{ eventId: '555', resultVersion: 1 }]);
      expect(setOf(corrected).resultVersion).to.equal(1);
      expect(corrected.changes.map((c) => c.kind)).to.deep.equal(['result']);
    });

    it('postponed after start and abandoned settle; never started does not', () => {
      const prev = stateOf(live(), { status: 'live' });
      expect(end(prev, 'postponed', stats(0, 0), {}, 'POSTPONED').settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      const abandoned = end(prev, 'completed', stats(1, 0), { voided: true }, 'ABANDONED');
      expect(abandoned.settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      expect(setOf(abandoned).voided).to.equal(true);
      const upcoming = stateOf(planIngest(batch([event('upcoming')], { odds: [odds([[2], [3], [4]])] }), new Map(), NOW), { status: 'upcoming' });
      const never = end(upcoming, 'postponed', { ...EMPTY_STATS }, { startedAt: null }, 'POSTPONED');
      expect(never.settle).to.deep.equal([]);
      expect(setOf(never).status).to.equal('postponed');
    });

    it('an end whose results call failed waits for the next poll', () => {
      const prev = stateOf(live(), { status: 'live' });
      const plan = planIngest(batch([event('completed', { endedAt: NOW })], { results: null }), prev, NOW);
      expect(written(plan)).to.deep.equal(NOTHING);
      expect(plan.settle).to.have.length(0);
      expect(plan.changes).to.deep.equal([]);
      // The stored state is carried over unchanged.
      expect(plan.next.get('555')).to.equal(prev.get('555'));
    });

    it('settleable: completed, or postponed once started', () => {
      expect(settleable('completed', null)).to.equal(true);
      expect(settleable('postponed', T0)).to.equal(true);
      expect(settleable('postponed', null)).to.equal(false);
      expect(settleable('live', T0)).to.equal(false);
    });
  });

  describe('error: bad feed data is not stored', () => {
    it('drops markets of another sport and markets unknown to the catalog', () => {
      const o = odds([[2], [3], [4]]);
      o.markets.push({ betTypeSysname: 'BASKETBALL_MONEYLINE', line: null, items: [{ code: '1', prices: [1.5] }] });
      o.markets.push({ betTypeSysname: 'SOCCER_PENALTIES', line: null, items: [{ code: '1', prices: [1.5] }] });
      const plan = planIngest(batch([event('upcoming')], { odds: [o] }), new Map(), NOW);
      expect(marketsOf(plan).map((m) => m.betTypeSysname)).to.deep.equal(['SOCCER_MATCH_RESULT']);
    });

    it('a failed odds call keeps the stored markets untouched', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const plan = planIngest(batch([event('upcoming')], { odds: null }), first.next, NOW);
      expect(written(plan)).to.deep.equal(NOTHING);
      expect(plan.next.get('555')!.prices).to.deep.equal(first.next.get('555')!.prices);
    });
  });
});

type PlanChangeKind = Plan['changes'][number]['kind'];
