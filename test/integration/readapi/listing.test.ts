import { expect } from 'chai';
import { bumpCacheVersion, cacheVersionKey } from '../../../shared/platform/cache/versions';
import { getConfig } from '../../../shared/platform/config';
import { redis } from '../../../shared/platform/db/redis';
import { countMarketsOfEvents } from '../../../shared/platform/db/repositories/eventForms';
import { findEventIdsByStart, setEventFields } from '../../../shared/platform/db/repositories/fixtures';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { startApi, type TestServer } from '../../helpers/api';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const MIN = 60_000;
const T0 = Date.parse('2026-11-26T18:00:00Z');
const EVERY_STATUS = 'upcoming,live,completed,postponed,cancelled';

describe('the listing: lists and counts from one snapshot, kept by the ingest', function () {
  this.timeout(120_000);
  let api: TestServer;
  let handle: ProviderHandle;
  let world = T0;
  const poll = async (minutes: number) => {
    world += minutes * MIN;
    const out = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(world), settlementDelayMs: () => 600_000 });
    if (out.status !== 'ok') throw new Error(`poll: ${out.status}`);
    return out;
  };

  before(async () => {
    api = await startApi();
    await clearIngested();
    handle = createHandle('simulated', new SimulatedProvider({ seed: 11 }));
    await poll(0);
  });
  after(async () => {
    handle?.breaker.shutdown();
    await api.close();
    await clearIngested();
  });

  it('happy: paging through every status while the world moves between pages, count equals the items served, each once (the count of the last page)', async () => {
    const seen: string[] = [];
    const counts: number[] = [];
    let changed = 0;
    for (let page = 1; ; page++) {
      const res = await api.get(`/v2/matches?status=${EVERY_STATUS}&limit=25&page=${page}`);
      expect(res.status).to.equal(200);
      counts.push(res.body.count);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      if (res.body.data.length < 25) break;
      // Kickoffs, prices, scores: the world changes before the next page is asked for.
      const out = await poll(3);
      changed += out.written.events + out.written.prices;
    }
    expect(changed, 'the world changed during the walk').to.be.greaterThan(0);
    // Each page's count is of the snapshot its page came from: events the world adds during the
    // walk start after every listed one, so they join the last pages, and the last count is the
    // number of items served, each once. No page ever counts more than the walk finds.
    expect(new Set(seen).size, 'each event once').to.equal(seen.length);
    expect(seen.length).to.equal(counts[counts.length - 1]);
    expect(counts.every((c, i) => i === 0 || c >= counts[i - 1])).to.equal(true);
  });

  it('happy: after polls that start and end events, each list is what the store says, in its order', async () => {
    for (let i = 0; i < 5; i++) await poll(20);
    for (const status of ['live', 'upcoming', 'completed']) {
      const res = await api.get(`/v2/matches?status=${status}&limit=100`);
      expect(res.status).to.equal(200);
      const stored = await findEventIdsByStart({ status });
      expect(res.body.count, status).to.equal(stored.length);
      expect(res.body.data.map((e: { id: string }) => e.id)).to.deep.equal(stored.slice(0, 100));
    }
    const live = await api.get('/v2/matches/live?limit=100');
    expect(live.body.count).to.equal((await findEventIdsByStart({ status: 'live' })).length);
  });

  it("happy: /v2/stats counts what the store holds after polls, the open markets from the ingest's own writes, kept across a rebuild", async () => {
    for (let i = 0; i < 3; i++) await poll(15);
    const rowsKey = `${getConfig().REDIS_PREFIX}:{cache}:listing:${getConfig().MONGODB_DB}:rows`;
    const expectStatsEqualStore = async () => {
      const stats = (await api.get('/v2/stats')).body.data;
      const open = [...(await findEventIdsByStart({ status: 'upcoming' })), ...(await findEventIdsByStart({ status: 'live' }))];
      for (const status of ['upcoming', 'live', 'completed']) expect(stats.events[status], status).to.equal((await findEventIdsByStart({ status })).length);
      const markets = [...(await countMarketsOfEvents(open)).values()].reduce((a, b) => a + b, 0);
      expect(markets).to.be.greaterThan(0);
      expect(stats.markets).to.equal(markets);
      // Every open event's row holds its market count: the stats read no prices from the store.
      const rows = await redis().hmget(rowsKey, ...open);
      expect(rows.filter((r) => typeof JSON.parse(r ?? '{}').m !== 'number').length, 'open rows without a market count').to.equal(0);
    };
    await expectStatsEqualStore();
    await bumpCacheVersion('events'); // a writer other than the ingest: the listing is rebuilt, the counts kept
    await expectStatsEqualStore();
  });

  it('error: a rebuilt listing is trusted for 10 minutes at most, however the ingest keeps it, so a row a failed poll left stale is corrected', async () => {
    await bumpCacheVersion('events');
    await api.get('/v2/matches?limit=1'); // rebuilt by this reader
    const validKey = `${getConfig().REDIS_PREFIX}:{cache}:listing:${getConfig().MONGODB_DB}:valid`;
    const ttl = await redis().ttl(validKey);
    expect(ttl).to.be.within(590, 600);
    await poll(2); // the ingest's writes keep the listing valid, and keep its expiry
    expect(await redis().get(validKey)).to.equal(await redis().get(cacheVersionKey('events')));
    expect(await redis().ttl(validKey)).to.be.within(1, ttl);
    // A poll that wrote the store but died before the listing: its row is stale until the expiry.
    const [first] = await findEventIdsByStart({ status: 'upcoming' });
    await setEventFields(first, { status: 'cancelled' });
    expect((await api.get('/v2/matches?status=cancelled&limit=100')).body.data.map((e: { id: string }) => e.id)).to.not.include(first);
    await redis().expire(validKey, 1);
    await new Promise((r) => setTimeout(r, 1100));
    await poll(0.1); // a new page version
    expect((await api.get('/v2/matches?status=cancelled&limit=100')).body.data.map((e: { id: string }) => e.id)).to.include(first);
  });

  it('error: a writer other than the ingest (a correction, an operator) bumps the version and the listing is rebuilt from the store', async () => {
    const [first] = await findEventIdsByStart({ status: 'upcoming' });
    const before = (await api.get(`/v2/matches?status=postponed&limit=100`)).body.count;
    await setEventFields(first, { status: 'postponed' });
    await bumpCacheVersion('events');
    const after = await api.get(`/v2/matches?status=postponed&limit=100`);
    expect(after.body.count).to.equal(before + 1);
    expect(after.body.data.map((e: { id: string }) => e.id)).to.include(first);
  });
});
