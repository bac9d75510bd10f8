import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { applyCredit } from '../../../shared/platform/billing/credits';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { appendChanges, type Change } from '../../../shared/platform/feed/changeFeed';
import { serve, type TestServer } from '../../helpers/api';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { openSse, type SseClient } from '../../helpers/sse';
import { Browser, forgetLocalFailures } from './client';

const POLL_MS = 100;
const HEARTBEAT_MS = 200;
const at = new Date('2026-11-27T15:00:00Z');
let seq = 0;
const score = (eventId: string, home: number): Change => ({ eventId, kind: 'score', at: new Date(at.getTime() + seq++), data: { home, away: 0 }, provider: 'simulated' });
const price = (eventId: string, itemPrice: number): Change => ({
  eventId,
  kind: 'price',
  at: new Date(at.getTime() + seq++),
  data: { items: [{ id: `${eventId}-1`, price: itemPrice, isAvailable: true }] },
  provider: 'simulated',
});
const append = (changes: Change[]) => appendChanges('account-stream-test', `b${seq++}`, changes);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * GET /v2/account/stream: the change feed for a signed-in session (the dashboard's Live page),
 * with a real SSE client over fetch sending the session cookie as a browser's EventSource does.
 */
describe('GET /v2/account/stream (the session stream of the dashboard)', function () {
  this.timeout(30000);
  let a: TestServer;
  let b: TestServer;
  const open: SseClient[] = [];
  // The resume mechanics are read on a test feed without delay (TEST_KEY_SNAPSHOT_S=0, a development
  // setting); the delay itself has its own test below.
  const env = { STREAM_POLL_MS: String(POLL_MS), STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS), STREAM_MAX_CONNECTIONS_TEST: '2', TEST_KEY_SNAPSHOT_S: '0' };
  const sse = async (server: TestServer, query: string, headers: Record<string, string>) => {
    const c = await openSse(`${server.url}/v2/account/stream${query}`, headers);
    open.push(c);
    return c;
  };
  /** A browser signed in to a new account on server `a`. */
  const signedIn = async () => {
    const browser = new Browser(a.url);
    const r = await browser.signup();
    expect(r.status).to.equal(201);
    return browser;
  };
  const cookieOf = (browser: Browser): Record<string, string> => (browser.cookie ? { Cookie: browser.cookie } : {});

  before(async () => {
    await connectMongo();
    await forgetLocalFailures();
    setEnvForChildren(env);
    // Two web servers reading one change feed: two web processes behind a balancer.
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

  it('happy: a signed-in session streams the feed (no CSRF token for a GET), free, each message as GET /v2/stream sends it', async () => {
    const browser = await signedIn();
    const c = await sse(a, '', cookieOf(browser));
    expect(c.status).to.equal(200);
    expect(c.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(c.headers.get('x-resume-window-seconds')).to.equal('900');
    expect(c.headers.get('x-credits-consumed')).to.equal(null);
    await sleep(POLL_MS);
    await append([price('8810001', 2.1), score('8810001', 1)]);
    const [m1, m2] = await c.waitFor(2);
    expect(m1.event).to.equal('odds');
    expect(m1.id).to.match(/^\d+-\d+$/);
    expect(m1.data).to.deep.include({ eventId: '8810001', kind: 'price', provider: 'simulated', data: { items: [{ id: '8810001-1', price: 2.1, isAvailable: true }] } });
    expect(m2.event).to.equal('scores');
    expect(m2.data).to.deep.include({ kind: 'score', data: { home: 1, away: 0 } });
    // Free: the account's balance is what sign-up gave it.
    expect((await browser.send('GET', '/v2/account')).body.account.balance).to.equal(500);
  });

  it('money: an account with no credits gets no live data on its session stream: the test feed, each change the delay after it was stored, marked delayed, nothing debited', async () => {
    setEnvForChildren({ TEST_KEY_SNAPSHOT_S: '2' });
    const browser = await signedIn();
    const account = (await browser.send('GET', '/v2/account')).body.account;
    await applyCredit(account.id, { ref: `drain:${account.id}`, kind: 'adjustment', delta: -account.balance });
    const c = await sse(a, '?eventIds=8810020', cookieOf(browser));
    expect(c.status).to.equal(200);
    expect(c.headers.get('x-data-delayed')).to.equal('true');
    expect(c.headers.get('x-data-delay-seconds')).to.equal('2');
    await sleep(POLL_MS);
    const stored = Date.now();
    await append([score('8810020', 1)]);
    await sleep(1200);
    // The live feed would have delivered it within two poll intervals.
    expect(c.messages).to.deep.equal([]);
    const [m] = await c.waitFor(1, 4000);
    expect(Date.now() - stored).to.be.at.least(2000);
    expect(m.data).to.deep.include({ eventId: '8810020', kind: 'score', delayed: true });
    expect((await browser.send('GET', '/v2/account')).body.account.balance).to.equal(0);
  });

  it('happy: a reconnect with Last-Event-ID (or lastEventId) gets exactly the missed messages in order, then live, on the other web server too', async () => {
    const browser = await signedIn();
    const c = await sse(a, '?eventIds=8810002', cookieOf(browser));
    await sleep(POLL_MS);
    await append([score('8810002', 1), score('8810002', 2)]);
    const got = await c.waitFor(2);
    c.close();
    await append([score('8810002', 3), score('8810002', 4)]);
    const back = await sse(b, '?eventIds=8810002', { ...cookieOf(browser), 'Last-Event-ID': got[1].id ?? '' });
    expect((await back.waitFor(2)).map((m) => m.data.data?.home)).to.deep.equal([3, 4]);
    await append([score('8810002', 5)]);
    await back.waitFor(3);
    await sleep(3 * POLL_MS);
    expect(back.messages.map((m) => m.data.data?.home)).to.deep.equal([3, 4, 5]);
    const again = await sse(a, `?eventIds=8810002&lastEventId=${got[0].id}`, cookieOf(browser));
    await again.waitFor(4);
    await sleep(3 * POLL_MS);
    expect(again.messages.map((m) => m.data.data?.home)).to.deep.equal([2, 3, 4, 5]);
  });

  it('happy: channels and event filters, and snapshot_required for an id this feed never sent', async () => {
    const browser = await signedIn();
    const scores = await sse(a, '?channels=scores&eventIds=8810003', cookieOf(browser));
    const future = await sse(a, '?eventIds=8810003', { ...cookieOf(browser), 'Last-Event-ID': `${Date.now() + 60000}-0` });
    expect(await future.waitFor(1)).to.deep.equal([{ id: null, event: 'snapshot_required', data: { reason: 'unknown_id', resumeWindowSeconds: 900 } }]);
    await sleep(POLL_MS);
    await append([price('8810003', 3), score('8810003', 1), score('8810004', 1)]);
    await scores.waitFor(1);
    await future.waitFor(3);
    await sleep(3 * POLL_MS);
    expect(scores.messages.map((m) => [m.event, m.data.eventId])).to.deep.equal([['scores', '8810003']]);
    expect(future.messages.map((m) => m.event)).to.deep.equal(['snapshot_required', 'odds', 'scores']);
  });

  it('security: without a session a 401 in the error shape, before any byte of the stream; bad parameters 400', async () => {
    const none = await sse(a, '', {});
    expect(none.status).to.equal(401);
    expect(none.body).to.deep.include({ statusCode: 401, code: 'not_signed_in' });
    const forged = await sse(a, '', { Cookie: 'odds_session=bm90LWEtc2Vzc2lvbg' });
    expect(forged.status).to.equal(401);
    // A key is not a session: the dashboard's route never takes one.
    const { key } = await accountWithKey(1000, 'test');
    expect((await sse(a, '', bearer(key))).status).to.equal(401);
    const browser = await signedIn();
    for (const q of ['?channels=odds,nope', '?eventIds=abc', '?lastEventId=12']) {
      const c = await sse(a, q, cookieOf(browser));
      expect(c.status, q).to.equal(400);
      expect(c.body.code, q).to.equal('invalid_parameter');
    }
    expect((await sse(a, '', { ...cookieOf(browser), 'Last-Event-ID': 'nope' })).status).to.equal(400);
  });

  it('error: an account holds at most STREAM_MAX_CONNECTIONS_TEST streams across web servers (its keys and other accounts apart)', async () => {
    const browser = await signedIn();
    expect((await sse(a, '', cookieOf(browser))).status).to.equal(200);
    const second = await sse(b, '', cookieOf(browser));
    expect(second.status).to.equal(200);
    const third = await sse(a, '', cookieOf(browser));
    expect(third.status).to.equal(429);
    expect(third.body).to.deep.include({ statusCode: 429, code: 'too_many_streams', limit: 2 });
    expect(third.headers.get('retry-after')).to.equal('5');
    // The same account signed in elsewhere shares the limit; another account has its own.
    const elsewhere = new Browser(b.url);
    const email = (await browser.send('GET', '/v2/account')).body.account.email;
    expect((await elsewhere.login(email)).status).to.equal(200);
    expect((await sse(b, '', cookieOf(elsewhere))).status).to.equal(429);
    expect((await sse(a, '', cookieOf(await signedIn()))).status).to.equal(200);
    // The account's own test key keeps its own slots.
    const testKey = await browser.newKey('live page', 'test');
    const keyed = await openSse(`${a.url}/v2/stream?eventIds=8810009`, bearer(testKey.key));
    open.push(keyed);
    expect(keyed.status).to.equal(200);
    second.close();
    await sleep(150);
    expect((await sse(a, '', cookieOf(browser))).status).to.equal(200);
  });

  it('security: signing out ends the open stream with an error message (not_signed_in) at the next heartbeat; the same cookie is then a 401', async () => {
    const browser = await signedIn();
    const c = await sse(a, '?eventIds=8810005', cookieOf(browser));
    const onB = await sse(b, '?eventIds=8810005', cookieOf(browser));
    const cookie = cookieOf(browser);
    expect((await browser.send('POST', '/v2/account/logout')).status).to.equal(204);
    const [ended] = await c.waitFor(1, 3 * HEARTBEAT_MS + 500);
    expect(ended.event).to.equal('error');
    expect(ended.id).to.equal(null);
    expect(ended.data).to.deep.include({ statusCode: 401, code: 'not_signed_in' });
    await c.ended;
    expect((await onB.waitFor(1, 3 * HEARTBEAT_MS + 500))[0].data.code).to.equal('not_signed_in');
    await onB.ended;
    expect((await sse(a, '', cookie)).status).to.equal(401);
  });
});
