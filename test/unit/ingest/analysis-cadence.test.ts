import { expect } from 'chai';
import { analysisDue, planIngest, reanalyzeWaitMs, type FeedBatch, type PrevState } from '../../../shared/domain/ingest/plan';
import type { FeedEvent, FeedOdds } from '../../../shared/domain/providers/types';

const T0 = new Date('2026-11-21T12:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number) => new Date(T0.getTime() + ms);
const REANALYZE = { reanalyzeMs: 2 * HOUR };

function event(over: Partial<FeedEvent> = {}): FeedEvent {
  return {
    eventId: '777',
    providerEventId: '777',
    sportId: 1,
    competition: { id: 101, name: 'Premier League', regionCode: 'GB-ENG', priority: 100 },
    homeTeam: { name: 'Arsenal', regionCode: 'GB-ENG' },
    awayTeam: { name: 'Chelsea', regionCode: 'GB-ENG' },
    startDateTime: at(72 * HOUR),
    status: 'upcoming',
    voided: false,
    startedAt: null,
    endedAt: null,
    lineups: null,
    ...over,
  };
}

const odds = (home: number, when: Date): FeedOdds => ({
  eventId: '777',
  at: when,
  bookmakers: ['book-a'],
  markets: [
    {
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      line: null,
      items: [
        ['1', home],
        ['X', 3.4],
        ['2', 3.9],
      ].map(([code, p]) => ({ code: String(code), prices: [Number(p)] })),
    },
  ],
});

/**
 * One poll at world time `when`: the plan, the fields it writes for the event (its document and its
 * prices, which keep the analysis bookkeeping), and the stored state after its writes.
 */
function poll(prev: PrevState | undefined, when: Date, home: number, over: Partial<FeedEvent> = {}, options = REANALYZE) {
  const batch: FeedBatch = { provider: 'simulated', capturedAt: when, events: [event(over)], odds: new Map([['777', odds(home, when)]]), live: new Map(), results: new Map() };
  const plan = planIngest(batch, new Map(prev ? [['777', prev]] : []), when, options);
  expect(plan.events.length, 'at most one event write').to.be.at.most(1);
  expect(plan.prices.length, 'at most one prices write').to.be.at.most(1);
  const set = { ...(plan.events[0]?.set ?? {}), ...(plan.prices[0]?.set ?? {}) };
  const stored = plan.next.get('777')!;
  return { plan, set, stored };
}

describe('ingest planner: how often price moves ask for an analysis (AI_REANALYZE_MINUTES)', () => {
  describe('analysisDue', () => {
    const base: Parameters<typeof analysisDue>[0] = { eventId: '777', forced: false, world: at(0), startDateTime: at(72 * HOUR), requestedAt: at(-30 * MIN), reanalyzeMs: 2 * HOUR };
    const wait777 = reanalyzeWaitMs('777', 2 * HOUR);
    const cases: [string, Partial<typeof base>, boolean][] = [
      ['a price move 30 minutes after the last ask, kickoff 3 days away: waits', {}, false],
      ["the same move once the event's wait (2 to 3 hours) has passed since the ask", { requestedAt: at(-wait777) }, true],
      ["the same move a minute before the event's wait is over: waits", { requestedAt: at(-wait777 + MIN) }, false],
      ['three hours after the ask: due for every event', { eventId: 'any-other', requestedAt: at(-3 * HOUR) }, true],
      ['under two hours after the ask: waits for every event', { eventId: 'any-other', requestedAt: at(-2 * HOUR + MIN) }, false],
      ['a status or lineup change never waits', { forced: true }, true],
      ['never asked before: asked at once', { requestedAt: null }, true],
      ['kickoff within 2 hours: every move is asked at once', { startDateTime: at(2 * HOUR) }, true],
      ['kickoff 2 hours and a minute away: waits', { startDateTime: at(2 * HOUR + MIN) }, false],
      ['0 = every price move', { reanalyzeMs: 0 }, true],
    ];
    for (const [name, over, due] of cases) it(`happy: ${name}`, () => expect(analysisDue({ ...base, ...over })).to.equal(due));

    it('happy: events first analysed together come due spread over the half of the wait after it, not in one poll', () => {
      const waits = Array.from({ length: 300 }, (_, i) => reanalyzeWaitMs(`ev-${i}`, 2 * HOUR));
      expect(Math.min(...waits)).to.be.at.least(2 * HOUR);
      expect(Math.max(...waits)).to.be.below(3 * HOUR);
      // Evenly: each of the six 10-minute bins of the extra hour holds a sixth, give or take.
      const bins = [0, 0, 0, 0, 0, 0];
      for (const w of waits) bins[Math.floor((w - 2 * HOUR) / (10 * MIN))]++;
      for (const n of bins) expect(n).to.be.within(30, 70);
      expect(reanalyzeWaitMs('ev-1', 2 * HOUR)).to.equal(waits[1]);
    });
  });

  it('happy: a new event is analysed at once, later moves far from kickoff wait, and the pending version is asked once its wait (2 hours and its share) has passed, with no new move needed', () => {
    const wait = reanalyzeWaitMs('777', 2 * HOUR);
    const first = poll(undefined, at(0), 2.1);
    expect(first.plan.analyze).to.deep.equal([{ eventId: '777', version: 1 }]);
    expect(first.set).to.include({ analysisRequestedVersion: 1 });
    expect(first.set.analysisRequestedAt).to.deep.equal(at(0));

    const moved = poll(first.stored, at(10 * MIN), 2.0);
    expect(moved.plan.analyze).to.deep.equal([]);
    expect(moved.set).to.include({ analysisVersion: 2 });
    expect(moved.set).not.to.have.property('analysisRequestedVersion');

    const again = poll(moved.stored, at(30 * MIN), 1.95);
    expect(again.plan.analyze).to.deep.equal([]);
    expect(again.set).to.include({ analysisVersion: 3 });

    const quiet = poll(again.stored, at(HOUR), 1.95);
    expect([...quiet.plan.events, ...quiet.plan.prices], 'nothing changed and nothing due: no write').to.have.length(0);

    const early = poll(again.stored, at(wait - MIN), 1.95);
    expect(early.plan.analyze, 'a minute before its wait is over').to.deep.equal([]);

    const due = poll(again.stored, at(wait), 1.95);
    expect(due.plan.analyze).to.deep.equal([{ eventId: '777', version: 3 }]);
    expect(due.set).to.include({ analysisRequestedVersion: 3 });
    expect(due.set.analysisRequestedAt).to.deep.equal(at(wait));

    const after = poll(due.stored, at(wait + MIN), 1.95);
    expect(after.plan.analyze, 'asked once').to.deep.equal([]);
    expect([...after.plan.events, ...after.plan.prices]).to.have.length(0);
  });

  it('happy: lineups are analysed at once, whatever the last ask', () => {
    const first = poll(undefined, at(0), 2.1);
    const lineups = { home: ['A. Keeper'], away: ['B. Keeper'] };
    const announced = poll(first.stored, at(5 * MIN), 2.1, { lineups });
    expect(announced.plan.analyze).to.deep.equal([{ eventId: '777', version: 2 }]);
  });

  it('happy: within 2 hours of kickoff every move is analysed at once, and a move left waiting is asked as the event enters that window', () => {
    const kickoff = at(3 * HOUR);
    const first = poll(undefined, at(0), 2.1, { startDateTime: kickoff });
    const moved = poll(first.stored, at(30 * MIN), 2.0, { startDateTime: kickoff });
    expect(moved.plan.analyze).to.deep.equal([]);
    const entering = poll(moved.stored, at(HOUR), 2.0, { startDateTime: kickoff });
    expect(entering.plan.analyze).to.deep.equal([{ eventId: '777', version: 2 }]);
    const close = poll(entering.stored, at(HOUR + MIN), 1.9, { startDateTime: kickoff });
    expect(close.plan.analyze).to.deep.equal([{ eventId: '777', version: 3 }]);
  });

  it('happy: with 0 every price move is analysed', () => {
    const first = poll(undefined, at(0), 2.1, {}, { reanalyzeMs: 0 });
    const moved = poll(first.stored, at(MIN), 2.0, {}, { reanalyzeMs: 0 });
    expect(moved.plan.analyze).to.deep.equal([{ eventId: '777', version: 2 }]);
  });

  it('happy: a version recorded as asked is not asked again, and with no record of when it was asked a move is asked at once', () => {
    // The bookkeeping is kept with the prices (PrevPrices). The former fallback for event documents
    // written before asks were recorded (no analysisRequestedVersion: the current version counts as
    // asked) is gone with the move: a missing record now reads as 0, never asked.
    const first = poll(undefined, at(0), 2.1);
    const prices = { ...first.stored.prices!, analysisVersion: 4, analysisRequestedVersion: 4 };
    delete prices.analysisRequestedAt;
    const legacy: PrevState = { ...first.stored, prices };
    expect(poll(legacy, at(MIN), 2.1).plan.analyze, 'no move: nothing asked').to.deep.equal([]);
    expect(poll(legacy, at(MIN), 2.0).plan.analyze, 'a move: asked (no record of the last ask)').to.deep.equal([{ eventId: '777', version: 5 }]);
  });

  it('error: a postponement is a status follow-up, not an analysis, even while a move waits', () => {
    const first = poll(undefined, at(0), 2.1);
    const moved = poll(first.stored, at(10 * MIN), 2.0);
    const postponed = poll(moved.stored, at(20 * MIN), 2.0, { status: 'postponed' });
    expect(postponed.plan.analyze).to.deep.equal([]);
    expect(postponed.plan.statusChanges.map((s) => [s.eventId, s.status, s.beforeKickoff])).to.deep.equal([['777', 'postponed', true]]);
  });
});
