import { expect } from 'chai';
import { enqueue, queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { findLiveEventDataOfEvent } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import {
  countEventsSettledAt,
  deleteRecommendation,
  findPicksById,
  findRecommendationsOfEventsById,
  findRollupById,
  insertRawRecommendation,
  setRollupFields,
} from '../../../shared/platform/db/repositories/fixtures';
import { processContext } from '../../../shared/app/processContext';
import { CorrectionConflictError, correctResult, type CorrectionOutcome } from '../../../shared/app/settlement/correct';
import { refreshRollupDays } from '../../../shared/app/settlement/rollups';
import { betDay } from '../../../shared/domain/settlement/state';
import { startApi, type TestServer } from '../../helpers/api';
import { cli } from '../../helpers/cli';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { createEvent, createPick, createRecommendations, recId, type BetSpec } from '../../helpers/settlementFixtures';

/**
 * The operator commands around settlement, each run as its own process against a real settlement
 * worker process: check-performance proves the stored rollups equal a recomputation from the bets
 * (and --fix repairs them); correct-result changes a final score, and the worker re-grades the
 * event under the new resultVersion.
 */
// On a 2-1: '1' and over 2.5 win, 'X' loses, both teams to score wins. On 1-1: '1' and over 2.5
// lose, 'X' wins, both teams to score still wins (unchanged: no correction, no second write).
const BETS: BetSpec[] = [
  { key: 'mr1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.1, confidence: 'High' },
  { key: 'mrX', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', odds: 3.4, confidence: 'High' },
  { key: 'uo25O', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 2.5, odds: 1.8, confidence: 'Medium' },
  { key: 'bttsY', betTypeSysname: 'SOCCER_BOTH_TEAMS_TO_SCORE', code: 'Y', odds: 1.9, confidence: 'Low' },
];

describe('operator settlement commands (check-performance, correct-result) with a settlement worker process', function () {
  this.timeout(180000);
  let api: TestServer;
  let worker: Spawned;
  let corrected: string;
  let other: string;
  let upcoming: string;

  const settledAt = (ids: string[], version: number) => async () => (await countEventsSettledAt(ids, version)) === ids.length;

  before(async function () {
    await connectMongo();
    corrected = await createEvent();
    other = await createEvent({ start: new Date(Date.now() - 2 * 86_400_000) });
    upcoming = await createEvent({ status: 'upcoming', led: null });
    await createRecommendations(corrected, BETS);
    await createRecommendations(other, BETS);
    await createPick(`parlay-${corrected}`, [recId(corrected, 'mr1'), recId(corrected, 'bttsY')]);
    await createPick(`single-${corrected}`, [recId(corrected, 'mrX')]);
    worker = spawnEntry('workers/settlement.ts', { SETTLEMENT_LOCK_MS: '3000' });
    for (const id of [corrected, other]) await enqueue(settlementQueue, 'settle-event', { eventId: id, resultVersion: 0 });
    await waitUntil('both events to be settled', settledAt([corrected, other], 0), 90000, 250);
    api = await startApi();
  });

  after(async () => {
    await api?.close();
    if (worker && worker.child.exitCode === null) (worker.child.kill('SIGTERM'), await worker.exited);
  });

  it('happy: check-performance exits 0 on rollups the worker wrote', async () => {
    const r = await cli('check-performance', '--json');
    expect(r.code, r.err).to.equal(0);
    expect(r.json).to.include({ equal: true, settledRecommendations: 8 });
    expect(r.json.mismatches).to.deep.equal([]);
    const human = await cli('check-performance');
    expect(human.code).to.equal(0);
    expect(human.out).to.match(/performance OK: \d+ stored rollups over 2 days equal the recomputation from 8 settled recommendations/);
  });

  it('error: a tampered rollup makes check-performance exit 1 naming the day, confidence and counter; --fix repairs it', async () => {
    const day = betDay((await findEventById(other))!.startDateTime);
    const before = await findRollupById(`${day}|High`);
    expect(before).to.include({ wins: 1, losses: 1 });
    await setRollupFields(`${day}|High`, { wins: 5 });

    const bad = await cli('check-performance');
    expect(bad.code).to.equal(1);
    expect(bad.out).to.include(`${day} High wins: stored 5, recomputed 1`).and.match(/--fix/);
    const badJson = await cli('check-performance', '--json');
    expect(badJson.code).to.equal(1);
    expect(badJson.json.mismatches).to.deep.equal([{ day, confidence: 'High', counter: 'wins', stored: 5, recomputed: 1 }]);

    const fixed = await cli('check-performance', '--fix', '--json');
    expect(fixed.code, fixed.err).to.equal(0);
    expect(fixed.json.fixed).to.deep.include({ days: [day] });
    expect(fixed.json.fixed.after).to.include({ equal: true });
    expect(await findRollupById(`${day}|High`)).to.include({ wins: 1, losses: 1 });
    expect((await cli('check-performance')).code).to.equal(0);
  });

  it("error: a settled bet that cannot be counted is named by check-performance and does not stop its day's rollups", async () => {
    const start = (await findEventById(other))!.startDateTime;
    const day = betDay(start);
    const source = (await findRecommendationsOfEventsById([other]))[0];
    const badId = `${source._id}-hand-edited`;
    await insertRawRecommendation({ ...source, _id: badId, settled: true, result: 'won', resultDetail: null, returnPerUnit: 2 });
    try {
      const r = await cli('check-performance');
      expect(r.code).to.equal(1);
      expect(r.out).to.include(`${badId}: result won does not match resultDetail null`);
      const json = (await cli('check-performance', '--json')).json;
      expect(json.invalidBets).to.deep.equal([{ id: badId, problem: 'result won does not match resultDetail null' }]);
      expect(json.mismatches).to.deep.equal([]);
      // The worker's refresh of that day still runs over the other bets.
      await refreshRollupDays(processContext(), [day]);
      expect(await findRollupById(`${day}|High`)).to.include({ wins: 1, losses: 1 });
    } finally {
      await deleteRecommendation(badId);
    }
    expect((await cli('check-performance')).code).to.equal(0);
  });

  it('happy: correct-result 2-1 -> 1-1 re-grades the event: bets, history, picks and performance follow', async () => {
    const perf0 = (await api.get('/v2/ai/performance')).body;
    const r = await cli('correct-result', '--event', corrected, '--home-goals', '1', '--json');
    expect(r.code, r.err).to.equal(0);
    expect(r.json).to.deep.include({ eventId: corrected, changed: true, previousVersion: 0, resultVersion: 1, jobId: `settle-${corrected}-v1` });
    expect(r.json.changes).to.deep.equal([{ field: 'homeGoals', from: 2, to: 1 }]);
    expect(await findLiveEventDataOfEvent(corrected)).to.include({ homeGoals: 1, awayGoals: 1 });
    expect((await findEventById(corrected))!.stats).to.include({ homeGoals: 1, awayGoals: 1, homeCorners: 7 });

    await waitUntil('the corrected version to be settled', settledAt([corrected], 1), 60000, 250);
    const recs = Object.fromEntries((await findRecommendationsOfEventsById([corrected])).map((x) => [x._id.replace(`rec-${corrected}-`, ''), x]));
    const view = (k: string) => ({ result: recs[k].result, rpu: recs[k].returnPerUnit, writes: recs[k].settlementWrites, version: recs[k].settledVersion });
    expect(view('mr1')).to.deep.equal({ result: 'lost', rpu: 0, writes: 2, version: 1 });
    expect(view('mrX')).to.deep.equal({ result: 'won', rpu: 3.4, writes: 2, version: 1 });
    expect(view('uo25O')).to.deep.equal({ result: 'lost', rpu: 0, writes: 2, version: 1 });
    expect(view('bttsY')).to.deep.equal({ result: 'won', rpu: 1.9, writes: 1, version: 1 });
    expect(recs.mr1.corrections).to.have.length(1);
    expect(recs.mr1.corrections[0]).to.include({
      previousResult: 'won',
      previousResultDetail: 'won',
      previousReturnPerUnit: 2.1,
      newResult: 'lost',
      newResultDetail: 'lost',
      newReturnPerUnit: 0,
      resultVersion: 1,
    });
    expect(recs.mrX.corrections[0]).to.include({ previousResult: 'lost', newResult: 'won' });
    expect(recs.bttsY.corrections).to.deep.equal([]);

    const parlay = (await findPicksById({ ids: [`parlay-${corrected}`] }))[0];
    expect(parlay).to.include({ result: 'lost', settlementWrites: 2 });
    expect(parlay.corrections[0]).to.include({ previousResult: 'won', newResult: 'lost' });
    expect(parlay.legs.map((l) => l.resultDetail)).to.deep.equal(['lost', 'won']);
    const single = (await findPicksById({ ids: [`single-${corrected}`] }))[0];
    expect(single).to.include({ result: 'won', returnPerUnit: 3.4, settlementWrites: 2 });

    // Exactly the three changed bets move the figures: 2 wins become losses, 1 loss a win;
    // returned changes by -2.1 - 1.8 + 3.4 = -0.5 units.
    const perf1 = (await api.get('/v2/ai/performance')).body;
    expect(perf1.recommendations.total).to.equal(perf0.recommendations.total);
    expect(perf1.recommendations.wins).to.equal(perf0.recommendations.wins - 1);
    expect(perf1.recommendations.losses).to.equal(perf0.recommendations.losses + 1);
    expect(Number(perf1.overall.profit) - Number(perf0.overall.profit)).to.be.closeTo(-0.5, 0.005);
    const high = (p: any) => p.byConfidence.find((c: { confidence: string }) => c.confidence === 'High');
    expect(high(perf1)).to.include({ total: high(perf0).total, wins: high(perf0).wins });
    const medium = (p: any) => p.byConfidence.find((c: { confidence: string }) => c.confidence === 'Medium');
    expect(medium(perf1).wins).to.equal(medium(perf0).wins - 1);

    const check = await cli('check-performance', '--json');
    expect(check.code, check.out).to.equal(0);
    expect(check.json.equal).to.equal(true);
  });

  it('happy: repeating the same correction changes nothing (no new version, no job)', async () => {
    const r = await cli('correct-result', '--event', corrected, '--home-goals', '1', '--json');
    expect(r.code, r.err).to.equal(0);
    expect(r.json).to.include({ changed: false, resultVersion: 1, jobId: null });
    expect((await findEventById(corrected))!.resultVersion).to.equal(1);
    expect(await queueFor(settlementQueue).getJob(`settle-${corrected}-v2`)).to.equal(undefined);
  });

  describe('error: refused corrections change nothing', () => {
    const cases: [string, () => string[], RegExp][] = [
      ['unknown event', () => ['--event', 'nope-404', '--home-goals', '1'], /--event: no event "nope-404"/],
      ['event not ended', () => ['--event', upcoming, '--home-goals', '1'], /--event: event \d+ has not ended \(status upcoming\)/],
      ['negative count', () => ['--event', other, '--home-goals=-1'], /--home-goals: must be a whole number >= 0 or null \(got "-1"\)/],
      ['negative count, spaced', () => ['--event', other, '--home-goals', '-1'], /'--home-goals' argument is ambiguous/],
      ['not a number', () => ['--event', other, '--away-corners', 'abc'], /--away-corners: must be a whole number >= 0 or null \(got "abc"\)/],
      ['fractional count', () => ['--event', other, '--home-red-cards', '1.5'], /--home-red-cards: must be a whole number/],
      ['bad void flag', () => ['--event', other, '--void', 'yes'], /--void: must be true or false/],
      ['nothing to correct', () => ['--event', other], /--event: nothing to correct/],
      ['missing event', () => ['--home-goals', '1'], /--event is required/],
    ];
    for (const [name, args, message] of cases) {
      it(`${name}: exits non-zero naming the argument`, async () => {
        const ids = [other, upcoming];
        const versions = async () => (await Promise.all(ids.map(findEventById))).map((e) => [e?.resultVersion, e?.stats?.homeGoals ?? null]);
        const before = await versions();
        const r = await cli('correct-result', ...args());
        expect(r.code).to.not.equal(0);
        expect(r.err).to.match(message);
        expect(await versions()).to.deep.equal(before);
        for (const id of ids) expect(await queueFor(settlementQueue).getJob(`settle-${id}-v1`)).to.equal(undefined);
      });
    }
  });

  it('security: two concurrent corrections of one event never take the same version', async () => {
    for (let i = 0; i < 5; i++) {
      const id = await createEvent();
      const runs = await Promise.allSettled([correctResult(processContext(), { eventId: id, stats: { homeGoals: 5 } }), correctResult(processContext(), { eventId: id, stats: { awayGoals: 4 } })]);
      const done = runs.filter((r): r is PromiseFulfilledResult<CorrectionOutcome> => r.status === 'fulfilled').map((r) => r.value);
      for (const r of runs) if (r.status === 'rejected') expect(r.reason).to.be.instanceOf(CorrectionConflictError);
      expect(done.length).to.be.at.least(1);
      expect(new Set(done.map((d) => d.resultVersion)).size, 'distinct versions').to.equal(done.length);
      const event = (await findEventById(id))!;
      expect(event.resultVersion).to.equal(done.length);
      // Every correction that reported success is in the data, none half-applied.
      const expected = { homeGoals: 2, awayGoals: 1 };
      for (const d of done) for (const c of d.changes) Object.assign(expected, { [c.field]: c.to });
      expect(event.stats).to.include(expected);
      expect(await findLiveEventDataOfEvent(id)).to.include(expected);
    }
  });
});
