import { resolve } from 'node:path';
import { expect } from 'chai';
import { enqueue, queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { betProblem, dailyBreakdown, performanceReport, recomputeFromBets, windowDays } from '../../../shared/domain/grading';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { findAllSettledBets } from '../../../shared/platform/db/repositories/ai';
import { countEventsSettledAt, findPicksById, findRecommendationsOfEventsById } from '../../../shared/platform/db/repositories/fixtures';
import { findSettledVersion } from '../../../shared/platform/db/repositories/eventSettlements';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { loadScenario, type Scenario } from '../../../shared/platform/providers/simulated/scenario';
import { toSettledBet } from '../../../shared/app/settlement/rollups';
import { startApi, type TestServer } from '../../helpers/api';
import { nextSlot } from '../../helpers/ingest';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { createPick, createRecommendations, recId } from '../../helpers/settlementFixtures';

/**
 * Settlement end to end: the two scenario files replayed through the real ingest path (pollProvider
 * on the simulated provider, at the scripted instants), recommendations and picks stored while the
 * events are upcoming, settled by the real settlement worker process from the settle-event jobs
 * ingest enqueued, read back through settle-bet and /v2/ai/performance, then the soccer file's
 * 15:15 correction of event 7100008 re-grading a corners bet and moving performance by exactly it.
 *
 * The files script 2026-11-21. Performance windows end today and reach back at most 365 days, so
 * the replay moves each file by whole days to YESTERDAY (UTC): every scripted instant stays the
 * same relative to the file's start, and the bets (bet day = the event's UTC start day) fall in a
 * 7-day window whatever date the suite runs on.
 */

const DIR = resolve(__dirname, '../../../docs/scenarios');
const DAY_MS = 86_400_000;
const REPLAY_DAY = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
const WINDOW = 7;
const at = (hhmm: string) => new Date(`${REPLAY_DAY}T${hhmm}:00Z`);

function replayedYesterday(file: string): Scenario {
  const s = loadScenario(resolve(DIR, file));
  const start = Date.parse(s.start);
  const shift = Date.parse(`${REPLAY_DAY}T00:00:00Z`) - Date.parse(`${s.start.slice(0, 10)}T00:00:00Z`);
  return { ...s, start: new Date(start + shift).toISOString() };
}

type Result = 'won' | 'lost' | 'push';
type Detail = Result | 'half_won' | 'half_lost';
interface Outcome {
  result: Result | null;
  detail?: Detail;
  reason?: string;
}
const W: Outcome = { result: 'won', detail: 'won', reason: 'graded' };
const L: Outcome = { result: 'lost', detail: 'lost', reason: 'graded' };
const HW: Outcome = { result: 'won', detail: 'half_won', reason: 'graded' };
const HL: Outcome = { result: 'lost', detail: 'half_lost', reason: 'graded' };
const P = (reason = 'graded'): Outcome => ({ result: 'push', detail: 'push', reason });
const NONE: Outcome = { result: null };

/** Money back per unit staked at `odds`: the stake split on quarter lines (the contract's three results carry no money). */
function returnPerUnit(detail: Detail | null | undefined, odds: number): number {
  return { won: odds, half_won: (odds + 1) / 2, push: 1, half_lost: 0.5, lost: 0 }[detail!] ?? NaN;
}

interface BetCase {
  key: string;
  betTypeSysname: string;
  code: string;
  line: number | null;
  expect: Outcome;
  /** The grading before the 15:15 correction, when it differs. */
  before?: Outcome;
  confidence?: 'High' | 'Medium' | 'Low';
}
const b = (key: string, betTypeSysname: string, code: string, line: number | null, expect: Outcome, extra: Partial<BetCase> = {}): BetCase => ({ key, betTypeSysname, code, line, expect, ...extra });

interface EventCase {
  id: string;
  rule: string;
  state: 'settled' | 'unplayed';
  endState: 'completed' | 'postponed' | 'abandoned' | null;
  bets: BetCase[];
}

const SOCCER: EventCase[] = [
  {
    id: '7100001',
    rule: 'won and lost on 2-1; exact total line, exact corners line and handicap tie push; quarter line -0.75 half won / half lost',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('mr1', 'SOCCER_MATCH_RESULT', '1', null, W),
      b('mrX', 'SOCCER_MATCH_RESULT', 'X', null, L),
      b('uo3O', 'SOCCER_UNDER_OVER', 'O', 3, P()),
      b('uo3U', 'SOCCER_UNDER_OVER', 'U', 3, P()),
      b('uo25O', 'SOCCER_UNDER_OVER', 'O', 2.5, W),
      b('ah1', 'SOCCER_ASIAN_HANDICAP', '1', -1, P()),
      b('ah2', 'SOCCER_ASIAN_HANDICAP', '2', -1, P()),
      b('ahq1', 'SOCCER_ASIAN_HANDICAP', '1', -0.25, W),
      b('ahq2', 'SOCCER_ASIAN_HANDICAP', '2', -0.25, L),
      b('ah75_1', 'SOCCER_ASIAN_HANDICAP', '1', -0.75, HW),
      b('ah75_2', 'SOCCER_ASIAN_HANDICAP', '2', -0.75, HL),
      b('bttsY', 'SOCCER_BOTH_TEAMS_TO_SCORE', 'Y', null, W),
      b('dcX2', 'SOCCER_DOUBLE_CHANCE', 'X2', null, L),
      b('co10U', 'SOCCER_CORNERS_UNDER_OVER', 'U', 10, P()),
      b('ca45O', 'SOCCER_CARDS_UNDER_OVER', 'O', 4.5, L),
      b('ca45U', 'SOCCER_CARDS_UNDER_OVER', 'U', 4.5, W),
      b('fh1', 'SOCCER_FIRST_HALF_RESULT', '1', null, W),
      b('fhuo05O', 'SOCCER_FIRST_HALF_UNDER_OVER', 'O', 0.5, W),
    ],
  },
  {
    id: '7100002',
    rule: 'null goals push every bet of the event, corners included',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('mr1', 'SOCCER_MATCH_RESULT', '1', null, P('missing_score')),
      b('uo25O', 'SOCCER_UNDER_OVER', 'O', 2.5, P('missing_score')),
      b('co95O', 'SOCCER_CORNERS_UNDER_OVER', 'O', 9.5, P('missing_score')),
    ],
  },
  {
    id: '7100003',
    rule: 'missing corners and cards push only those bets',
    state: 'settled',
    endState: 'completed',
    bets: [b('mr2', 'SOCCER_MATCH_RESULT', '2', null, W), b('co95O', 'SOCCER_CORNERS_UNDER_OVER', 'O', 9.5, P('missing_corners')), b('ca35O', 'SOCCER_CARDS_UNDER_OVER', 'O', 3.5, P('missing_cards'))],
  },
  {
    id: '7100004',
    rule: 'missing first half pushes only first-half bets',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('mr1', 'SOCCER_MATCH_RESULT', '1', null, W),
      b('fh1', 'SOCCER_FIRST_HALF_RESULT', '1', null, P('missing_first_half')),
      b('fhuo05O', 'SOCCER_FIRST_HALF_UNDER_OVER', 'O', 0.5, P('missing_first_half')),
    ],
  },
  {
    id: '7100005',
    rule: 'postponed at 30 (after the start) pushes everything',
    state: 'settled',
    endState: 'postponed',
    bets: [b('mr1', 'SOCCER_MATCH_RESULT', '1', null, P('void_postponed')), b('uo25U', 'SOCCER_UNDER_OVER', 'U', 2.5, P('void_postponed'))],
  },
  {
    id: '7100006',
    rule: 'never started settles nothing',
    state: 'unplayed',
    endState: null,
    bets: [b('mr1', 'SOCCER_MATCH_RESULT', '1', null, NONE)],
  },
  {
    id: '7100007',
    rule: 'abandoned at 70 (void flag) pushes everything, though home led 2-0',
    state: 'settled',
    endState: 'abandoned',
    bets: [b('mr1', 'SOCCER_MATCH_RESULT', '1', null, P('void_abandoned')), b('uo25O', 'SOCCER_UNDER_OVER', 'O', 2.5, P('void_abandoned'))],
  },
  {
    id: '7100008',
    rule: 'the 15:15 correction (corners 9 -> 10) re-grades the corners bet only',
    state: 'settled',
    endState: 'completed',
    bets: [b('mr2', 'SOCCER_MATCH_RESULT', '2', null, W), b('co95O', 'SOCCER_CORNERS_UNDER_OVER', 'O', 9.5, W, { before: L, confidence: 'High' })],
  },
];

