import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { redis } from '../../../shared/platform/db/redis';
import { cacheVersionKey } from '../../../shared/platform/cache/versions';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { findStoredUpdateTimes } from '../../../shared/platform/db/repositories/fixtures';
import { feedWindow, readChanges, type ChangeEntry } from '../../../shared/platform/feed/changeFeed';
import { pollProvider, type PollOutcome } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { loadScenario } from '../../../shared/platform/providers/simulated/scenario';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const MIN = 60_000;
const START = Date.parse('2026-11-21T12:00:00Z');
const KICKOFF = START + 60 * MIN;
/** A quiet match: one goal at 40', no price moves in play. */
function quietScenario(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'change-driven-')), 'scenario.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'quiet',
      start: new Date(START).toISOString(),
      bookmakers: ['simbook-a', 'simbook-b'],
      events: [
        {
          id: '7400001',
          sport: 'soccer',
          competition: { id: 101, name: 'Premier League', region: 'GB-ENG', priority: 100 },
          homeTeam: 'Quiet Town',
          awayTeam: 'Still Rovers',
          startOffsetMinutes: 60,
          markets: [
            { betTypeSysname: 'SOCCER_MATCH_RESULT', prices: { '1': 2.1, X: 3.4, '2': 3.6 } },
            { betTypeSysname: 'SOCCER_UNDER_OVER', line: 2.5, prices: { O: 1.95, U: 1.9 } },
          ],
          timeline: [{ minute: 40, type: 'goal', team: 'home' }],
          final: {
            stats: {
              homeGoals: 1,
              awayGoals: 0,
              homeCorners: 0,
              awayCorners: 0,
              homeYellowCards: 0,
              awayYellowCards: 0,
              homeRedCards: 0,
              awayRedCards: 0,
              homeGoalsFirstHalf: 1,
              awayGoalsFirstHalf: 0,
            },
          },
          end: { state: 'completed' },
        },
        {
          id: '7400002',
          sport: 'soccer',
          competition: { id: 101, name: 'Premier League', region: 'GB-ENG', priority: 100 },
          homeTeam: 'Later City',
          awayTeam: 'Evening Athletic',
          startOffsetMinutes: 600,
          markets: [{ betTypeSysname: 'SOCCER_MATCH_RESULT', prices: { '1': 1.9, X: 3.5, '2': 4.2 } }],
          timeline: [],
          final: {
            stats: {
              homeGoals: 0,
              awayGoals: 0,
              homeCorners: 0,
              awayCorners: 0,
              homeYellowCards: 0,
              awayYellowCards: 0,
              homeRedCards: 0,
              awayRedCards: 0,
              homeGoalsFirstHalf: 0,
              awayGoalsFirstHalf: 0,
            },
          },
          end: { state: 'completed' },
        },
      ],
    }),
  );
  return file;
}

