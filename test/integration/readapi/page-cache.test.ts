import { get as httpGet, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { cacheStats } from '../../../api/cache/pageCache';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { setEnvForChildren } from '../../../shared/platform/config';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { key, redis } from '../../../shared/platform/db/redis';
import { deleteReferenceDocuments, setCompetitionFields, setEventFields, setLiveOddsSnapshotFields, upsertReferenceDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { COMPETITIONS, insertLiveSnapshot } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

const price = (body: any, eventId: string) => body.data.find((e: { id: string }) => e.id === eventId).markets[0].betItems[0].price as number;

describe('read API page cache (Redis, invalidated by scope versions)', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApiWith(
      { id: '1201', start: '2030-03-01T12:00:00Z' },
      { id: '1202', start: '2030-03-01T15:00:00Z', competition: COMPETITIONS.laLiga },
      { id: '1203', start: '2024-03-01T15:00:00Z', status: 'live' },
    );
    await insertLiveSnapshot('1203', 'simulated');
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  it('happy: the first request renders (MISS), the next ones are served from the cache (HIT) with the same bytes', async () => {
    const first = await api.get('/v2/matches?limit=50');
    expect(first.headers.get('x-cache')).to.equal('MISS');
    const again = await api.get('/v2/matches?limit=50');
    expect(again.headers.get('x-cache')).to.equal('HIT');
    expect(again.body).to.deep.equal(first.body);
  });

  it('happy: a change written straight to the store shows on the next request once ingest bumps the version', async () => {
    const before = await api.get('/v2/matches?limit=50');
    const old = price(before.body, '1201');
    await setEventFields('1201', { 'markets.0.betItems.0.price': old + 1 }); // markets[0] is the match result
    // Without the version bump the cached page is still served: the version is the contract.
    const stale = await api.get('/v2/matches?limit=50');
    expect(stale.headers.get('x-cache')).to.equal('HIT');
    expect(price(stale.body, '1201')).to.equal(old);
    await bumpCacheVersion('events'); // exactly what ingest does (the bump is announced: docs/read-api.md)
    const fresh = await api.get('/v2/matches?limit=50');
    expect(fresh.headers.get('x-cache')).to.equal('MISS');
    expect(price(fresh.body, '1201')).to.equal(old + 1);
  });

  it('happy: status and deletions: an event leaving the filter disappears on the next request', async () => {
    await api.get('/v2/matches?status=live');
    await setEventFields('1203', { status: 'completed', stats: { homeGoals: 3, awayGoals: 0, phase: 'FT' } });
    await bumpCacheVersion('events');
    const live = await api.get('/v2/matches?status=live');
    expect(live.body).to.deep.equal({ data: [], count: 0 });
    const done = await api.get('/v2/matches?status=completed');
    expect(done.body.data[0].stats).to.include({ homeGoals: 3, awayGoals: 0, phase: 'FT' });
  });

  it('happy: equivalent queries share one page: list order, repetition, defaults and zone spelling', async () => {
    const base = await api.get('/v2/matches?status=upcoming,completed&date=2030-03-01&timezone=Europe/Madrid');
    expect(base.headers.get('x-cache')).to.equal('MISS');
    for (const q of [
      'status=completed,upcoming&date=2030-03-01&timezone=Europe/Madrid',
      'status=completed&status=upcoming&date=2030-03-01&timezone=europe/madrid&limit=100&page=1&locale=en',
      'timezone=Europe/Madrid&date=2030-03-01&status=upcoming&status=completed,upcoming',
    ]) {
      const res = await api.get(`/v2/matches?${q}`);
      expect(res.headers.get('x-cache'), q).to.equal('HIT');
      expect(res.body).to.deep.equal(base.body);
    }
    // A different locale is a different page.
    expect((await api.get('/v2/matches?status=upcoming,completed&date=2030-03-01&timezone=Europe/Madrid&locale=es')).headers.get('x-cache')).to.equal('MISS');
  });

  it('happy: pages live in Redis under the deployment prefix for at most CACHE_TTL_S, shared by every web process', async () => {
    await api.get('/v2/matches?limit=7');
    const keys = await redis().keys(`${key('cache', 'page', 'matches')}:*`);
    expect(keys.length).to.be.greaterThan(0);
    const ttl = await redis().ttl(keys[0]);
    expect(ttl).to.be.within(1, 30);
    // Another process has an empty memory: it is served from Redis without rendering.
    renewProcessScope();
    const misses = cacheStats.misses;
    const redisHits = cacheStats.redisHits;
    const res = await api.get('/v2/matches?limit=7');
    expect(res.headers.get('x-cache')).to.equal('HIT');
    expect(cacheStats.redisHits).to.equal(redisHits + 1);
    expect(cacheStats.misses).to.equal(misses);
  });

  it('happy: concurrent misses of one page render it once', async () => {
    await bumpCacheVersion('events');
    const misses = cacheStats.misses;
    const results = await Promise.all(Array.from({ length: 25 }, () => api.get('/v2/matches?limit=3')));
    expect(cacheStats.misses).to.equal(misses + 1);
    expect(results.filter((r) => r.headers.get('x-cache') === 'MISS')).to.have.length(1);
    for (const r of results) expect(r.body).to.deep.equal(results[0].body);
  });

  it('happy: a page expires after CACHE_TTL_S even without a version change', async function () {
    this.timeout(10000);
    setEnvForChildren({ CACHE_TTL_S: '1' });
    try {
      expect((await api.get('/v2/regions?locale=pt')).headers.get('x-cache')).to.equal('MISS');
      expect((await api.get('/v2/regions?locale=pt')).headers.get('x-cache')).to.equal('HIT');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await api.get('/v2/regions?locale=pt')).headers.get('x-cache')).to.equal('MISS');
    } finally {
      setEnvForChildren({ CACHE_TTL_S: '30' });
    }
  });

  it('happy: CACHE_TTL_S=0 turns the cache off', async () => {
    setEnvForChildren({ CACHE_TTL_S: '0' });
    try {
      const a = await api.get('/v2/matches?limit=2');
      expect(a.headers.get('x-cache')).to.equal('BYPASS');
      expect((await api.get('/v2/matches?limit=2')).headers.get('x-cache')).to.equal('BYPASS');
    } finally {
      setEnvForChildren({ CACHE_TTL_S: '30' });
    }
  });

  it('happy: reference data has its own scope: a competition renamed shows after the competitions bump', async () => {
    const captions = async () => (await api.get('/v2/competitions?status=upcoming,live,completed')).body.data.map((c: { caption: string }) => c.caption);
    expect(await captions()).to.include('LaLiga');
    await setCompetitionFields(11, { 'name.en': 'LaLiga EA Sports' });
    expect(await captions()).to.include('LaLiga');
    await bumpCacheVersion('competitions');
    expect(await captions()).to.include('LaLiga EA Sports');
    await setCompetitionFields(11, { 'name.en': 'LaLiga' });
    await bumpCacheVersion('competitions');
    expect(await captions()).to.include('LaLiga');
  });

  it('happy: /v2/stats counts the reference collections once per competitions version: a team shows after that bump, not after an events bump alone', async () => {
    const teams = async () => (await api.get('/v2/stats')).body.data.teams as number;
    const before = await teams();
    await upsertReferenceDocuments({ teams: [{ _id: 990_001, name: { en: 'Counted Once FC' }, sportId: 1, regionId: 1, searchNames: ['counted once fc'] }] });
    try {
      // The events version moves at every poll: the stats page renders again, its reference counts are kept.
      await bumpCacheVersion('events');
      expect(await teams()).to.equal(before);
      await bumpCacheVersion('competitions');
      expect(await teams()).to.equal(before + 1);
    } finally {
      await deleteReferenceDocuments({ teams: [990_001] });
      await bumpCacheVersion('competitions');
    }
    expect(await teams()).to.equal(before);
  });

  it('happy: live odds are cached per event, provider and locale and follow the events version', async () => {
    const a = await api.get('/v2/matches/1203/live-odds');
    const b = await api.get('/v2/matches/1203-slug/live-odds');
    expect(b.headers.get('x-cache')).to.equal('HIT');
    expect(b.body).to.deep.equal(a.body);
    await setLiveOddsSnapshotFields('1203', 'simulated', { 'liveMarkets.0.betItems.0.price': 9.99, capturedAt: new Date('2030-01-01T00:00:00Z') });
    await bumpCacheVersion('events');
    const c = await api.get('/v2/matches/1203/live-odds');
    expect(c.body.data.capturedAt).to.equal('2030-01-01T00:00:00.000Z');
    expect(c.body.data.liveMarkets[0].betItems[0].price).to.equal(9.99);
  });

  it('security: a missing live-odds snapshot is a cached 404 (free requests cannot load the database) until data changes', async () => {
    const first = await api.get('/v2/matches/1201/live-odds');
    expect(first.status).to.equal(404);
    expect(first.headers.get('x-cache')).to.equal('MISS');
    const again = await api.get('/v2/matches/1201/live-odds');
    expect(again.status).to.equal(404);
    expect(again.headers.get('x-cache')).to.equal('HIT');
    expect(again.body).to.deep.equal(first.body);
    renewProcessScope();
    const fromRedis = await api.get('/v2/matches/1201/live-odds');
    expect(fromRedis.status).to.equal(404);
    expect(fromRedis.headers.get('x-cache')).to.equal('HIT');
    await insertLiveSnapshot('1201', 'simulated');
    await bumpCacheVersion('events');
    const now = await api.get('/v2/matches/1201/live-odds');
    expect(now.status).to.equal(200);
    expect(now.body.data.eventId).to.equal('1201');
  });

  it('happy: clients accepting gzip get the same page compressed', async () => {
    const plain = await api.get('/v2/matches?limit=50');
    const res = await fetch(`${api.url}/v2/matches?limit=50`, { headers: { 'Accept-Encoding': 'gzip', Authorization: `Bearer ${api.key}` } });
    expect(res.headers.get('vary')).to.equal('Accept-Encoding');
    // fetch decompresses transparently; read the raw bytes with a plain request to see the encoding.
    const raw = await new Promise<{ enc: string | undefined; body: Buffer }>((resolve, reject) => {
      httpGet(`${api.url}/v2/matches?limit=50`, { headers: { 'Accept-Encoding': 'gzip, deflate', Authorization: `Bearer ${api.key}` } }, (r: IncomingMessage) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ enc: r.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(raw.enc).to.equal('gzip');
    expect(JSON.parse(gunzipSync(raw.body).toString())).to.deep.equal(plain.body);
    expect(raw.body.length).to.be.lessThan(JSON.stringify(plain.body).length / 4);
  });

  /** The raw bytes of a page as sent (fetch would decompress them). */
  const rawGet = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      httpGet(`${api.url}${path}`, { headers: { Authorization: `Bearer ${api.key}`, ...headers } }, (r: IncomingMessage) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('happy: brotli and gzip forms decompress to exactly the identity bytes, and one ETag names all three', async () => {
    const identity = await rawGet('/v2/matches?limit=50', { 'Accept-Encoding': 'identity' });
    const br = await rawGet('/v2/matches?limit=50', { 'Accept-Encoding': 'gzip, deflate, br' });
    const gz = await rawGet('/v2/matches?limit=50', { 'Accept-Encoding': 'gzip, br;q=0' });
    expect([identity.headers['content-encoding'], br.headers['content-encoding'], gz.headers['content-encoding']]).to.deep.equal([undefined, 'br', 'gzip']);
    expect(brotliDecompressSync(br.body).equals(identity.body)).to.equal(true);
    expect(gunzipSync(gz.body).equals(identity.body)).to.equal(true);
    expect(identity.headers.etag).to.match(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(new Set([identity.headers.etag, br.headers.etag, gz.headers.etag]).size).to.equal(1);
  });

  it("happy: If-None-Match with the page's ETag is a 304 without a body, charged like the page; a changed page is a 200 with a new ETag", async () => {
    const first = await rawGet('/v2/matches?limit=50', {});
    const etag = String(first.headers.etag);
    const again = await rawGet('/v2/matches?limit=50', { 'If-None-Match': etag });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    expect(again.headers.etag).to.equal(etag);
    expect(again.headers['x-credits-consumed']).to.equal('1');
    expect(Number(again.headers['x-credits-remaining'])).to.equal(Number(first.headers['x-credits-remaining']) - 1);
    expect((await rawGet('/v2/matches?limit=50', { 'If-None-Match': '"something-else", W/"older"' })).status).to.equal(200);
    const old = price(JSON.parse(first.body.toString()), '1202');
    await setEventFields('1202', { 'markets.0.betItems.0.price': old + 1 });
    await bumpCacheVersion('events');
    const changed = await rawGet('/v2/matches?limit=50', { 'If-None-Match': etag });
    expect(changed.status).to.equal(200);
    expect(changed.headers.etag).to.not.equal(etag);
  });

  it('happy: the detail view is never cached: views and AI data are always current', async () => {
    const a = await api.get('/v2/matches/1201');
    const b = await api.get('/v2/matches/1201');
    expect(a.headers.get('x-cache')).to.equal(null);
    expect(b.body.data.views).to.equal(a.body.data.views + 1);
  });
});