const MULTI: EventCase[] = [
  {
    id: '7200001',
    rule: 'basketball 110-105: spread -5 lands on the line (both sides push), total under',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('ml1', 'BASKETBALL_MONEYLINE', '1', null, W),
      b('sp1', 'BASKETBALL_SPREAD', '1', -5, P()),
      b('sp2', 'BASKETBALL_SPREAD', '2', -5, P()),
      b('tpO', 'BASKETBALL_TOTAL_POINTS', 'O', 215.5, L),
    ],
  },
  {
    id: '7200002',
    rule: 'NFL 20-20 after overtime: the two-way moneyline pushes both sides',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('ml1', 'AMERICAN_FOOTBALL_MONEYLINE', '1', null, P()),
      b('ml2', 'AMERICAN_FOOTBALL_MONEYLINE', '2', null, P()),
      b('sp2', 'AMERICAN_FOOTBALL_SPREAD', '2', -1.5, W),
      b('tpU', 'AMERICAN_FOOTBALL_TOTAL_POINTS', 'U', 44.5, W),
    ],
  },
  {
    id: '7200003',
    rule: 'hockey 3-2 decided in overtime: moneyline incl. OT won, puck line by one goal',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('ml1', 'ICE_HOCKEY_MONEYLINE', '1', null, W),
      b('pl1', 'ICE_HOCKEY_PUCK_LINE', '1', -1.5, L),
      b('pl2', 'ICE_HOCKEY_PUCK_LINE', '2', -1.5, W),
      b('tgU', 'ICE_HOCKEY_TOTAL_GOALS', 'U', 6, W),
    ],
  },
  {
    id: '7200004',
    rule: 'handball 28-28: X wins the three-way market, total 56 pushes',
    state: 'settled',
    endState: 'completed',
    bets: [
      b('mrX', 'HANDBALL_MATCH_RESULT', 'X', null, W),
      b('mr1', 'HANDBALL_MATCH_RESULT', '1', null, L),
      b('hc2', 'HANDBALL_HANDICAP', '2', -2.5, W),
      b('tgO', 'HANDBALL_TOTAL_GOALS', 'O', 56, P()),
    ],
  },
  {
    id: '7200005',
    rule: 'baseball 5-3: run line covered, total 8 pushes',
    state: 'settled',
    endState: 'completed',
    bets: [b('ml1', 'BASEBALL_MONEYLINE', '1', null, W), b('rl1', 'BASEBALL_RUN_LINE', '1', -1.5, W), b('trO', 'BASEBALL_TOTAL_RUNS', 'O', 8, P())],
  },
  {
    id: '7200006',
    rule: 'volleyball 3-1 in sets: set handicap covered, total 4 sets pushes',
    state: 'settled',
    endState: 'completed',
    bets: [b('mw1', 'VOLLEYBALL_MATCH_WINNER', '1', null, W), b('sh1', 'VOLLEYBALL_SET_HANDICAP', '1', -1.5, W), b('tsO', 'VOLLEYBALL_TOTAL_SETS', 'O', 4, P())],
  },
  {
    id: '7200007',
    rule: 'tennis 2-0 in sets: set handicap won, under 2.5 sets won',
    state: 'settled',
    endState: 'completed',
    bets: [b('mw1', 'TENNIS_MATCH_WINNER', '1', null, W), b('sh1', 'TENNIS_SET_HANDICAP', '1', -1.5, W), b('tsU', 'TENNIS_TOTAL_SETS', 'U', 2.5, W)],
  },
];

