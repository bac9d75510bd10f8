import { expect } from 'chai';
import { consensusPrice, planIngest, settleable, type FeedBatch, type PrevEvent, type StoredMarket } from '../../../shared/ingest/plan';
import type { FeedEvent, FeedLiveStats, FeedOdds, FeedResult, FeedStatus } from '../../../shared/providers/types';
import { EMPTY_STATS, type EventStats } from '../../../shared/stats';

const T0 = new Date('2026-11-21T12:00:00Z');
const NOW = new Date('2026-11-21T12:00:05Z');

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

function batch(events: FeedEvent[], parts: { odds?: FeedOdds[] | null; live?: FeedLiveStats[] | null; results?: FeedResult[] | null } = {}): FeedBatch {
  const map = <T extends { eventId: string }>(x: T[] | null | undefined) => (x === null ? null : new Map((x ?? []).map((v) => [v.eventId, v])));
  return { provider: 'simulated', capturedAt: T0, events, odds: map(parts.odds), live: map(parts.live), results: map(parts.results) };
}

function prevOf(plan: ReturnType<typeof planIngest>, base: Partial<PrevEvent> = {}): PrevEvent {
  // What the stored document looks like after the plan's $set (views untouched).
  const op = plan.eventOps[0] as { updateOne: { update: { $set: Record<string, unknown>; $setOnInsert?: Record<string, unknown> } } };
  return { _id: '555', ...(op.updateOne.update.$setOnInsert ?? {}), ...op.updateOne.update.$set, ...base } as PrevEvent;
}

function setOf(plan: ReturnType<typeof planIngest>): Record<string, unknown> {
  return (plan.eventOps[0] as { updateOne: { update: { $set: Record<string, unknown> } } }).updateOne.update.$set;
}

