import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { hotStats } from '../../../api/cache/hotReads';
import { revokeKey } from '../../../shared/app/billing/accounts';
import { processContext } from '../../../shared/app/processContext';
import { balanceOf, heldRequestsOf } from '../../../shared/platform/billing/credits';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { countChargedRequestsOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { serve, type TestServer } from '../../helpers/api';
import { clearReadData, COMPETITIONS, insertEvents, insertLiveSnapshot, seedReference } from '../../helpers/fixtures';
import { ledgerConsumerForThisSuite } from '../../helpers/ledgerConsumer';
import { accountWithKey, bearer } from '../../helpers/meteredApp';

/** Headers that differ between any two answers (ids, time, balances). */
const VOLATILE = new Set(['date', 'x-request-id', 'x-credits-remaining', 'x-ratelimit-remaining', 'keep-alive', 'connection']);
const stable = (h: Headers) => Object.fromEntries([...h].filter(([name]) => !VOLATILE.has(name)));

const URLS = [
  '/v2/matches?limit=50',
  '/v2/matches?status=live,upcoming&limit=10&page=1',
  '/v2/matches/live',
  '/v2/matches/2302/live-odds',
  '/v2/ai/betting-recommendations',
  '/v2/ai/processed-insights?limit=5',
];

async function get(server: TestServer, path: string, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers: { ...bearer(key), ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('the hot path: a cached read answered ahead of the router, as the router answers it', function () {
  this.timeout(60_000);
  const ledger = ledgerConsumerForThisSuite();
  let hot: TestServer;
  let routed: TestServer;

  before(async () => {
    await connectMongo();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '1000000' });
    await clearReadData();
    await seedReference();
    await insertEvents(
      { id: '2301', start: '2030-03-01T12:00:00Z' },
      { id: '2302', start: '2024-03-01T15:00:00Z', status: 'live' },
      { id: '2303', start: '2030-03-02T15:00:00Z', competition: COMPETITIONS.laLiga },
    );
    await insertLiveSnapshot('2302', 'simulated');
    await bumpCacheVersion('events', 'competitions', 'ai');
    const ctx = processContext();
    hot = await serve(createApp({ ...ctx, config: { ...ctx.config, HOT_READS: true } }));
    routed = await serve(createApp({ ...ctx, config: { ...ctx.config, HOT_READS: false } }));
  });
  after(async () => {
    await hot?.close();
    await routed?.close();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '20' });
  });

  it("happy: the second read of a URL is the hot path's, with the routed answer's status, headers and bytes", async () => {
    const { key } = await accountWithKey(1000);
    for (const url of URLS) {
      await get(routed, url, key);
      const viaRouter = await get(routed, url, key);
      await get(hot, url, key); // learns the URL
      const before = hotStats.served;
      const viaHot = await get(hot, url, key);
      expect(hotStats.served - before, `${url}: answered by the hot path`).to.equal(1);
      expect(viaHot.status, url).to.equal(viaRouter.status);
      expect(stable(viaHot.headers), url).to.deep.equal(stable(viaRouter.headers));
      expect(viaHot.text, url).to.equal(viaRouter.text);
    }
    // gzip: the same compressed form and headers.
    const gz = { 'Accept-Encoding': 'gzip' };
    const viaRouter = await get(routed, URLS[0], key, gz);
    const viaHot = await get(hot, URLS[0], key, gz);
    expect(stable(viaHot.headers)).to.deep.equal(stable(viaRouter.headers));
  });

  it('happy: each hot answer is debited once and charged once; X-Credits-Remaining counts down', async () => {
    const { accountId, key } = await accountWithKey(100);
    await get(hot, URLS[0], key);
    const before = hotStats.served;
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) remaining.push((await get(hot, URLS[0], key)).headers.get('x-credits-remaining') ?? '');
    expect(hotStats.served - before).to.equal(30);
    expect(remaining).to.deep.equal(Array.from({ length: 30 }, (_, i) => String(98 - i)));
    await ledger.written();
    expect(await heldRequestsOf(accountId)).to.equal(0);
    expect(await countChargedRequestsOfAccount(accountId)).to.equal(31);
    expect(await balanceOf(accountId)).to.equal(69);
  });

  it('error: what the hot path does not answer goes to the router checked once: no credits (402), a revoked key (401), a test key, a changed page', async () => {
    const { key } = await accountWithKey(1000);
    await get(hot, URLS[0], key);
    // The URL is known; these keys are not served from memory, and each is checked once.
    const empty = await accountWithKey(0);
    const refusedHot = await get(hot, URLS[0], empty.key);
    const refusedRouted = await get(routed, URLS[0], empty.key);
    expect(refusedHot.status).to.equal(402);
    const withoutId = (text: string) => ({ ...JSON.parse(text), requestId: undefined });
    expect(withoutId(refusedHot.text)).to.deep.equal(withoutId(refusedRouted.text));
    expect(stable(refusedHot.headers)).to.deep.equal(stable(refusedRouted.headers));

    const revoked = await accountWithKey(1000);
    await get(hot, URLS[0], revoked.key);
    await revokeKey(processContext(), revoked.keyId);
    expect((await get(hot, URLS[0], revoked.key)).status).to.equal(401);

    const test = await accountWithKey(1000, 'test');
    const viaTest = await get(hot, URLS[0], test.key);
    expect(viaTest.headers.get('x-key-mode')).to.equal('test');
    expect(viaTest.headers.get('x-credits-consumed')).to.equal('0');

    // A write bumps the version: the page held is not current, the router renders the new one.
    await bumpCacheVersion('events');
    const before = hotStats.served;
    const changed = await get(hot, URLS[0], key);
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('x-cache')).to.equal('MISS');
    expect(hotStats.served).to.equal(before);
    expect((await get(hot, URLS[0], key)).headers.get('x-cache')).to.equal('HIT');
    expect(hotStats.served).to.equal(before + 1);
  });

  it('error: an If-None-Match goes to the router (304 charged like the page), and HOT_READS=false never answers ahead of it', async () => {
    const { key } = await accountWithKey(1000);
    const first = await get(hot, URLS[0], key);
    const etag = first.headers.get('etag') ?? '';
    const before = hotStats.served;
    const notModified = await get(hot, URLS[0], key, { 'If-None-Match': etag });
    expect(notModified.status).to.equal(304);
    expect(notModified.headers.get('x-credits-consumed')).to.equal('1');
    for (let i = 0; i < 3; i++) await get(routed, URLS[0], key);
    expect(hotStats.served).to.equal(before);
  });
});