const CASES = [...SOCCER, ...MULTI];
const EVENT_IDS = CASES.map((c) => c.id);
const SETTLED_IDS = CASES.filter((c) => c.state === 'settled').map((c) => c.id);
const CONFIDENCES = ['Medium', 'Low', 'High'] as const;
const CORRECTED = recId('7100008', 'co95O');

/** Parlays over the events (ids), with the result each must end with. */
const PICKS: { id: string; legs: string[]; result: Result | null; detail?: Detail; before?: Result }[] = [
  { id: 'pick-won', legs: [recId('7100001', 'mr1'), recId('7100003', 'mr2')], result: 'won' },
  { id: 'pick-halfwon', legs: [recId('7100001', 'ah75_1'), recId('7100003', 'mr2')], result: 'won', detail: 'half_won' },
  // Lost only through a half-lost leg: money still comes back (0.5 x the push's 1).
  { id: 'pick-halflost', legs: [recId('7100001', 'ah75_2'), recId('7100002', 'mr1')], result: 'lost', detail: 'half_lost' },
  { id: 'pick-push', legs: [recId('7100001', 'mr1'), recId('7100002', 'mr1')], result: 'push' },
  { id: 'pick-lost', legs: [recId('7100005', 'mr1'), recId('7100001', 'mrX')], result: 'lost' },
  // A leg on the never-started event keeps the parlay open: the match may still be played.
  { id: 'pick-open', legs: [recId('7100001', 'mr1'), recId('7100006', 'mr1')], result: null },
  { id: 'pick-corrected', legs: [recId('7100008', 'co95O'), recId('7100001', 'mr1')], result: 'won', before: 'lost' },
  { id: 'pick-single', legs: [recId('7100008', 'mr2')], result: 'won' },
  { id: 'pick-multi', legs: [recId('7200003', 'ml1'), recId('7200002', 'ml1'), recId('7200001', 'ml1')], result: 'push' },
];

