import { request } from 'node:http';
import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { analyzeEventJob } from '../../../shared/app/ai/analyze';
import { revokeKey } from '../../../shared/app/billing/accounts';
import { processContext } from '../../../shared/app/processContext';
import { balanceOf } from '../../../shared/platform/billing/credits';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findRecommendationsOfEvent } from '../../../shared/platform/db/repositories/ai';
import { insertSeedDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { appendChanges, type Change } from '../../../shared/platform/feed/changeFeed';
import { serve, type TestServer } from '../../helpers/api';
import { insertEvents } from '../../helpers/fixtures';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { SOCCER_MARKETS, simEvent } from '../../helpers/simEvents';
import { openSse, type SseClient } from '../../helpers/sse';

const POLL_MS = 100;
const at = new Date('2026-11-26T15:00:00Z');
let seq = 0;
const price = (eventId: string, itemPrice = 2): Change => ({
  eventId,
  kind: 'price',
  at: new Date(at.getTime() + seq++),
  data: { items: [{ id: `${eventId}-1`, price: itemPrice, isAvailable: true }] },
  provider: 'simulated',
});
const score = (eventId: string, home: number): Change => ({ eventId, kind: 'score', at: new Date(at.getTime() + seq++), data: { home, away: 0 }, provider: 'simulated' });
const append = (changes: Change[]) => appendChanges('stream-test', `b${seq++}`, changes);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /v2/stream (Server-Sent Events)', function () {
  this.timeout(30000);
  let a: TestServer;
  let b: TestServer;
  const open: SseClient[] = [];
  const sse = async (server: TestServer, query: string, headers: Record<string, string>) => {
    const c = await openSse(`${server.url}/v2/stream${query}`, headers);
    open.push(c);
    return c;
  };
  const env = {
    STREAM_POLL_MS: String(POLL_MS),
    STREAM_HEARTBEAT_MS: '15000',
    STREAM_BILLING_INTERVAL_MS: '60000',
    STREAM_MAX_PENDING: '1000',
    RATE_LIMIT_LIVE_RPS: '1000',
    RATE_LIMIT_TEST_RPS: '1000',
    // What the suite runs with (test/helpers/runEnv.ts) and the default: tests below change them.
    TEST_KEY_SNAPSHOT_S: '0',
    TEST_KEY_DAILY_REQUESTS: '1000',
    STREAM_SLOW_READER_MS: '60000',
  };

  before(async () => {
    await connectMongo();
    setEnvForChildren(env);
    // Two web servers reading one change feed: what two web processes behind a balancer see.
    a = await serve(createApp());
    b = await serve(createApp());
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    setEnvForChildren(env);
    await sleep(50);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  it('happy: changes arrive within two poll intervals, each with its id, channel and data', async () => {
    const { key } = await accountWithKey(1000);
    const c = await sse(a, '', bearer(key));
    expect(c.status).to.equal(200);
    expect(c.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(c.headers.get('x-credits-consumed')).to.equal('1');
    await sleep(POLL_MS);
    const t0 = Date.now();
    await append([price('8800001', 2.1), score('8800001', 1)]);
    const [m1, m2] = await c.waitFor(2);
    expect(Date.now() - t0).to.be.below(2 * POLL_MS + 150);
    expect(m1.event).to.equal('odds');
    expect(m1.id).to.match(/^\d+-\d+$/);
    expect(m1.data).to.deep.include({ eventId: '8800001', kind: 'price', provider: 'simulated', data: { items: [{ id: '8800001-1', price: 2.1, isAvailable: true }] } });
    expect(m2.event).to.equal('scores');
    expect(m2.data).to.deep.include({ kind: 'score', data: { home: 1, away: 0 } });
    expect(m2.data).to.not.have.property('conflated');
  });

  it("happy: a stored event's messages name its teams, and each priced item its market and outcome; an event not stored goes out without names, at once", async () => {
    await insertEvents({ id: '8800090', start: '2026-11-26T15:00:00Z' });
    const { key } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800090,8800091', bearer(key));
    await sleep(POLL_MS);
    const t0 = Date.now();
    const items = [
      { id: '8800090-SOCCER_UNDER_OVER@1.5-O', price: 1.9, isAvailable: true },
      { id: '8800090-SOCCER_MATCH_RESULT-1', price: 2.1, isAvailable: false },
    ];
    await append([{ eventId: '8800090', kind: 'price', at, data: { items }, provider: 'simulated' }, score('8800091', 1)]);
    const [named, unnamed] = await c.waitFor(2);
    expect(Date.now() - t0).to.be.below(2 * POLL_MS + 400);
    expect(named.data.event).to.deep.equal({ homeTeam: 'Arsenal', awayTeam: 'Chelsea' });
    expect(named.data.data?.items).to.deep.equal([
      { ...items[0], marketCaption: 'Total Goals Over/Under 1.5', caption: 'Over 1.5' },
      { ...items[1], marketCaption: 'Match Result', caption: 'Home' },
    ]);
    expect(unnamed.data).to.deep.include({ eventId: '8800091', data: { home: 1, away: 0 } });
    expect(unnamed.data).to.not.have.property('event');
  });

  it('happy: a reconnect with Last-Event-ID gets exactly the missed messages in order, then live; on the other web server too', async () => {
    const { key } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800002', bearer(key));
    await sleep(POLL_MS);
    await append([score('8800002', 1), score('8800002', 2)]);
    const got = await c.waitFor(2);
    c.close();
    await append([score('8800002', 3), score('8800002', 4), score('8800002', 5)]);
    const back = await sse(b, '?eventIds=8800002', { ...bearer(key), 'Last-Event-ID': got[1].id ?? '' });
    const missed = await back.waitFor(3);
    expect(missed.map((m) => m.data.data?.home)).to.deep.equal([3, 4, 5]);
    await append([score('8800002', 6)]);
    await back.waitFor(4);
    await sleep(3 * POLL_MS);
    expect(back.messages.map((m) => m.data.data?.home)).to.deep.equal([3, 4, 5, 6]);
    // From the first id, by the query parameter: the second message onwards, once each.
    const again = await sse(a, `?eventIds=8800002&lastEventId=${got[0].id}`, bearer(key));
    await again.waitFor(5);
    await sleep(3 * POLL_MS);
    expect(again.messages.map((m) => m.data.data?.home)).to.deep.equal([2, 3, 4, 5, 6]);
  });

  it('happy: each recommendation the AI worker inserts is a message of the recommendations channel, once', async () => {
    const { key } = await accountWithKey(1000);
    const id = String(8_700_000_000 + (Date.now() % 1e6));
    const start = new Date(Date.now() + 2 * 86_400_000);
    await insertSeedDocuments('events', [
      simEvent({
        id,
        sportId: 1,
        x: [0.3, 0.1],
        home: { id: 8701, name: 'Streamers' },
        away: { id: 8702, name: 'Pollers' },
        competition: { id: 8703, name: 'Push Cup' },
        regionId: 51,
        startDateTime: start,
        markets: SOCCER_MARKETS,
        seed: 7,
      }),
    ]);
    const c = await sse(a, `?channels=recommendations&eventIds=${id}&competitionId=8703&sport=soccer`, bearer(key));
    expect(c.status).to.equal(200);
    await sleep(POLL_MS);
    const out = await analyzeEventJob(processContext(), id);
    expect(out.status).to.equal('analyzed');
    const stored = await findRecommendationsOfEvent(id);
    expect(stored.length).to.be.greaterThan(0);
    await c.waitFor(stored.length);
    // Analysed again: nothing new is stored, nothing is announced.
    await analyzeEventJob(processContext(), id);
    await sleep(3 * POLL_MS);
    expect(c.messages.map((m) => m.event)).to.deep.equal(stored.map(() => 'recommendations'));
    expect(c.messages.map((m) => m.data.data?.recommendationId).sort()).to.deep.equal(stored.map((r) => String(r._id)).sort());
    expect(c.messages[0].data).to.deep.include({ eventId: id, kind: 'recommendation' });
  });

  it('error: an id past the window, or one this feed never sent, gets snapshot_required first and then the live feed', async () => {
    const { key } = await accountWithKey(1000);
    const old = `${Date.now() - 16 * 60 * 1000}-0`;
    const c = await sse(a, '?eventIds=8800003', { ...bearer(key), 'Last-Event-ID': old });
    const [first] = await c.waitFor(1);
    expect(first).to.deep.equal({ id: null, event: 'snapshot_required', data: { reason: 'outside_window', resumeWindowSeconds: 900 } });
    await sleep(POLL_MS);
    await append([score('8800003', 1)]);
    const [, live] = await c.waitFor(2);
    expect(live.data.data?.home).to.equal(1);
    const future = await sse(a, '?eventIds=8800003', { ...bearer(key), 'Last-Event-ID': `${Date.now() + 60000}-0` });
    expect((await future.waitFor(1))[0].data.reason).to.equal('unknown_id');
  });

  it('error: bad parameters are 400s in the error shape before any byte of the stream', async () => {
    const { key } = await accountWithKey(1000);
    for (const q of ['?channels=odds,nope', '?sport=curling', '?eventIds=abc', '?lastEventId=12', '?unknown=1']) {
      const c = await sse(a, q, bearer(key));
      expect(c.status, q).to.equal(400);
      expect(c.body.code, q).to.equal('invalid_parameter');
    }
    const bad = await sse(a, '', { ...bearer(key), 'Last-Event-ID': 'nope' });
    expect(bad.status).to.equal(400);
    expect((await sse(a, '', {})).status).to.equal(401);
  });

  it('happy: channels and event filters: only what was asked for', async () => {
    const { key } = await accountWithKey(1000);
    const scores = await sse(a, '?channels=scores&eventIds=8800004,8800005', bearer(key));
    await sleep(POLL_MS);
    await append([price('8800004'), score('8800004', 1), score('8800006', 1), score('8800005', 2)]);
    await scores.waitFor(2);
    await sleep(3 * POLL_MS);
    expect(scores.messages.map((m) => [m.event, m.data.eventId])).to.deep.equal([
      ['scores', '8800004'],
      ['scores', '8800005'],
    ]);
  });

  it('happy: an idle stream gets heartbeat comments', async () => {
    setEnvForChildren({ STREAM_HEARTBEAT_MS: '150' });
    const { key } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800007', bearer(key));
    await sleep(500);
    expect(c.comments.filter((x) => x === 'heartbeat').length).to.be.at.least(2);
  });

  it('error: a key holds at most its streams (test keys 2), across web servers: the next is a 429', async () => {
    const { key } = await accountWithKey(1000, 'test');
    await sse(a, '', bearer(key));
    const second = await sse(b, '', bearer(key));
    expect(second.status).to.equal(200);
    const third = await sse(a, '', bearer(key));
    expect(third.status).to.equal(429);
    expect(third.body).to.deep.include({ statusCode: 429, code: 'too_many_streams', limit: 2 });
    second.close();
    await sleep(150);
    expect((await sse(a, '', bearer(key))).status).to.equal(200);
  });

  it('happy: metering is exact: one credit per started period, test keys none', async () => {
    setEnvForChildren({ STREAM_BILLING_INTERVAL_MS: '400' });
    const { accountId, key } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800008', bearer(key));
    await sleep(1000); // periods start at 0, 400, 800
    c.close();
    await sleep(600);
    expect(1000 - (await balanceOf(accountId))).to.equal(3);
    const test = await accountWithKey(1000, 'test');
    const t = await sse(a, '?eventIds=8800008', bearer(test.key));
    await sleep(1000);
    t.close();
    expect(await balanceOf(test.accountId)).to.equal(1000);
  });

  it("money: a test key's stream is the test feed: each change the delay after it was stored, marked delayed, nothing debited", async () => {
    setEnvForChildren({ TEST_KEY_SNAPSHOT_S: '2' });
    const test = await accountWithKey(1000, 'test');
    const c = await sse(a, '?eventIds=8800020', bearer(test.key));
    expect(c.status).to.equal(200);
    expect(c.headers.get('x-data-delayed')).to.equal('true');
    await sleep(POLL_MS);
    const stored = Date.now();
    await append([score('8800020', 1)]);
    await sleep(1200);
    expect(c.messages).to.deep.equal([]);
    const [m] = await c.waitFor(1, 4000);
    expect(Date.now() - stored).to.be.at.least(2000);
    expect(m.data).to.deep.include({ eventId: '8800020', kind: 'score', delayed: true });
    expect(await balanceOf(test.accountId)).to.equal(1000);
  });

  it("money: a test key's stream ends at the account's daily cap (each period is one of its requests)", async () => {
    setEnvForChildren({ TEST_KEY_DAILY_REQUESTS: '3', STREAM_BILLING_INTERVAL_MS: '300' });
    const test = await accountWithKey(1000, 'test');
    const c = await sse(a, '?eventIds=8800021', bearer(test.key));
    expect(c.status).to.equal(200);
    await c.ended;
    const last = c.messages[c.messages.length - 1];
    expect(last.event).to.equal('error');
    expect(last.data).to.deep.include({ statusCode: 429, code: 'rate_limited' });
    // Plain requests of the account's test keys are refused too: the cap is one.
    const again = await sse(a, '?eventIds=8800021', bearer(test.key));
    expect(again.status).to.equal(429);
  });

  it('money: a resume replays a backlog priced by the minutes it covers (the open pays the first); without the credits a 403 (insufficient_credits) that costs nothing', async () => {
    setEnvForChildren({ STREAM_BILLING_INTERVAL_MS: '1000' });
    const { accountId, key } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800022', bearer(key));
    await sleep(POLL_MS);
    await append([score('8800022', 1)]);
    const [m] = await c.waitFor(1);
    c.close();
    await sleep(300);
    const before = await balanceOf(accountId);
    await sleep(3200 - (Date.now() - Number(String(m.id).split('-')[0])));
    // The id is 3.2 to 3.9 "minutes" (seconds here) old: four started minutes, the open pays one.
    const back = await sse(a, '?eventIds=8800022', { ...bearer(key), 'Last-Event-ID': String(m.id) });
    expect(back.status).to.equal(200);
    expect(back.headers.get('x-credits-consumed')).to.equal('4');
    back.close();
    await sleep(300);
    expect(before - (await balanceOf(accountId))).to.equal(4);

    const poor = await accountWithKey(2);
    const refused = await sse(a, '?eventIds=8800022', { ...bearer(poor.key), 'Last-Event-ID': String(m.id) });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.include({ code: 'insufficient_credits' });
    await sleep(300);
    expect(await balanceOf(poor.accountId)).to.equal(2);
  });

  it('error: a balance that runs out ends the stream with an error message in the error shape', async () => {
    setEnvForChildren({ STREAM_BILLING_INTERVAL_MS: '200' });
    const { accountId, key } = await accountWithKey(2);
    const c = await sse(a, '?eventIds=8800009', bearer(key));
    await c.ended;
    const last = c.messages[c.messages.length - 1];
    expect(last.event).to.equal('error');
    expect(last.data).to.deep.include({ statusCode: 403, error: 'Forbidden', code: 'insufficient_credits', creditsRemaining: 0 });
    expect(last.data.requestId).to.be.a('string');
    expect(await balanceOf(accountId)).to.equal(0);
  });

  it("error: a revoked key's stream ends at the next period", async () => {
    setEnvForChildren({ STREAM_BILLING_INTERVAL_MS: '200' });
    const { key, keyId } = await accountWithKey(1000);
    const c = await sse(a, '?eventIds=8800010', bearer(key));
    await revokeKey(processContext(), keyId);
    await c.ended;
    expect(c.messages[c.messages.length - 1]).to.deep.include({ event: 'error' });
    expect(c.messages[c.messages.length - 1].data.code).to.equal('invalid_api_key');
  });

  it('error: a client that stays behind past STREAM_SLOW_READER_MS gets what it has not read merged, then snapshot_required (slow_consumer) past the bound', async function () {
    // 8 MB of changes through the feed and the stream: seconds alone, over 30 s beside the parallel suite on a busy host.
    this.timeout(120_000);
    setEnvForChildren({ STREAM_MAX_PENDING: '20', STREAM_SLOW_READER_MS: '1000' });
    const { key } = await accountWithKey(1000);
    const chunks: Buffer[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(`${a.url}/v2/stream?channels=scores`, { headers: bearer(key) }, (res) => {
        res.pause();
        setTimeout(() => {
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', resolve);
          res.on('error', resolve);
          res.resume();
        }, 2500);
      });
      req.on('error', reject);
      req.end();
    });
    await sleep(300);
    const big = 'x'.repeat(4000);
    for (let round = 0; round < 10; round++) {
      await appendChanges(
        'stream-test',
        `slow${seq++}`,
        Array.from({ length: 200 }, (_, i) => ({ eventId: String(8900000 + round * 200 + i), kind: 'score' as const, at, data: { home: round, pad: big } })),
      );
    }
    await ended;
    const text = Buffer.concat(chunks).toString('utf8');
    const blocks = text.split('\n\n').filter((x) => x.includes('event: '));
    expect(blocks[blocks.length - 1]).to.match(/^event: snapshot_required\ndata: \{"reason":"slow_consumer"/);
    expect(blocks.length).to.be.below(2000);
  });
});
