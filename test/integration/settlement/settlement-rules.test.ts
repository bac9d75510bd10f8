import { expect } from 'chai';
import { enqueue } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { performanceReport, recomputeFromBets, windowDays } from '../../../shared/domain/grading';
import { findAllSettledBets } from '../../../shared/platform/db/repositories/ai';
import { countEventsSettledAt, findPicksById, findRecommendationsOfEventsById } from '../../../shared/platform/db/repositories/fixtures';
import { toSettledBet } from '../../../shared/app/settlement/rollups';
import { startApi, type TestServer } from '../../helpers/api';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { createEvent, createPick, createRecommendations, FINAL_2_1, matchResultClosingLine, nextEventId, recId, type BetSpec, type EventSpec } from '../../helpers/settlementFixtures';

/**
 * Every rule of the contract's settlement table (docs/settlement.md) (and the quarter-line and parlay rules) reached on
 * purpose, settled by the real settlement worker process from queued jobs, and read back through
 * GET /v2/bets/events/{eventId}/settle-bet.
 */
type Expect = { result: 'won' | 'lost' | 'push' | null; detail?: string; rpu?: number; actual?: number; reason?: string };
interface Scenario {
  name: string;
  event: EventSpec;
  bets: (BetSpec & { expect: Expect })[];
  state: 'settled' | 'unplayed';
  statsSource?: string;
}

const W = (reason = 'graded'): Expect => ({ result: 'won', detail: 'won', rpu: 2, actual: 2, reason });
const L = (reason = 'graded'): Expect => ({ result: 'lost', detail: 'lost', rpu: 0, actual: 0, reason });
const P = (reason: string): Expect => ({ result: 'push', detail: 'push', rpu: 1, actual: 0, reason });