type Body = Record<string, any>;

describe('settlement of the scenario files end to end (ingest, worker process, settle-bet, performance)', function () {
  this.timeout(240_000);
  let api: TestServer;
  let worker: Spawned;
  const handles: ProviderHandle[] = [];
  /** Odds each recommendation was stored at (the event's price when it was written). */
  const odds = new Map<string, number>();
  let v0: Body;
  let atV0: { perf: Body; daily: Body; expected: Awaited<ReturnType<typeof recomputed>> };

  const poll = async (handle: ProviderHandle, hhmm: string) => {
    const out = await pollProvider(processContext(), handle, { slot: nextSlot(), at: at(hhmm), settlementDelayMs: () => 300 });
    expect(out.status, `poll at ${hhmm}`).to.equal('ok');
  };
  const settleBet = async (id: string): Promise<Body> => {
    const { status, body } = await api.get(`/v2/bets/events/${id}/settle-bet`);
    expect(status, id).to.equal(200);
    return body.data;
  };
  const performance = async () => ({
    perf: (await api.get(`/v2/ai/performance?days=${WINDOW}`)).body,
    daily: (await api.get(`/v2/ai/performance/daily?days=${WINDOW}`)).body,
  });

  /** The AI worker's write, as createRecommendations stores it, at the price the event shows now. */
  async function recommend(c: EventCase, index: { i: number }): Promise<void> {
    const event = (await findEventById(c.id))!;
    expect(event.status, `${c.id} must be upcoming when recommended`).to.equal('upcoming');
    const specs = c.bets.map((bet) => {
      const market = event.markets.find((m) => m.id === `${c.id}-${bet.betTypeSysname}${bet.line === null ? '' : `@${bet.line}`}`);
      const price = market?.betItems.find((i) => i.code === bet.code)?.price;
      if (typeof price !== 'number') throw new Error(`${c.id} ${bet.key}: no priced bet item in the ingested markets`);
      odds.set(recId(c.id, bet.key), price);
      return { ...bet, odds: price, confidence: bet.confidence ?? CONFIDENCES[index.i++ % 3], edgePercentage: 2 + (index.i % 5) };
    });
    await createRecommendations(c.id, specs);
  }

  before(async function () {
    await connectMongo();
    // Performance is compared with a recomputation from every settled bet: this file's database
    // holds only its own (test/helpers/fileStores.ts).
    worker = spawnEntry('workers/settlement.ts', { SETTLEMENT_LOCK_MS: '3000' });
    const soccer = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: replayedYesterday('soccer-settlement-rules.json') }));
    const multi = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: replayedYesterday('multi-sport-rules.json') }));
    handles.push(soccer, multi);

    // Both files an hour / twenty minutes before their first kickoff: every event upcoming.
    await poll(soccer, '12:00');
    await poll(multi, '12:10');
    const index = { i: 0 };
    for (const c of CASES) await recommend(c, index);
    for (const p of PICKS) await createPick(p.id, p.legs);

    // Every event to its end state; the worker settles each from the job ingest enqueued.
    for (const t of ['12:35', '13:15', '13:35', '14:15', '14:46']) await poll(soccer, t);
    for (const t of ['12:42', '16:30']) await poll(multi, t);
    await waitUntil('every ended event settled at version 0', async () => (await countEventsSettledAt(SETTLED_IDS, 0)) === SETTLED_IDS.length, 120_000, 250);
    api = await startApi();
    v0 = await settleBet('7100008');
    atV0 = { ...(await performance()), expected: await recomputed() };

    // The published correction: a new result version, settled by its own job.
    await poll(soccer, '15:15');
    await waitUntil('the correction of 7100008 settled', async () => (await findSettledVersion('7100008'))?.settledVersion === 1, 60_000, 250);
  });

  after(async () => {
    await api?.close();
    if (worker && worker.child.exitCode === null) (worker.child.kill('SIGTERM'), await worker.exited);
    handles.forEach((h) => h.breaker.shutdown());
  });

  const expectBet = (c: EventCase, r: Body, want: Outcome, key: string) => {
    const o = odds.get(recId(c.id, key))!;
    const got = { key, settled: r.settled, result: r.result, detail: r.resultDetail, rpu: r.returnPerUnit, actual: r.actualReturn, reason: r.reasonCode };
    if (want.result === null) {
      expect(got).to.deep.equal({ key, settled: false, result: null, detail: null, rpu: null, actual: null, reason: null });
      return;
    }
    expect(got).to.deep.equal({ key, settled: true, result: want.result, detail: want.detail, rpu: returnPerUnit(want.detail, o), actual: want.result === 'won' ? o : 0, reason: want.reason });
    expect(Date.parse(r.settlementDate), key).to.be.greaterThan(0);
  };

  CASES.forEach((c) => {
    it(`happy: ${c.id} ${c.rule}`, async () => {
      const d = await settleBet(c.id);
      expect(d.settlement).to.include({ state: c.state, endState: c.endState });
      if (c.state === 'settled') expect(d.statsSource).to.equal('liveEventData');
      else expect([d.finalResult, d.settlement.settledVersion]).to.deep.equal([null, null]);
      expect(d.recommendations.map((r: Body) => r.id)).to.have.members(c.bets.map((bet) => recId(c.id, bet.key)));
      for (const bet of c.bets) {
        const r = d.recommendations.find((x: Body) => x.id === recId(c.id, bet.key));
        expectBet(c, r, bet.expect, bet.key);
        if (!bet.before) expect(r.corrections, bet.key).to.deep.equal([]);
      }
      const settled = c.bets.filter((bet) => bet.expect.result !== null).length;
      const n = (res: Result) => c.bets.filter((bet) => bet.expect.result === res).length;
      expect(d.summary.recommendations).to.deep.equal({ total: c.bets.length, settled, unsettled: c.bets.length - settled, won: n('won'), lost: n('lost'), push: n('push') });
    });
  });

  it('happy: before 15:15 event 7100008 was settled at version 0 with the corners over lost (9 corners)', () => {
    const c = SOCCER.find((x) => x.id === '7100008')!;
    expect(v0.settlement).to.include({ state: 'settled', resultVersion: 0, settledVersion: 0 });
    expect(v0.finalResult).to.include({ homeCorners: 5, awayCorners: 4 });
    for (const bet of c.bets)
      expectBet(
        c,
        v0.recommendations.find((x: Body) => x.id === recId(c.id, bet.key)),
        bet.before ?? bet.expect,
        bet.key,
      );
    expect(v0.recommendations.every((r: Body) => r.corrections.length === 0)).to.equal(true);
    const picks = Object.fromEntries(v0.picks.map((p: Body) => [p.id, [p.settled, p.result]]));
    expect(picks).to.deep.equal({ 'pick-corrected': [true, 'lost'], 'pick-single': [true, 'won'] });
  });

  it('happy: the 15:15 correction re-grades the corners over lost -> won, with its history; the match result stays', async () => {
    const d = await settleBet('7100008');
    expect(d.settlement).to.include({ state: 'settled', resultVersion: 1, settledVersion: 1 });
    expect(d.finalResult).to.include({ homeCorners: 6, awayCorners: 4, homeGoals: 0, awayGoals: 1 });
    const co = d.recommendations.find((r: Body) => r.id === CORRECTED);
    const o = odds.get(CORRECTED)!;
    expect(co.corrections).to.have.length(1);
    const { correctedAt, ...entry } = co.corrections[0];
    expect(entry).to.deep.equal({
      previousResult: 'lost',
      previousResultDetail: 'lost',
      previousReturnPerUnit: 0,
      newResult: 'won',
      newResultDetail: 'won',
      newReturnPerUnit: o,
      resultVersion: 1,
      reason: 'event result corrected (resultVersion 1)',
    });
    expect(Date.parse(correctedAt)).to.be.greaterThan(Date.parse(co.settlementDate));
    // settlementDate keeps the first settlement.
    expect(co.settlementDate).to.equal(v0.recommendations.find((r: Body) => r.id === CORRECTED).settlementDate);
    const mr2 = d.recommendations.find((r: Body) => r.id === recId('7100008', 'mr2'));
    expect(mr2).to.deep.equal(v0.recommendations.find((r: Body) => r.id === recId('7100008', 'mr2')));
  });

  it('happy: picks follow their legs (any lost -> lost, else any push -> push, else won) and the correction', async () => {
    const all = new Map<string, Body>();
    for (const id of EVENT_IDS) for (const p of (await settleBet(id)).picks) all.set(p.id, p);
    expect([...all.keys()]).to.have.members(PICKS.map((p) => p.id));
    for (const p of PICKS) {
      const got = all.get(p.id)!;
      const legs = p.legs.map((rid) => {
        const [, eventId] = rid.split('-');
        return CASES.find((c) => c.id === eventId)!.bets.find((x) => recId(eventId, x.key) === rid)!.expect;
      });
      expect(
        got.legs.map((l: Body) => [l.result, l.resultDetail]),
        p.id,
      ).to.deep.equal(legs.map((l) => [l.result, l.detail ?? null]));
      if (p.result === null) {
        expect({ settled: got.settled, result: got.result, rpu: got.returnPerUnit }, p.id).to.deep.equal({ settled: false, result: null, rpu: null });
        continue;
      }
      const rpu = p.legs.reduce((x, rid, i) => x * returnPerUnit(legs[i].detail, odds.get(rid)!), 1);
      const totalOdds = p.legs.reduce((x, rid) => x * odds.get(rid)!, 1);
      expect({ settled: got.settled, result: got.result, detail: got.resultDetail }, p.id).to.deep.equal({ settled: true, result: p.result, detail: p.detail ?? p.result });
      expect(got.returnPerUnit, p.id).to.be.closeTo(rpu, 1e-9);
      expect(got.actualReturn, p.id).to.be.closeTo(p.result === 'won' ? totalOdds : 0, 1e-9);
      if (!p.before) expect(got.corrections, p.id).to.deep.equal([]);
    }
    const corrected = all.get('pick-corrected')!;
    expect(corrected.corrections.map((e: Body) => [e.previousResult, e.newResult, e.previousReturnPerUnit, e.resultVersion])).to.deep.equal([['lost', 'won', 0, 1]]);
  });

  it('happy: each settled bet and pick was written once, the corrected ones twice, the unsettled never', async () => {
    const recs = await findRecommendationsOfEventsById(EVENT_IDS);
    const writes = Object.fromEntries(recs.map((r) => [r._id, [r.settled, r.settlementWrites]]));
    const expected = Object.fromEntries(CASES.flatMap((c) => c.bets.map((bet) => [recId(c.id, bet.key), bet.expect.result === null ? [false, 0] : [true, bet.before ? 2 : 1]])));
    expect(writes).to.deep.equal(expected);
    const picks = await findPicksById({ ids: PICKS.map((p) => p.id) });
    expect(Object.fromEntries(picks.map((p) => [p._id, [p.settled, p.settlementWrites]]))).to.deep.equal(
      Object.fromEntries(PICKS.map((p) => [p.id, p.result === null ? [false, 0] : [true, p.before ? 2 : 1]])),
    );
  });

  it('happy: /v2/ai/performance and /daily equal a recomputation from the bets, before and after the correction', async () => {
    const now = await performance();
    const expected = await recomputed();
    expect({ ...atV0.perf, lastUpdated: null }).to.deep.equal({ ...atV0.expected.report, lastUpdated: null });
    expect(atV0.daily.days).to.deep.equal(atV0.expected.daily);
    expect({ ...now.perf, lastUpdated: null }).to.deep.equal({ ...expected.report, lastUpdated: null });
    expect(now.daily.days).to.deep.equal(expected.daily);
    // Every bet of both files is in the window (their day is REPLAY_DAY).
    expect(now.daily.days.find((d: Body) => d.date === REPLAY_DAY).total).to.be.at.least(CASES.flatMap((c) => c.bets).filter((x) => x.expect.result).length);
  });

  it('happy: the correction moves performance by exactly the flip (one loss -> one win at its odds, High confidence, its day)', async () => {
    const { perf, daily } = await performance();
    const flip = odds.get(CORRECTED)!;
    const counts = (r: Body) => ({ total: r.total, wins: r.wins, losses: r.losses, pushes: r.pushes });
    const moved = (r: Body) => ({ ...counts(r), wins: r.wins + 1, losses: r.losses - 1 });
    expect(counts(perf.recommendations)).to.deep.equal(moved(atV0.perf.recommendations));
    expect([perf.overall.totalBets, perf.overall.wins]).to.deep.equal([atV0.perf.overall.totalBets, atV0.perf.overall.wins + 1]);
    expect(Number(perf.overall.profit) - Number(atV0.perf.overall.profit)).to.be.closeTo(flip, 0.011);
    const band = (r: Body, c: string) => r.byConfidence.find((x: Body) => x.confidence === c);
    expect([band(perf, 'High').total, band(perf, 'High').wins]).to.deep.equal([band(atV0.perf, 'High').total, band(atV0.perf, 'High').wins + 1]);
    expect([band(perf, 'Medium'), band(perf, 'Low')]).to.deep.equal([band(atV0.perf, 'Medium'), band(atV0.perf, 'Low')]);

    expect(daily.days.map((d: Body) => d.date)).to.deep.equal(atV0.daily.days.map((d: Body) => d.date));
    daily.days.forEach((d: Body, i: number) => {
      const was = atV0.daily.days[i];
      if (d.date !== REPLAY_DAY) {
        expect({ ...d, cumulativeProfit: 0 }, d.date).to.deep.equal({ ...was, cumulativeProfit: 0 });
      } else {
        expect(counts(d)).to.deep.equal(moved(was));
        expect(d.returned - was.returned).to.be.closeTo(flip, 0.011);
        expect(d.profit - was.profit).to.be.closeTo(flip, 0.011);
      }
      const shift = d.date >= REPLAY_DAY ? flip : 0;
      expect(d.cumulativeProfit - was.cumulativeProfit, d.date).to.be.closeTo(shift, 0.011);
    });
    expect(daily.profit - atV0.daily.profit).to.be.closeTo(flip, 0.011);
  });

  it('error: settle jobs replayed for every event (a retry, a duplicate) write nothing twice', async () => {
    const snapshot = async () => ({
      recs: await findRecommendationsOfEventsById(EVENT_IDS),
      picks: await findPicksById({ ids: PICKS.map((p) => p.id) }),
      perf: (await performance()).daily.days,
    });
    const was = await snapshot();
    // A new job id per event (version 99 is only the id: the worker settles the event as stored).
    for (const id of EVENT_IDS) await enqueue(settlementQueue, 'settle-event', { eventId: id, resultVersion: 99 });
    const q = queueFor(settlementQueue);
    await waitUntil('the replayed jobs to complete', async () => (await q.getJobs(['completed'])).filter((j) => j.id?.endsWith('v99')).length === EVENT_IDS.length, 60_000, 250);
    expect((await q.getJobs(['failed'])).map((j) => [j.id, j.failedReason])).to.deep.equal([]);
    expect(await snapshot()).to.deep.equal(was);
  });
});

/** What /v2/ai/performance and /daily should say, recomputed from every settled bet in the window. */
async function recomputed() {
  const today = new Date().toISOString().slice(0, 10);
  const days = windowDays(today, WINDOW);
  // As the worker's rollups do: a settled bet that cannot be counted is left out (betProblem).
  const bets = (await findAllSettledBets())
    .flatMap((b) => {
      const bet = toSettledBet(b);
      return 'problem' in bet ? [] : [bet];
    })
    .filter((x) => days.includes(x.day) && betProblem(x) === null);
  const rollups = recomputeFromBets(bets);
  return { report: performanceReport(rollups, { days: WINDOW, today, now: new Date(0) }), daily: dailyBreakdown(rollups, { days: WINDOW, today }) };
}