describe('ingest writes only what changed, and tells the change feed each change once', function () {
  this.timeout(120_000);
  let handle: ProviderHandle;
  const poll = (t: number): Promise<PollOutcome> => pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(t), settlementDelayMs: () => 600_000 });

  before(connectMongo);
  beforeEach(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
  });
  afterEach(() => handle?.breaker.shutdown());
  after(clearIngested);

  it('happy: a poll in which nothing changed writes no price, live-data or event document (live and upcoming events alike)', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(quietScenario()) }));
    // In play from 13:00; the second poll in play learns the clock's rate.
    for (const m of [5, 6]) expect((await poll(KICKOFF + m * MIN)).status).to.equal('ok');
    const before = await findStoredUpdateTimes();
    expect(before.liveEventData.size, 'the live event has live data').to.equal(1);
    for (const m of [7, 8, 9]) {
      const out = await poll(KICKOFF + m * MIN);
      if (out.status !== 'ok') throw new Error(`poll at ${m}': ${out.status}`);
      expect(out.live, `poll at ${m}'`).to.equal(1);
      expect({ ...out.written, references: 0 }, `poll at ${m}'`).to.deep.equal({ events: 0, markets: 0, prices: 0, liveEventData: 0, history: 0, references: 0 });
      expect(out.changes, `poll at ${m}'`).to.equal(0);
      expect(out.readFromStore, `poll at ${m}': nothing read back`).to.equal(0);
    }
    // The store agrees: no document of the events, their prices or live data was rewritten.
    expect(await findStoredUpdateTimes()).to.deep.equal(before);
    // The goal at 40' is a change: the event's stats and its live data are written, nothing else.
    const goal = await poll(KICKOFF + 41 * MIN);
    if (goal.status !== 'ok') throw new Error(goal.status);
    expect(goal.written).to.include({ events: 1, liveEventData: 1, prices: 0, history: 0 });
  });

  it('happy: the reference pages move only when a reference document is written: an event going live or scoring moves the events pages alone', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(quietScenario()) }));
    const version = async (scope: 'events' | 'competitions') => Number((await redis().get(cacheVersionKey(scope))) ?? 0);
    const before = await version('competitions');
    expect((await poll(KICKOFF - 5 * MIN)).status).to.equal('ok');
    const afterFirst = await version('competitions');
    expect(afterFirst, 'the first poll writes the teams, competition and region').to.be.greaterThan(before);
    // Kickoff (a status change) and the goal at 40' (stats): events written, no reference document.
    for (const m of [5, 41]) {
      const events = await version('events');
      const out = await poll(KICKOFF + m * MIN);
      if (out.status !== 'ok') throw new Error(`poll at ${m}': ${out.status}`);
      expect(out.written.events, `poll at ${m}'`).to.be.greaterThan(0);
      expect(await version('events'), `poll at ${m}'`).to.be.greaterThan(events);
      expect(await version('competitions'), `poll at ${m}'`).to.equal(afterFirst);
    }
    // A process that never wrote them (a restarted worker) writes them again, and moves the pages.
    renewProcessScope();
    expect((await poll(KICKOFF + 42 * MIN)).status).to.equal('ok');
    expect(await version('competitions')).to.be.greaterThan(afterFirst);
  });

  it('happy: a scripted match reaches the change feed in order, each change once (prices, kickoff, closing line, goals, cards, suspension, the end)', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(resolve(__dirname, '../../../docs/scenarios/soccer-settlement-rules.json')) }));
    const from = (await feedWindow()).newestId;
    // Minute by minute from an hour before kickoff to after the final whistle.
    for (let t = START; t <= START + 180 * MIN; t += MIN) expect((await poll(t)).status).to.equal('ok');
    const entries: ChangeEntry[] = [];
    for (let after = from; ;) {
      const page = await readChanges(after, 1000);
      expect(page.gap).to.equal(false);
      if (!page.entries.length) break;
      entries.push(...page.entries);
      after = page.entries[page.entries.length - 1].id;
    }
    const ev = entries.filter((e) => e.change.eventId === '7100001').map((e) => e.change);
    // In order of the world's time, and no change twice.
    const times = ev.map((c) => c.at.getTime());
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    const keys = ev.map((c) => JSON.stringify([c.kind, c.at, c.data]));
    expect(new Set(keys).size, 'each change once').to.equal(keys.length);

    const minuteOf = (c: { at: Date }) => Math.round((c.at.getTime() - KICKOFF) / MIN);
    const of = (kind: string) => ev.filter((c) => c.kind === kind);
    expect(of('status').map((c) => (c.data as { status: string }).status)).to.deep.equal(['live', 'completed']);
    expect(minuteOf(of('status')[0]), 'kickoff').to.equal(0);
    expect(minuteOf(of('status')[1]), 'after the final whistle').to.be.greaterThan(90);
    expect(of('closing').map(minuteOf)).to.deep.equal([0]);
    // Each score the match went through (1-0 at 11', 1-1 at 72', 2-1 at 80') is reported by exactly one change.
    const scores = of('score').map((c) => {
      const d = c.data as { homeGoals: number; awayGoals: number };
      return `${d.homeGoals}-${d.awayGoals}`;
    });
    const firstOf = (score: string) => of('score').find((c) => `${(c.data as { homeGoals: number }).homeGoals}-${(c.data as { awayGoals: number }).awayGoals}` === score);
    expect(scores.filter((s, i) => s !== scores[i - 1])).to.deep.equal(['0-0', '1-0', '1-1', '2-1'].filter((s) => scores.includes(s)));
    expect(minuteOf(firstOf('1-0')!)).to.equal(11);
    expect(minuteOf(firstOf('1-1')!)).to.equal(72);
    expect(minuteOf(firstOf('2-1')!)).to.equal(80);
    // The price moves: 30' before kickoff, at 12' (match result and over/under 2.5), the suspension at 88'.
    const priceMinutes = of('price').map(minuteOf);
    for (const m of [-30, 12, 88]) expect(priceMinutes, `a price change at ${m}'`).to.include(m);
    const at12 = of('price').filter((c) => minuteOf(c) === 12);
    expect(at12, 'one price change per poll').to.have.length(1);
    const moved = (at12[0].data as { items: { id: string; price: number }[] }).items;
    expect(moved.find((i) => i.id === '7100001-SOCCER_MATCH_RESULT-1')?.price).to.equal(1.55);
    expect(moved.find((i) => i.id === '7100001-SOCCER_UNDER_OVER@2.5-O')?.price).to.equal(1.5);
  });
});