const SCENARIOS: Scenario[] = [
  {
    name: 'won and lost on a 2-1 (1H 1-0, corners 7-3, cards 6)',
    event: {},
    state: 'settled',
    statsSource: 'liveEventData',
    bets: [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: W() },
      { key: 'mrX', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', expect: L() },
      { key: 'bttsY', betTypeSysname: 'SOCCER_BOTH_TEAMS_TO_SCORE', code: 'Y', expect: W() },
      { key: 'dcX2', betTypeSysname: 'SOCCER_DOUBLE_CHANCE', code: 'X2', expect: L() },
      { key: 'dc1X', betTypeSysname: 'SOCCER_DOUBLE_CHANCE', code: '1X', expect: W() },
      { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, expect: W() },
      { key: 'uo25U', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'U', line: 2.5, expect: L() },
      { key: 'fh1', betTypeSysname: 'SOCCER_FIRST_HALF_RESULT', code: '1', expect: W() },
      { key: 'cards55O', betTypeSysname: 'SOCCER_CARDS_UNDER_OVER', code: 'O', line: 5.5, expect: W() },
    ],
  },
  {
    name: 'exact line hit pushes',
    event: {},
    state: 'settled',
    bets: [
      { key: 'uo3O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 3, expect: P('graded') },
      { key: 'uo3U', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'U', line: 3, expect: P('graded') },
      { key: 'co10U', betTypeSysname: 'SOCCER_CORNERS_UNDER_OVER', code: 'U', line: 10, expect: P('graded') },
      { key: 'ca6O', betTypeSysname: 'SOCCER_CARDS_UNDER_OVER', code: 'O', line: 6, expect: P('graded') },
    ],
  },
  {
    name: 'handicap tie pushes (soccer)',
    event: {},
    state: 'settled',
    bets: [
      { key: 'ah1', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', code: '1', line: -1, expect: P('graded') },
      { key: 'ah2', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', code: '2', line: -1, expect: P('graded') },
    ],
  },
  {
    name: 'handicap tie and exact total push (basketball 100-95)',
    event: { sportId: 2, led: { homeGoals: 100, awayGoals: 95 } },
    state: 'settled',
    bets: [
      { key: 'sp1', betTypeSysname: 'BASKETBALL_SPREAD', code: '1', line: -5, expect: P('graded') },
      { key: 'tp195', betTypeSysname: 'BASKETBALL_TOTAL_POINTS', code: 'O', line: 195, expect: P('graded') },
      { key: 'ml1', betTypeSysname: 'BASKETBALL_MONEYLINE', code: '1', expect: W() },
    ],
  },
  {
    name: 'null goals push every bet of the event',
    event: { led: { ...FINAL_2_1, homeGoals: null } },
    state: 'settled',
    bets: [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: P('missing_score') },
      { key: 'co95O', betTypeSysname: 'SOCCER_CORNERS_UNDER_OVER', code: 'O', line: 9.5, expect: P('missing_score') },
      { key: 'fh1', betTypeSysname: 'SOCCER_FIRST_HALF_RESULT', code: '1', expect: P('missing_score') },
    ],
  },
  {
    name: 'missing corners push corner bets only',
    event: { led: { ...FINAL_2_1, homeCorners: null } },
    state: 'settled',
    bets: [
      { key: 'co95O', betTypeSysname: 'SOCCER_CORNERS_UNDER_OVER', code: 'O', line: 9.5, expect: P('missing_corners') },
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: W() },
    ],
  },
  {
    name: 'missing cards push card bets only',
    event: { led: { ...FINAL_2_1, awayRedCards: null } },
    state: 'settled',
    bets: [
      { key: 'ca55O', betTypeSysname: 'SOCCER_CARDS_UNDER_OVER', code: 'O', line: 5.5, expect: P('missing_cards') },
      { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, expect: W() },
    ],
  },
  {
    name: 'missing first half pushes first-half bets only',
    event: { led: { ...FINAL_2_1, homeGoalsFirstHalf: null, awayGoalsFirstHalf: null } },
    state: 'settled',
    bets: [
      { key: 'fh1', betTypeSysname: 'SOCCER_FIRST_HALF_RESULT', code: '1', expect: P('missing_first_half') },
      { key: 'fhuo05O', betTypeSysname: 'SOCCER_FIRST_HALF_UNDER_OVER', code: 'O', line: 0.5, expect: P('missing_first_half') },
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: W() },
    ],
  },
  {
    name: 'postponed after the start pushes everything',
    event: { status: 'postponed', started: true, led: { homeGoals: 1, awayGoals: 0 } },
    state: 'settled',
    bets: [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: P('void_postponed') },
      { key: 'uo05U', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'U', line: 0.5, expect: P('void_postponed') },
    ],
  },
  {
    name: 'never started settles nothing',
    event: { status: 'postponed', started: false, led: null, endedAt: null },
    state: 'unplayed',
    bets: [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: { result: null } },
      { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, expect: { result: null } },
    ],
  },
  {
    name: 'abandoned (void flag) pushes everything',
    event: { voided: true },
    state: 'settled',
    bets: [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: P('void_abandoned') },
      { key: 'mrX', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', expect: P('void_abandoned') },
    ],
  },
  {
    name: 'quarter lines split the stake (total 3, 2-1)',
    event: {},
    state: 'settled',
    bets: [
      { key: 'uo225O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.25, expect: W() },
      { key: 'uo275O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.75, expect: { result: 'won', detail: 'half_won', rpu: 1.5, actual: 2, reason: 'graded' } },
      { key: 'uo325O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 3.25, expect: { result: 'lost', detail: 'half_lost', rpu: 0.5, actual: 0, reason: 'graded' } },
      { key: 'uo325U', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'U', line: 3.25, expect: { result: 'won', detail: 'half_won', rpu: 1.5, actual: 2, reason: 'graded' } },
      { key: 'ahm125', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', code: '1', line: -1.25, expect: { result: 'lost', detail: 'half_lost', rpu: 0.5, actual: 0, reason: 'graded' } },
      { key: 'ahm075', betTypeSysname: 'SOCCER_ASIAN_HANDICAP', code: '1', line: -0.75, expect: { result: 'won', detail: 'half_won', rpu: 1.5, actual: 2, reason: 'graded' } },
    ],
  },
  {
    name: 'without LiveEventData the final Event.stats are graded',
    event: { led: null, eventStats: FINAL_2_1 },
    state: 'settled',
    statsSource: 'event.stats',
    bets: [{ key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: W() }],
  },
  {
    name: 'LiveEventData wins over Event.stats, nulls included',
    event: { led: { ...FINAL_2_1, awayGoals: null }, eventStats: FINAL_2_1 },
    state: 'settled',
    statsSource: 'liveEventData',
    bets: [{ key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', expect: P('missing_score') }],
  },
];

describe('settlement rules end to end (worker process, settle-bet endpoint)', function () {
  this.timeout(120000);
  let api: TestServer;
  let worker: Spawned;
  const ids: string[] = [];
  let cancelled: string;
  // Events whose closing line ingest captured: Pinnacle closed C1 at 1.9/3.8/3.8 (fair 0.5/0.25/0.25), C2 at 4/4/2 (no margin).
  const C1 = nextEventId();
  const C2 = nextEventId();

  before(async function () {
    await connectMongo();
    for (const s of SCENARIOS) {
      const id = await createEvent(s.event);
      ids.push(id);
      await createRecommendations(id, s.bets);
    }
    cancelled = await createEvent({ status: 'cancelled', started: false, led: null });
    await createRecommendations(cancelled, [{ key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1' }]);
    const [A, B, , , , , , , , I] = ids;
    const K = ids[11];
    await createPick(`pick-won-${A}`, [recId(A, 'mr1'), recId(K, 'uo225O')]);
    await createPick(`pick-push-${A}`, [recId(A, 'mr1'), recId(B, 'uo3O')]);
    await createPick(`pick-lost-${A}`, [recId(B, 'uo3O'), recId(A, 'mrX')]);
    await createPick(`pick-halfwon-${A}`, [recId(K, 'uo275O'), recId(A, 'mr1')]);
    await createPick(`pick-single-${A}`, [recId(A, 'dc1X')]);
    await createPick(`pick-open-${A}`, [recId(A, 'mr1'), recId(I, 'mr1')]);
    await createPick(`pick-void-${A}`, [recId(A, 'mr1'), recId(cancelled, 'mr1')]);
    await createEvent({ id: C1, closingLine: matchResultClosingLine(C1, [1.9, 3.8, 3.8]) });
    await createEvent({ id: C2, closingLine: matchResultClosingLine(C2, [4, 4, 2]) });
    await createRecommendations(C1, [
      { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.1 },
      { key: 'mrX', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', odds: 3.6 },
      { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, odds: 1.9 },
    ]);
    await createRecommendations(C2, [{ key: 'mr2', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '2', odds: 2.2 }]);
    await createPick(`pick-close-single-${C1}`, [recId(C1, 'mr1')]);
    await createPick(`pick-close-parlay-${C1}`, [recId(C1, 'mr1'), recId(C2, 'mr2')]);
    await createPick(`pick-close-partial-${C1}`, [recId(C1, 'mr1'), recId(A, 'mr1')]);

    worker = spawnEntry('workers/settlement.ts', { SETTLEMENT_LOCK_MS: '3000' });
    // What ingest does when an event ends: one delayed job per event and result version.
    for (const id of [...ids, cancelled, C1, C2]) await enqueue(settlementQueue, 'settle-event', { eventId: id, resultVersion: 0 });
    const expectMarked = ids.filter((_, i) => SCENARIOS[i].state === 'settled').concat(cancelled, C1, C2);
    await waitUntil('every ended event to be settled', async () => (await countEventsSettledAt(expectMarked, 0)) === expectMarked.length, 90000, 250);
    api = await startApi();
  });

  after(async () => {
    await api?.close();
    if (worker && worker.child.exitCode === null) (worker.child.kill('SIGTERM'), await worker.exited);
  });

  SCENARIOS.forEach((s, i) => {
    it(`happy: ${s.name}`, async () => {
      const { status, body } = await api.get(`/v2/bets/events/${ids[i]}/settle-bet`);
      expect(status).to.equal(200);
      const d = body.data;
      expect(d.settlement.state).to.equal(s.state);
      if (s.statsSource) expect(d.statsSource).to.equal(s.statsSource);
      expect(d.recommendations).to.have.length(s.bets.length);
      for (const bet of s.bets) {
        const r = d.recommendations.find((x: { id: string }) => x.id === recId(ids[i], bet.key));
        const got = { key: bet.key, result: r.result, detail: r.resultDetail, rpu: r.returnPerUnit, actual: r.actualReturn, reason: r.reasonCode };
        if (bet.expect.result === null) {
          expect(r.settled, bet.key).to.equal(false);
          expect(got).to.include({ result: null, detail: null, rpu: null, actual: null });
          continue;
        }
        expect(r.settled, bet.key).to.equal(true);
        expect(got).to.deep.equal({ key: bet.key, result: bet.expect.result, detail: bet.expect.detail, rpu: bet.expect.rpu, actual: bet.expect.actual, reason: bet.expect.reason });
        expect(r.corrections).to.deep.equal([]);
        expect(Date.parse(r.settlementDate)).to.be.greaterThan(0);
      }
      const settled = s.bets.filter((b) => b.expect.result !== null).length;
      expect(d.summary.recommendations).to.include({ total: s.bets.length, settled, unsettled: s.bets.length - settled });
    });
  });

  it('happy: parlays follow the contract (any lost -> lost, else any push -> push, else won), money multiplies', async () => {
    const { body } = await api.get(`/v2/bets/events/${ids[0]}/settle-bet`);
    const picks = Object.fromEntries(body.data.picks.map((p: { id: string }) => [p.id.replace(/-\d+$/, ''), p]));
    const view = (p: Record<string, unknown>) => ({ settled: p.settled, result: p.result, detail: p.resultDetail, rpu: p.returnPerUnit, actual: p.actualReturn });
    expect(view(picks['pick-won'])).to.deep.equal({ settled: true, result: 'won', detail: 'won', rpu: 4, actual: 4 });
    expect(view(picks['pick-push'])).to.deep.equal({ settled: true, result: 'push', detail: 'push', rpu: 2, actual: 0 });
    expect(view(picks['pick-lost'])).to.deep.equal({ settled: true, result: 'lost', detail: 'lost', rpu: 0, actual: 0 });
    expect(view(picks['pick-halfwon'])).to.deep.equal({ settled: true, result: 'won', detail: 'half_won', rpu: 3, actual: 4 });
    expect(view(picks['pick-single'])).to.deep.equal({ settled: true, result: 'won', detail: 'won', rpu: 2, actual: 2 });
    // A leg on an event that never started keeps the parlay open (it may still be played)...
    expect(view(picks['pick-open'])).to.deep.equal({ settled: false, result: null, detail: null, rpu: null, actual: null });
    expect(picks['pick-open'].legs.map((l: { resultDetail: string | null }) => l.resultDetail)).to.deep.equal(['won', null]);
    // ...while a leg on a cancelled one is void (push), as bookmakers settle parlays.
    expect(view(picks['pick-void'])).to.deep.equal({ settled: true, result: 'push', detail: 'push', rpu: 2, actual: 0 });
    expect(picks['pick-halfwon'].legs.map((l: { resultDetail: string }) => l.resultDetail)).to.deep.equal(['half_won', 'won']);
  });

  it('happy: each settled bet was written once (settlementWrites), unsettled ones never', async () => {
    const recs = await findRecommendationsOfEventsById([...ids, cancelled]);
    expect(recs.filter((r) => r.settled).map((r) => r.settlementWrites)).to.satisfy((xs: number[]) => xs.length >= 40 && xs.every((x) => x === 1));
    expect(recs.filter((r) => !r.settled).map((r) => r.settlementWrites)).to.satisfy((xs: number[]) => xs.length > 0 && xs.every((x) => x === 0));
    const picks = await findPicksById({ settled: true });
    expect(picks.map((p) => p.settlementWrites)).to.satisfy((xs: number[]) => xs.length >= 6 && xs.every((x) => x === 1));
  });

  it('happy: the never-started event is reported unplayed, its bets void and unsettled', async () => {
    const { body } = await api.get(`/v2/bets/events/${ids[9]}/settle-bet`);
    expect(body.data.settlement).to.include({ state: 'unplayed', endState: null, settledVersion: null });
    expect(body.data.finalResult).to.equal(null);
    const { body: c } = await api.get(`/v2/bets/events/${cancelled}/settle-bet`);
    expect(c.data.recommendations[0]).to.include({ settled: false, result: null });
  });

  it('happy: settle-bet shows the LiveEventData used and localizes team names', async () => {
    const { body } = await api.get(`/v2/bets/events/${ids[0]}/settle-bet?locale=es`);
    expect(body.data.liveEventData).to.include({ eventId: ids[0], homeGoals: 2, awayGoals: 1, homeCorners: 7 });
    expect(body.data.finalResult).to.deep.equal(FINAL_2_1);
    expect(body.data.homeTeam).to.deep.equal({ id: 1, name: 'Local FC' });
    expect(body.data.settlement).to.include({ state: 'settled', endState: 'completed', resultVersion: 0, settledVersion: 0 });
  });

  it("happy: settle-bet shows each bet's closing line value; a parlay's multiplies its legs", async () => {
    const { body } = await api.get(`/v2/bets/events/${C1}/settle-bet`);
    const close = (x: { closingOdds: number | null; clv: number | null }) => [x.closingOdds, x.clv];
    const recs = Object.fromEntries(body.data.recommendations.map((r: { id: string }) => [r.id, r]));
    expect(close(recs[recId(C1, 'mr1')])).to.deep.equal([1.9, 0.05]);
    expect(close(recs[recId(C1, 'mrX')])).to.deep.equal([3.8, -0.1]);
    // No closing price of its market: settled all the same, without a closing value.
    expect(recs[recId(C1, 'uo25O')]).to.include({ settled: true, closingOdds: null, clv: null });
    const picks = Object.fromEntries(body.data.picks.map((p: { id: string }) => [p.id.replace(/-\d+$/, ''), p]));
    expect(close(picks['pick-close-single'])).to.deep.equal([1.9, 0.05]);
    // 2.1 x 2.2 = 4.62 taken against 0.5 x 0.5 fair: 1.05 x 1.1 - 1.
    expect(close(picks['pick-close-parlay'])).to.deep.equal([3.8, 0.155]);
    expect(picks['pick-close-parlay'].legs.map(close)).to.deep.equal([
      [1.9, 0.05],
      [2, 0.1],
    ]);
    expect(close(picks['pick-close-partial'])).to.deep.equal([null, null]);
    expect(picks['pick-close-partial'].legs.map(close)).to.deep.equal([
      [1.9, 0.05],
      [null, null],
    ]);
  });

  it('happy: performance equals a recomputation from the settled bets, daily cumulative profit included', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const days = windowDays(today, 30);
    const bets = (await findAllSettledBets())
      .flatMap((b) => {
        const bet = toSettledBet(b);
        return 'problem' in bet ? [] : [bet];
      })
      .filter((b) => days.includes(b.day));
    const expected = performanceReport(recomputeFromBets(bets), { days: 30, today, now: new Date(0) });
    const { status, body } = await api.get('/v2/ai/performance');
    expect(status).to.equal(200);
    expect({ ...body, lastUpdated: null }).to.deep.equal({ ...expected, lastUpdated: null });
    expect(body.recommendations.total).to.be.at.least(40);
    const daily = await api.get('/v2/ai/performance/daily?days=7');
    expect(daily.status).to.equal(200);
    expect(daily.body.days).to.have.length(7);
    const total = daily.body.days.reduce((s: number, d: { profit: number }) => s + d.profit, 0);
    expect(daily.body.days.at(-1).cumulativeProfit).to.be.closeTo(total, 0.011);
    expect(daily.body.profit).to.equal(daily.body.days.at(-1).cumulativeProfit);
  });
});
