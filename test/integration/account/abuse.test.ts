import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { TEST_GATEWAY_LOG } from '../../../shared/platform/billing/gateway/testGateway';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { redis } from '../../../shared/platform/db/redis';
import { findLedgerEntriesOfAccount, setAccountAutoRechargeFields, setEventFields } from '../../../shared/platform/db/repositories/fixtures';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { ledgerOf } from '../../../shared/domain/billing/creditModes';
import { createEvent } from '../../helpers/settlementFixtures';
import { serve, type TestServer } from '../../helpers/api';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil } from '../../helpers/processes';
import { Browser, PASSWORD, startWebProcess, uniqueEmail } from './client';

/**
 * The money and access paths as an attacker with a signed-up account tries them; each case is a
 * way in that the service must close. Limits are set low here, per case, and put back after.
 */
describe('account API: abuse of money and access', function () {
  this.timeout(120000);
  let api: TestServer;

  /** The app in this process with these settings (each read when the app is built or per request). */
  const withSettings = async (env: Record<string, string>) => {
    setEnvForChildren(env);
    await api?.close();
    api = await serve(createApp());
  };
  const DEFAULTS = {
    SIGNUP_PER_ADDRESS_PER_HOUR: '1000000',
    ACCOUNT_API_PER_ADDRESS_PER_MINUTE: '1000000',
    TEST_KEY_DAILY_REQUESTS: '1000',
    TEST_KEY_SNAPSHOT_S: '0',
    RATE_LIMIT_TEST_RPS: '2',
    TRUST_PROXY: '',
    ADMIN_USER: '',
    ADMIN_PASSWORD: '',
    ADMIN_QUEUE_ACTIONS: 'false',
  };

  before(async () => {
    await connectMongo();
    await withSettings(DEFAULTS);
  });
  afterEach(() => withSettings(DEFAULTS));
  after(async () => {
    await api.close();
    setEnvForChildren(DEFAULTS);
  });

  const signedUp = async () => {
    const b = new Browser(api.url);
    expect((await b.signup()).status).to.equal(201);
    return b;
  };
  const chargesOf = async (accountId: string) =>
    (await redis().lrange(TEST_GATEWAY_LOG(), 0, -1)).map((s) => JSON.parse(s) as { metadata: Record<string, string>; status: string }).filter((c) => c.metadata.accountId === accountId);

  it('security: the test gateway refuses to start in production (exit 78, one line); PAYMENT_GATEWAY=none starts and sells nothing', async () => {
    const p = spawnEntry('workers/web.ts', { NODE_ENV: 'production', PAYMENT_GATEWAY: 'test', PORT: '0' });
    await waitUntil('the web process to exit', () => p.child.exitCode !== null, 30000);
    expect(p.child.exitCode).to.equal(78);
    const lines = p.output().trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/PAYMENT_GATEWAY/);

    const web = await startWebProcess({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'none' });
    try {
      const b = new Browser(web.url);
      expect((await b.signup()).status).to.equal(201);
      for (const [path, body] of [
        ['/v2/account/purchases', { package: 2000000 }],
        ['/v2/account/payment-method', {}],
      ] as const) {
        const r = await b.send('POST', path, body);
        expect(r.status, path).to.equal(403);
        expect(r.body.message).to.match(/sells no credits/);
      }
      expect((await b.send('GET', '/v2/account')).body.account.balance).to.equal(500);
    } finally {
      await web.stop();
    }
  });

  it('security: a burst of 30 wrong passwords for one e-mail gets at most 5 answers 401, the rest 429', async () => {
    const owner = await signedUp();
    const email = (await owner.send('GET', '/v2/account')).body.account.email as string;
    const replies = await Promise.all(Array.from({ length: 30 }, () => new Browser(api.url).login(email, 'wrong-password-guess-1')));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).to.be.within(1, 5);
    expect(statuses.filter((s) => s === 429).length).to.be.at.least(25);
    expect(statuses.every((s) => s === 401 || s === 429)).to.equal(true);
  });

  it('security: strangers guessing an e-mail cannot lock its owner out of an address the owner signed in from', async () => {
    await withSettings({ ...DEFAULTS, TRUST_PROXY: 'loopback' });
    const email = uniqueEmail('owner');
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const owner = new Browser(api.url);
    expect((await owner.send('POST', '/v2/account/signup', { email, password: PASSWORD }, from('10.1.1.1'))).status).to.equal(201);
    expect((await owner.send('POST', '/v2/account/login', { email, password: PASSWORD }, from('10.1.1.1'))).status).to.equal(200);
    for (let i = 0; i < 6; i++) await new Browser(api.url).send('POST', '/v2/account/login', { email, password: 'stranger-guess-1' }, from(`10.2.2.${i}`));
    // A stranger's address is locked out of the e-mail, even with the right password...
    expect((await new Browser(api.url).send('POST', '/v2/account/login', { email, password: PASSWORD }, from('10.3.3.3'))).status).to.equal(429);
    // ...the owner's known address is not.
    expect((await new Browser(api.url).send('POST', '/v2/account/login', { email, password: PASSWORD }, from('10.1.1.1'))).status).to.equal(200);
  });

  it('security: 15 concurrent sign-ups from one address: the limit passes, the rest get 429 with Retry-After', async () => {
    await withSettings({ ...DEFAULTS, SIGNUP_PER_ADDRESS_PER_HOUR: '5', TRUST_PROXY: 'loopback' });
    const from = { 'X-Forwarded-For': '10.15.15.15' };
    const replies = await Promise.all(Array.from({ length: 15 }, () => new Browser(api.url).send('POST', '/v2/account/signup', { email: uniqueEmail('burst'), password: PASSWORD }, from)));
    expect(replies.filter((r) => r.status === 201)).to.have.length(5);
    const limited = replies.filter((r) => r.status === 429);
    expect(limited).to.have.length(10);
    expect(Number(limited[0].headers.get('retry-after'))).to.be.within(1, 3600);
  });

  it('security: the account API is limited per address', async () => {
    await withSettings({ ...DEFAULTS, ACCOUNT_API_PER_ADDRESS_PER_MINUTE: '10', TRUST_PROXY: 'loopback' });
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await new Browser(api.url).send('GET', '/v2/account/packages', undefined, { 'X-Forwarded-For': '10.16.16.16' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).to.equal(true);
    expect(statuses.slice(10)).to.deep.equal([429, 429]);
  });

  it("security: the test keys of an account share a daily cap: past it every test key gets 429, the account's live key is still served", async () => {
    await withSettings({ ...DEFAULTS, TEST_KEY_DAILY_REQUESTS: '3' });
    const b = await signedUp();
    const [t1, t2, live] = [await b.newKey('t1', 'test'), await b.newKey('t2', 'test'), await b.newKey('live', 'live')];
    const get = (key: string) => api.get('/v2/matches', { Authorization: `Bearer ${key}` });
    for (let i = 0; i < 3; i++) {
      const r = await get((i % 2 ? t2 : t1).key);
      expect(r.status).to.equal(200);
      expect(r.headers.get('x-key-mode')).to.equal('test');
    }
    for (const k of [t1, t2]) {
      const r = await get(k.key);
      expect(r.status).to.equal(429);
      expect(r.body.message).to.match(/test keys of this account made their 3 requests of today/);
      expect(Number(r.headers.get('retry-after'))).to.be.within(1, 86400);
    }
    const r = await get(live.key);
    expect(r.status).to.equal(200);
    expect(r.headers.get('x-key-mode')).to.equal(null);
  });

  it('security: test keys read delayed data: a change reaches a live key at once, a test key only once it is the delay old, every answer marked with Age and X-Data-Delayed', async () => {
    const DELAY_S = 2;
    await withSettings({ ...DEFAULTS, TEST_KEY_SNAPSHOT_S: String(DELAY_S), RATE_LIMIT_TEST_RPS: '1000' });
    const b = await signedUp();
    const [test, live] = [await b.newKey('t', 'test'), await b.newKey('l', 'live')];
    const eventId = await createEvent({ status: 'upcoming', start: new Date(Date.now() + 86_400_000) });
    const detail = (k: string) => api.get(`/v2/matches/${eventId}`, { Authorization: `Bearer ${k}` });
    const served: Awaited<ReturnType<typeof detail>>[] = [];
    const asTest = async () => {
      const r = await detail(test.key);
      expect(r.headers.get('x-credits-consumed')).to.equal('0');
      if (r.status === 200) served.push(r);
      else expect(r.body.code).to.equal('test_data_pending');
      return r;
    };
    // Never asked: nothing that old yet.
    const pending = await asTest();
    expect(pending.status).to.equal(503);
    expect(Number(pending.headers.get('retry-after'))).to.be.within(1, DELAY_S);
    await waitUntil('the first rendering to ripen', async () => (await asTest()).status === 200, 10000, 300);
    const first = served[0];
    expect(first.body.data.status).to.equal('upcoming');
    await setEventFields(eventId, { status: 'live' });
    await bumpCacheVersion('events');
    expect((await detail(live.key)).body.data.status).to.equal('live');
    const again = await asTest();
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    await waitUntil('the change to reach the test key', async () => (await asTest()).body.data?.status === 'live', 20000, 300);
    for (const r of served) {
      expect(r.headers.get('x-data-delayed')).to.equal('true');
      expect(Number(r.headers.get('age'))).to.be.at.least(DELAY_S);
    }
    await withSettings({ ...DEFAULTS, TEST_KEY_SNAPSHOT_S: '0' });
    expect((await detail(test.key)).body.data.status).to.equal('live');
  });

  it('security: an auto-recharge threshold not below the package is a 400; a burst under the threshold makes one charge, credited once (the test gateway: to the test credits, never to the live balance)', async () => {
    const b = await signedUp();
    const accountId = (await b.send('GET', '/v2/account')).body.account.id as string;
    expect((await b.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' })).status).to.equal(201);
    for (const threshold of [100_000_000, 2_000_000, 20_000]) {
      const r = await b.send('PUT', '/v2/account/auto-recharge', { threshold, package: 20000 });
      expect(r.status, String(threshold)).to.equal(400);
      expect(r.body.message).to.match(/threshold must be an integer from 1 to 19999/);
    }
    expect((await b.send('PUT', '/v2/account/auto-recharge', { threshold: 1000, package: 20000 })).status).to.equal(200);
    const { key } = await b.newKey('bot', 'live');
    const worker = spawnEntry('workers/settlement.ts', { LOG_LEVEL: 'warn' });
    try {
      const burst = await Promise.all(Array.from({ length: 20 }, () => api.get('/v2/teams', { Authorization: `Bearer ${key}` })));
      expect(burst.every((r) => r.status === 200)).to.equal(true);
      const testLedger = ledgerOf(accountId, 'test');
      await waitUntil('the recharge to be credited', async () => (await findLedgerEntriesOfAccount(testLedger, ['recharge'])).length > 0, 60000, 250);
      // More requests, still under the threshold (test credits never lift the live balance), in the
      // window already charged, and time for any second charge to show.
      for (let i = 0; i < 5; i++) await api.get('/v2/teams', { Authorization: `Bearer ${key}` });
      await new Promise((r) => setTimeout(r, 3000));
      expect(await chargesOf(accountId)).to.have.length(1);
      expect(await findLedgerEntriesOfAccount(testLedger, ['recharge'])).to.have.length(1);
      expect(await findLedgerEntriesOfAccount(accountId, ['recharge'])).to.deep.equal([]);
      expect((await b.send('GET', '/v2/account')).body.account).to.include({ balance: 500 - 25, testBalance: 20000 });
    } finally {
      await sigkillTree(worker);
    }
  });

  it('security: settings saved before the rule (threshold above the package) are disabled at the charge, not charged again and again', async () => {
    const b = await signedUp();
    const accountId = (await b.send('GET', '/v2/account')).body.account.id as string;
    expect((await b.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' })).status).to.equal(201);
    expect((await b.send('PUT', '/v2/account/auto-recharge', { threshold: 400, package: 20000 })).status).to.equal(200);
    // As the earlier code let it be saved: 100,000,000 with the 20,000 package.
    await setAccountAutoRechargeFields(accountId, { threshold: 100_000_000 });
    const { key } = await b.newKey('bot', 'live');
    const worker = spawnEntry('workers/settlement.ts', { LOG_LEVEL: 'warn' });
    try {
      await api.get('/v2/teams', { Authorization: `Bearer ${key}` });
      await waitUntil('auto-recharge to be disabled', async () => (await b.send('GET', '/v2/account')).body.account.autoRecharge.enabled === false, 60000, 250);
      expect((await b.send('GET', '/v2/account')).body.account.autoRecharge.disabledReason).to.match(/threshold .* is not below the package/);
      expect(await chargesOf(accountId)).to.deep.equal([]);
    } finally {
      await sigkillTree(worker);
    }
  });

  describe('Bull Board', () => {
    const ADMIN = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'board-pass-123' };
    const auth = { Authorization: `Basic ${Buffer.from('ops:board-pass-123').toString('base64')}` };
    const retryFailed = (headers: Record<string, string>, body = '{}') => fetch(`${api.url}/admin/queues/api/queues/ingest/retry/failed`, { method: 'PUT', headers, body });

    it('security: read-only by default: an action is refused (405) and the queue is untouched; a text/plain request is a 415', async () => {
      await withSettings({ ...DEFAULTS, ...ADMIN });
      expect((await retryFailed({ ...auth, 'Content-Type': 'application/json' })).status).to.equal(405);
      const plain = await fetch(`${api.url}/admin/queues/api/queues/ingest/add`, { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{"name":"x"}' });
      expect(plain.status).to.equal(415);
      const read = await api.get('/admin/queues/api/queues', auth);
      expect(read.status).to.equal(200);
    });

    it('happy: with ADMIN_QUEUE_ACTIONS=true the same action is carried out', async () => {
      await withSettings({ ...DEFAULTS, ...ADMIN, ADMIN_QUEUE_ACTIONS: 'true' });
      expect((await retryFailed({ ...auth, 'Content-Type': 'application/json' })).status).to.be.within(200, 204);
    });

    it('security: wrong admin credentials are throttled per address (429 after 20), right ones are not counted', async () => {
      await withSettings({ ...DEFAULTS, ...ADMIN });
      for (let i = 0; i < 5; i++) expect((await api.get('/admin/queues/api/queues', auth)).status).to.equal(200);
      const wrong = { Authorization: `Basic ${Buffer.from('ops:guess').toString('base64')}` };
      const statuses = [];
      for (let i = 0; i < 22; i++) statuses.push((await api.get('/admin/queues/api/queues', wrong)).status);
      expect(statuses.slice(0, 20).every((s) => s === 401)).to.equal(true);
      expect(statuses.slice(20)).to.deep.equal([429, 429]);
    });
  });

  it('security: the session cookie is Secure when a trusted proxy says the browser came over https, and only then', async () => {
    const signup = () =>
      fetch(`${api.url}/v2/account/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' },
        body: JSON.stringify({ email: uniqueEmail('tls'), password: PASSWORD }),
      });
    const untrusted = await signup();
    expect(untrusted.status).to.equal(201);
    expect(untrusted.headers.get('set-cookie')).to.not.match(/;\s*Secure/i);
    await withSettings({ ...DEFAULTS, TRUST_PROXY: 'loopback' });
    const trusted = await signup();
    expect(trusted.status).to.equal(201);
    expect(trusted.headers.get('set-cookie')).to.match(/;\s*Secure/i);
  });

  it('security: every answer says nosniff; the docs serve only the files the page needs; the OpenAPI server is never the Host header', async () => {
    for (const path of ['/v2/health', '/nope', '/v2/docs/swagger-ui-bundle.js']) {
      const r = await fetch(api.url + path);
      expect(r.headers.get('x-content-type-options'), path).to.equal('nosniff');
    }
    expect((await fetch(`${api.url}/v2/docs/swagger-ui-bundle.js`)).status).to.equal(200);
    for (const file of ['swagger-ui.js.map', 'package.json', 'README.md', 'oauth2-redirect.html']) expect((await fetch(`${api.url}/v2/docs/${file}`)).status, file).to.equal(404);
    const doc = (await (await fetch(`${api.url}/v2/openapi.json`, { headers: { Host: 'evil.example' } })).json()) as { servers: { url: string }[] };
    expect(doc.servers[0].url).to.equal(api.url);
  });
});
