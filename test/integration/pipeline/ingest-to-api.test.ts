import { expect } from 'chai';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { createHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { fixturesOfDay, type SimFixture } from '../../../shared/platform/providers/simulated/schedule';
import { COMPETITIONS } from '../../../shared/platform/providers/simulated/world';
import { startApi, type TestServer } from '../../helpers/api';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const SEED = 777;
const DAY = 86_400_000;
const MIN = 60_000;

function soccerFixture(): SimFixture {
  const first = Math.floor(Date.parse('2026-11-21T00:00:00Z') / DAY);
  for (let d = first; d < first + 30; d++) {
    for (const c of COMPETITIONS.filter((x) => x.sportId === 1)) {
      const f = fixturesOfDay(SEED, c, d).find((x) => x.end === 'completed' && !Object.values(x.missing).some(Boolean));
      if (f) return f;
    }
  }
  throw new Error('no soccer fixture');
}

/**
 * The pipeline's contract between its two halves: what an ingest poll writes shows on the very
 * next API request, even though the API serves pages from its Redis cache.
 */
describe('pipeline: ingest writes reach the cached API on the next request', function () {
  this.timeout(120_000);
  let api: TestServer;
  before(async () => {
    await connectMongo();
    await clearIngested();
    api = await startApi();
  });
  after(async () => {
    await api.close();
    await clearIngested();
  });

  it('happy: status, live stats and live odds follow each poll through the page cache', async () => {
    const f = soccerFixture();
    const handle = createHandle('simulated', new SimulatedProvider({ seed: SEED, eventIds: new Set([f.eventId]) }));
    const poll = (t: number) => pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(t), settlementDelayMs: () => 1000 });

    await poll(f.start - 60 * MIN);
    const before = await api.get(`/v2/matches/${f.eventId}`);
    expect(before.status).to.equal(200);
    expect(before.body.data.status).to.equal('upcoming');
    // Warm the list page too: it must not keep serving the upcoming event once it is live.
    const upcomingList = await api.get('/v2/matches?status=live');
    expect(upcomingList.body.data.map((e: { id: string }) => e.id)).to.not.include(f.eventId);

    await poll(f.start + 30 * MIN);
    const live = await api.get('/v2/matches/live');
    const liveEvent = live.body.data.find((e: { id: string }) => e.id === f.eventId);
    expect(liveEvent, 'live list shows the event after the poll').to.not.equal(undefined);
    expect(liveEvent.stats.isLive).to.equal(true);
    const listed = await api.get('/v2/matches?status=live');
    expect(listed.body.data.map((e: { id: string }) => e.id)).to.include(f.eventId);
    const odds1 = await api.get(`/v2/matches/${f.eventId}/live-odds`);
    expect(odds1.status).to.equal(200);

    await poll(f.start + 70 * MIN);
    const odds2 = await api.get(`/v2/matches/${f.eventId}/live-odds`);
    expect(odds2.status).to.equal(200);
    expect(odds2.body.data.capturedAt).to.not.equal(odds1.body.data.capturedAt);

    await poll(f.start + 200 * MIN);
    const done = await api.get(`/v2/matches/${f.eventId}`);
    expect(done.body.data.status).to.equal('completed');
    expect(done.body.data.stats).to.include.keys('homeGoals', 'awayGoals');
  });
});
