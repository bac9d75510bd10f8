import { expect } from 'chai';
import { findEventIdsByStart } from '../../../shared/platform/db/repositories/fixtures';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { startApi, type TestServer } from '../../helpers/api';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const T0 = Date.parse('2026-11-27T20:00:00Z');

/**
 * The first poll of a world of about 5,000 events writes every event's listing row and whole body
 * to Redis in one go. As one script call its arguments overflowed the call stack, the poll failed
 * after its store writes, and its retry found nothing left to write: the live list stayed empty.
 */
describe('a first poll of about 5,000 events: every event listed with its body', function () {
  this.timeout(180_000);
  let api: TestServer;
  let handle: ProviderHandle;

  before(async () => {
    api = await startApi();
    await clearIngested();
    handle = createHandle('simulated', new SimulatedProvider({ seed: 37, rollingLive: 500, rollingAhead: 6 }));
  });
  after(async () => {
    handle?.breaker.shutdown();
    await api.close();
    await clearIngested();
  });

  it('happy: the poll succeeds at once; /v2/matches/live lists every stored live event, each with its live stats', async () => {
    const out = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(T0), settlementDelayMs: () => 600_000 });
    if (out.status !== 'ok') throw new Error(`poll: ${out.status}`);
    expect(out.written.events, 'the whole world written').to.be.greaterThan(4_500);

    const live = await findEventIdsByStart({ status: 'live' });
    expect(live.length).to.be.greaterThan(400);
    const served: { id: string; status: string; stats?: { referenceTime?: string | null } }[] = [];
    for (let page = 1; ; page++) {
      const res = await api.get(`/v2/matches/live?limit=100&page=${page}`);
      expect(res.status).to.equal(200);
      expect(res.body.count).to.equal(live.length);
      served.push(...res.body.data);
      if (res.body.data.length < 100) break;
    }
    expect(served.map((e) => e.id)).to.deep.equal(live);
    expect(served.filter((e) => e.status !== 'live' || !e.stats?.referenceTime).map((e) => e.id)).to.deep.equal([]);
  });
});