describe('ingest planner', () => {
  describe('happy: documents', () => {
    it('consensus is the median of the books (the lower middle for an even count)', () => {
      expect(consensusPrice([2.1, 2.0, 2.2])).to.equal(2.1);
      expect(consensusPrice([2.1, null, 2.0, 2.3, 2.2])).to.equal(2.1);
      expect(consensusPrice([null, null])).to.equal(null);
    });

    it('a new event is inserted with localized references, views only on insert', () => {
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
      expect(plan.eventOps).to.have.length(1);
      const op = plan.eventOps[0] as any;
      expect(op.updateOne.upsert).to.equal(true);
      expect(op.updateOne.update.$setOnInsert).to.include({ views: 0, resultVersion: 0 });
      expect(op.updateOne.update.$set).to.not.have.property('views');
      const set = setOf(plan);
      expect(set.competition).to.deep.equal({ id: 101, name: { en: 'UEFA Champions League', es: 'Liga de Campeones de la UEFA', pt: 'Liga dos Campeões da UEFA' } });
      expect((set.region as any).name).to.deep.equal({ en: 'Europe', es: 'Europa', pt: 'Europa' });
      // A national team is translated by ICU; a club keeps its name.
      expect((set.homeTeam as any).name).to.deep.equal({ en: 'Spain', es: 'España', pt: 'Espanha' });
      expect((set.awayTeam as any).name).to.deep.equal({ en: 'Ashford United', es: 'Ashford United', pt: 'Ashford United' });
      const items = (set.markets as StoredMarket[])[0].betItems;
      expect(items.map((i) => [i.id, i.price, i.isAvailable])).to.deep.equal([
        ['555-SOCCER_MATCH_RESULT-1', 2.1, true],
        ['555-SOCCER_MATCH_RESULT-X', 3.3, true],
        ['555-SOCCER_MATCH_RESULT-2', 3.6, true],
      ]);
      expect(items[1].bookPrices).to.deep.equal({ 'book-a': 3.3, 'book-b': 3.4 });
      expect(plan.teams.get((set.homeTeam as any).id)!.searchNames).to.deep.equal(['spain', 'espana', 'espanha']);
      expect(plan.history).to.have.length(3);
      expect(plan.analyze).to.deep.equal([{ eventId: '555', version: 1 }]);
      expect([...plan.changed]).to.include.members(['events', 'competitions']);
    });

    it('an unchanged poll writes nothing and appends no history', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const prev = prevOf(first);
      const again = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map([['555', prev]]), NOW);
      expect(again.eventOps).to.have.length(0);
      expect(again.history).to.have.length(0);
      expect(again.analyze).to.have.length(0);
    });

    it('a moved price appends one history row keyed by the source time and re-triggers the AI before kickoff', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const prev = prevOf(first);
      const at = new Date(T0.getTime() + 60_000);
      const moved = planIngest(batch([event('upcoming')], { odds: [odds([[2.0], [3.3], [3.6]], { at })] }), new Map([['555', prev]]), NOW);
      expect(moved.history).to.deep.equal([{ betItemId: '555-SOCCER_MATCH_RESULT-1', eventId: '555', dataSource: 'simulated', price: 2.0, at }]);
      expect(moved.analyze).to.deep.equal([{ eventId: '555', version: 2 }]);
      expect(Object.keys(setOf(moved))).to.not.include('views');
    });

    it('an item no book quotes keeps its last price, unavailable', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const next = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [null], [3.6]])] }), new Map([['555', prevOf(first)]]), NOW);
      const items = (setOf(next).markets as StoredMarket[])[0].betItems;
      expect(items[1]).to.deep.include({ price: 3.3, isAvailable: false });
    });
  });

  describe('happy: live', () => {
    it('writes flat live stats with liveBetItems and priceChange, live event data, and one snapshot per dataSource', () => {
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
      const live: FeedLiveStats = {
        eventId: '555',
        stats: stats(1, 0, { homeCorners: 2, awayCorners: 1 }),
        phaseSysname: 'FIRST_HALF',
        elapsedSeconds: 600,
        isLive: true,
        isInPlay: true,
        referenceTime: T0,
        details: { goals: [] },
      };
      const plan = planIngest(
        batch([event('live')], {
          odds: [
            odds([
              [1.6, 1.62, 1.7],
              [3.8, 3.9, 4.0],
              [5.5, 5.6, 5.7],
            ]),
          ],
          live: [live],
        }),
        new Map([['555', prevOf(first)]]),
        NOW,
      );
      const set = setOf(plan);
      const ls = set.liveStats as any;
      expect(ls).to.include({ id: '555', homeGoals: 1, awayGoals: 0, homeCorners: 2, elapsedSeconds: 600, phaseCaption: '1H', phaseCaptionLong: 'First half', isLive: true, isInPlay: true });
      expect(ls.liveBetItems[0]).to.include({
        betItemId: '555-SOCCER_MATCH_RESULT-1',
        marketSysname: 'SOCCER_MATCH_RESULT',
        marketCaption: 'Match Result',
        code: '1',
        caption: 'Home',
        price: 1.62,
        priceChange: -0.48,
        isAvailable: true,
        timestamp: String(T0.getTime()),
      });
      expect(plan.liveDataOps).to.have.length(1);
      const ids = plan.snapshotOps.map((o: any) => o.updateOne.filter._id);
      expect(ids).to.deep.equal(['555|simulated', '555|book-a', '555|book-b', '555|book-c']);
      const bookA = (plan.snapshotOps[1] as any).updateOne.update.$set;
      expect(bookA.liveMarkets[0].betItems[0]).to.deep.include({ code: '1', price: 1.6, priceChange: -0.5, isAvailable: true });
      expect(bookA).to.include({ stale: false, provider: 'simulated', dataSource: 'book-a' });
      // Live price moves do not re-run the pre-match model; the insight follows the status change once.
      expect(plan.analyze).to.deep.equal([]);
      expect(plan.statusChanges).to.deep.equal([{ eventId: '555', status: 'live', beforeKickoff: false, startDateTime: T0 }]);
    });
  });

  describe('happy: results and settlement', () => {
    const live = () => planIngest(batch([event('live')], { odds: [odds([[2], [3], [4]])], live: [] }), new Map(), NOW);
    const end = (prev: PrevEvent, status: FeedStatus, s: EventStats, over: Partial<FeedEvent> = {}, phase = 'FULL_TIME') =>
      planIngest(
        batch([event(status, { endedAt: NOW, ...over })], {
          results: [{ eventId: '555', status: status as 'completed', voided: Boolean(over.voided), stats: s, phaseSysname: phase, endedAt: NOW, details: {} }],
        }),
        new Map([['555', prev]]),
        NOW,
      );

    it('entering completed enqueues settlement once, closes the markets and clears live stats', () => {
      const prev = prevOf(live(), { status: 'live' });
      const plan = end(prev, 'completed', stats(2, 1));
      expect(plan.settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      const set = setOf(plan);
      expect(set).to.include({ status: 'completed', liveStats: null });
      expect(set.stats).to.deep.include({ homeGoals: 2, awayGoals: 1, phase: 'FULL_TIME' });
      expect((set.markets as StoredMarket[])[0].betItems.every((i) => !i.isAvailable)).to.equal(true);
      // The same result again settles nothing more.
      const again = end({ ...prev, ...set }, 'completed', stats(2, 1));
      expect(again.settle).to.deep.equal([]);
      expect(again.eventOps).to.have.length(0);
    });

    it('a changed final after completion bumps resultVersion and settles again', () => {
      const prev = prevOf(live(), { status: 'live' });
      const done = { ...prev, ...setOf(end(prev, 'completed', stats(2, 1))) };
      const corrected = end(done, 'completed', stats(2, 1, { homeCorners: 7 }));
      expect(corrected.settle).to.deep.equal([{ eventId: '555', resultVersion: 1 }]);
      expect(setOf(corrected).resultVersion).to.equal(1);
    });

    it('postponed after start and abandoned settle; never started does not', () => {
      const prev = prevOf(live(), { status: 'live' });
      expect(end(prev, 'postponed', stats(0, 0), {}, 'POSTPONED').settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      const abandoned = end(prev, 'completed', stats(1, 0), { voided: true }, 'ABANDONED');
      expect(abandoned.settle).to.deep.equal([{ eventId: '555', resultVersion: 0 }]);
      expect(setOf(abandoned).voided).to.equal(true);
      const upcoming = prevOf(planIngest(batch([event('upcoming')], { odds: [odds([[2], [3], [4]])] }), new Map(), NOW), { status: 'upcoming' });
      const never = end(upcoming, 'postponed', { ...EMPTY_STATS }, { startedAt: null }, 'POSTPONED');
      expect(never.settle).to.deep.equal([]);
      expect(setOf(never).status).to.equal('postponed');
    });

    it('an end whose results call failed waits for the next poll', () => {
      const prev = prevOf(live(), { status: 'live' });
      const plan = planIngest(batch([event('completed', { endedAt: NOW })], { results: null }), new Map([['555', prev]]), NOW);
      expect(plan.eventOps).to.have.length(0);
      expect(plan.settle).to.have.length(0);
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
      expect((setOf(plan).markets as StoredMarket[]).map((m) => m.betTypeSysname)).to.deep.equal(['SOCCER_MATCH_RESULT']);
    });

    it('a failed odds call keeps the stored markets untouched', () => {
      const first = planIngest(batch([event('upcoming')], { odds: [odds([[2.1], [3.3], [3.6]])] }), new Map(), NOW);
      const plan = planIngest(batch([event('upcoming')], { odds: null }), new Map([['555', prevOf(first)]]), NOW);
      expect(plan.eventOps).to.have.length(0);
    });
  });
});
