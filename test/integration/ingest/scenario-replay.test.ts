import { resolve } from 'node:path';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { countAllEvents, countAllEventPrices, countAllOddsHistory, findLiveEventDataOfEvent } from '../../../shared/platform/db/repositories/events';
import { findEventById, findLiveOddsSnapshot } from '../../../shared/platform/db/repositories/eventForms';
import { findOddsHistoryRows } from '../../../shared/platform/db/repositories/fixtures';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { loadScenario } from '../../../shared/platform/providers/simulated/scenario';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const DIR = resolve(__dirname, '../../../docs/scenarios');
const at = (hhmm: string) => new Date(`2026-11-21T${hhmm}:00Z`);

async function settleJobs(): Promise<string[]> {
  const jobs = await queueFor(settlementQueue).getJobs(['delayed', 'waiting']);
  return jobs
    .filter((j) => j.name === 'settle-event')
    .map((j) => j.id!)
    .sort();
}

const ev = async (id: string) => (await findEventById(id))!;

describe('ingest: a scenario file replayed exactly', function () {
  this.timeout(120_000);
  let handle: ProviderHandle;
  const poll = (t: Date) => pollProvider(processContext(), handle, { slot: nextSlot(), at: t, settlementDelayMs: () => 150_000 });

  before(connectMongo);
  beforeEach(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
  });
  afterEach(() => handle?.breaker.shutdown());
  after(clearIngested);

  it('happy: soccer-settlement-rules - prices, incidents, end states, nulls and a correction, minute by minute', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(resolve(DIR, 'soccer-settlement-rules.json')) }));

    // 12:00 - an hour before kickoff: every event upcoming at its scripted prices.
    expect((await poll(at('12:00'))).status).to.equal('ok');
    let e1 = await ev('7100001');
    expect(e1.status).to.equal('upcoming');
    expect(e1.markets.map((m) => m.id)).to.include.members(['7100001-SOCCER_MATCH_RESULT', '7100001-SOCCER_UNDER_OVER@3', '7100001-SOCCER_ASIAN_HANDICAP@-1', '7100001-SOCCER_CORNERS_UNDER_OVER@10']);
    const mr = () => e1.markets.find((m) => m.betTypeSysname === 'SOCCER_MATCH_RESULT')!.betItems;
    expect(mr().map((i) => i.price)).to.deep.equal([2.1, 3.4, 3.6]);
    expect(mr()[0].bookPrices).to.deep.equal({ 'simbook-a': 2.15, 'simbook-b': 2.05 });
    expect(await countAllEvents()).to.equal(8);

    // 12:35 - the pre-match move at minute -30; the never-started event is announced at -20.
    await poll(at('12:35'));
    e1 = await ev('7100001');
    expect(mr().map((i) => i.price)).to.deep.equal([2.05, 3.45, 3.7]);
    expect((await ev('7100006')).status).to.equal('upcoming');

    // 13:15 - live: goal at 11', the in-play move at 12'; event 6 postponed before it started.
    await poll(at('13:15'));
    e1 = await ev('7100001');
    expect(e1.status).to.equal('live');
    expect(e1.liveStats).to.include({ homeGoals: 1, awayGoals: 0, homeCorners: 0, phaseSysname: 'FIRST_HALF', elapsedSeconds: 900, isInPlay: true });
    expect(mr().map((i) => i.price)).to.deep.equal([1.55, 4.0, 6.5]);
    const snapB = (await findLiveOddsSnapshot('7100001', 'simbook-b'))!;
    const mrB = (snapB.liveMarkets as any[]).find((m) => m.marketSysname === 'SOCCER_MATCH_RESULT');
    expect(mrB.betItems.map((i: any) => [i.code, i.price, i.priceChange])).to.deep.equal([
      ['1', 1.5, -0.55],
      ['X', 3.9, 0.6],
    ]);
    const cons = (await findLiveOddsSnapshot('7100001', 'simulated'))!;
    expect((cons.liveMarkets as any[])[0].betItems[0]).to.include({ price: 1.55, priceChange: -0.5 });
    expect(cons.capturedAt.toISOString()).to.equal(at('13:15').toISOString());
    const e6 = await ev('7100006');
    expect([e6.status, e6.startedAt]).to.deep.equal(['postponed', null]);

    // 13:35 - event 5 postponed at 30' (after it started): settles; event 6 never does.
    await poll(at('13:35'));
    const e5 = await ev('7100005');
    expect(e5.status).to.equal('postponed');
    expect(e5.startedAt).to.not.equal(null);
    expect((e5.stats as any).homeGoals).to.equal(1);
    expect(await settleJobs()).to.deep.equal(['settle-7100005-v0']);

    // 14:15 - event 7 abandoned at 70': completed with the void flag.
    await poll(at('14:15'));
    const e7 = await ev('7100007');
    expect([e7.status, e7.voided, (e7.stats as any).phase, (e7.stats as any).homeGoals]).to.deep.equal(['completed', true, 'ABANDONED', 2]);

    // 14:46 - everything else has ended: exact finals, nulls where the scenario says.
    await poll(at('14:46'));
    e1 = await ev('7100001');
    expect(e1.status).to.equal('completed');
    expect(e1.stats).to.deep.equal({
      homeGoals: 2,
      awayGoals: 1,
      homeGoalsFirstHalf: 1,
      awayGoalsFirstHalf: 0,
      homeCorners: 6,
      awayCorners: 4,
      homeYellowCards: 1,
      awayYellowCards: 2,
      homeRedCards: 0,
      awayRedCards: 1,
      phase: 'FULL_TIME',
    });
    expect((await ev('7100002')).stats).to.include({ homeGoals: null, awayGoals: null });
    expect((await ev('7100003')).stats).to.include({ homeGoals: 0, awayGoals: 1, homeCorners: null, awayCorners: null, homeYellowCards: null, awayRedCards: null });
    expect((await ev('7100004')).stats).to.include({ homeGoals: 1, homeGoalsFirstHalf: null, awayGoalsFirstHalf: null });
    const led = (await findLiveEventDataOfEvent('7100002'))!;
    expect([led.homeGoals, led.awayGoals, led.isLive]).to.deep.equal([null, null, false]);
    expect(await settleJobs()).to.deep.equal(['settle-7100001-v0', 'settle-7100002-v0', 'settle-7100003-v0', 'settle-7100004-v0', 'settle-7100005-v0', 'settle-7100007-v0', 'settle-7100008-v0']);

    // 15:15 - the published correction of event 8 (130'): a new result version settles again.
    await poll(at('15:15'));
    const e8 = await ev('7100008');
    expect(e8.resultVersion).to.equal(1);
    expect((e8.stats as any).homeCorners).to.equal(6);
    expect(await settleJobs()).to.include('settle-7100008-v1');

    // The odds history of the home price is exactly the scripted sequence, at the polled instants.
    const rows = await findOddsHistoryRows({ betItemId: '7100001-SOCCER_MATCH_RESULT-1' });
    expect(rows.map((r) => [r.price, r.at.toISOString()])).to.deep.equal([
      [2.1, at('12:00').toISOString()],
      [2.05, at('12:35').toISOString()],
      [1.55, at('13:15').toISOString()],
    ]);
  });

  it('happy: multi-sport-rules - every other sport ends exactly as scripted', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(resolve(DIR, 'multi-sport-rules.json')) }));
    await poll(at('12:10'));
    await poll(at('12:42'));
    const bb = await ev('7200001');
    expect(bb.status).to.equal('live');
    expect(bb.liveStats).to.include({ homeGoals: 3, awayGoals: 2, phaseSysname: 'FIRST_QUARTER' });
    await poll(at('16:30'));
    const finals: Record<string, [number | null, number | null, string]> = {
      '7200001': [110, 105, 'FULL_TIME'],
      '7200002': [20, 20, 'AFTER_OVERTIME'],
      '7200003': [3, 2, 'AFTER_OVERTIME'],
      '7200004': [28, 28, 'FULL_TIME'],
      '7200005': [5, 3, 'FULL_TIME'],
      '7200006': [3, 1, 'FULL_TIME'],
      '7200007': [2, 0, 'FULL_TIME'],
    };
    for (const [id, [h, a, phase]] of Object.entries(finals)) {
      const e = await ev(id);
      expect([e.status, (e.stats as any).homeGoals, (e.stats as any).awayGoals, (e.stats as any).phase], id).to.deep.equal(['completed', h, a, phase]);
    }
    expect((await settleJobs()).length).to.equal(7);
  });

  it('happy: replaying the same poll twice writes nothing twice', async () => {
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(resolve(DIR, 'soccer-settlement-rules.json')) }));
    await poll(at('13:15'));
    const before = { history: await countAllOddsHistory(), snaps: await countAllEventPrices(), events: await countAllEvents() };
    // A second worker polling the same instant under a new slot (after a lost lock, say).
    const again = await poll(at('13:15'));
    expect(again.status).to.equal('ok');
    if (again.status === 'ok') expect(again.written.history).to.equal(0);
    expect({ history: await countAllOddsHistory(), snaps: await countAllEventPrices(), events: await countAllEvents() }).to.deep.equal(before);
  });
});
