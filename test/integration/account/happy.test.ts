import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { ledgerConsumerForThisSuite } from '../../helpers/ledgerConsumer';
import { listKeys, accountSummary } from '../../../shared/app/billing/accounts';
import { TEST_GATEWAY_LOG } from '../../../shared/platform/billing/gateway/testGateway';
import { CREDIT_PACKAGES, FREE_CREDITS } from '../../../shared/domain/billing/packages';
import { setEnvForChildren } from '../../../shared/platform/config';
import { redis } from '../../../shared/platform/db/redis';
import type { TestServer } from '../../helpers/api';
import { Browser, forgetLocalFailures, PASSWORD, startAccountApi, uniqueEmail } from './client';

/** Every row of the account API's table on its happy path, over real HTTP against the real stores. */
describe('account API: happy paths', function () {
  this.timeout(60000);
  const ledger = ledgerConsumerForThisSuite();
  let api: TestServer;
  let browser: Browser;
  const email = uniqueEmail('happy');

  before(async () => {
    api = await startAccountApi();
    browser = new Browser(api.url);
  });
  after(async () => {
    await forgetLocalFailures();
    await api.close();
  });

  it('happy: POST /v2/account/signup is a 201 with 500 free credits, a session cookie and a CSRF token', async () => {
    const r = await browser.signup(email.toUpperCase());
    expect(r.status).to.equal(201);
    expect(r.body.account).to.include({ email, balance: FREE_CREDITS, testBalance: 0 });
    expect(r.body.account.autoRecharge).to.include({ enabled: false });
    expect(r.body.csrfToken).to.match(/^[A-Za-z0-9_-]{43}$/);
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).to.match(/^odds_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Lax$/);
    expect(r.headers.get('cache-control')).to.equal('no-store');
  });

  it('happy: GET /v2/account is the signed-in account with its balance, auto-recharge settings and CSRF token', async () => {
    const r = await browser.send('GET', '/v2/account');
    expect(r.status).to.equal(200);
    expect(r.body.account).to.include({ email, balance: FREE_CREDITS });
    expect(r.body.account.autoRecharge).to.deep.include({ enabled: false, package: null });
    expect(r.body.account.paymentMethod).to.equal(null);
    expect(r.body.csrfToken).to.equal(browser.csrf);
  });

  it('happy: POST /v2/account/login gives a new session (rotated: the earlier cookie is refused) and the account', async () => {
    const before = browser.cookie;
    const r = await browser.login(email);
    expect(r.status).to.equal(200);
    expect(r.body.account.email).to.equal(email);
    expect(browser.cookie).to.not.equal(before);
    const old = new Browser(api.url);
    old.cookie = before;
    expect((await old.send('GET', '/v2/account')).status).to.equal(401);
    expect((await browser.send('GET', '/v2/account')).status).to.equal(200);
  });

  let created: { id: string; key: string };
  it('happy: POST /v2/account/keys creates a named key and shows its secret once; GET lists it without the secret', async () => {
    const r = await browser.send('POST', '/v2/account/keys', { name: 'production bot', mode: 'live' });
    expect(r.status).to.equal(201);
    expect(r.body.key).to.match(/^sk_live_[0-9A-Za-z]{32}$/);
    created = r.body;
    const test = await browser.send('POST', '/v2/account/keys', { name: 'staging', mode: 'test' });
    expect(test.body.key).to.match(/^sk_test_/);
    const list = await browser.send('GET', '/v2/account/keys');
    expect(list.status).to.equal(200);
    expect(list.body.data.map((k: { name: string; mode: string }) => [k.name, k.mode])).to.deep.equal([
      ['production bot', 'live'],
      ['staging', 'test'],
    ]);
    const [k] = list.body.data;
    expect(Object.keys(k).sort()).to.deep.equal(['createdAt', 'id', 'lastUsedAt', 'mode', 'name', 'prefix']);
    expect(k).to.include({ id: created.id, prefix: created.key.slice(0, 14), lastUsedAt: null });
    expect(JSON.stringify(list.body)).to.not.include(created.key.slice(14));
  });

  it('happy: the new key calls the read API; last used, usage per day and endpoint and the balance follow; the account API itself is free', async () => {
    const before = (await browser.send('GET', '/v2/account')).body.account.balance;
    for (let i = 0; i < 3; i++) expect((await api.get('/v2/matches?limit=1', { Authorization: `Bearer ${created.key}` })).status).to.equal(200);
    expect((await api.get('/v2/matches/live', { Authorization: `Bearer ${created.key}` })).status).to.equal(200);
    const after = (await browser.send('GET', '/v2/account')).body.account.balance;
    expect(after).to.equal(before - 3 - 2);
    // Usage is read from the ledger: the charges reach it within a consumer batch.
    await ledger.written();
    const usage = await browser.send('GET', '/v2/account/usage?days=7');
    expect(usage.status).to.equal(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body).to.include({ days: 7, to: today });
    expect(usage.body.data).to.deep.equal([
      { day: today, endpoint: 'GET /v2/matches', requests: 3, credits: 3 },
      { day: today, endpoint: 'GET /v2/matches/live', requests: 1, credits: 2 },
    ]);
    expect(usage.body.totals).to.deep.equal({ requests: 4, credits: 5 });
    const keys = await browser.send('GET', '/v2/account/keys');
    expect(keys.body.data[0].lastUsedAt).to.be.a('string');
  });

  it('happy: DELETE /v2/account/keys/{id} revokes: the key answers 401 on its very next request and leaves the list', async () => {
    const r = await browser.send('DELETE', `/v2/account/keys/${created.id}`);
    expect(r.status).to.equal(200);
    expect(r.body.id).to.equal(created.id);
    expect((await api.get('/v2/matches', { Authorization: `Bearer ${created.key}` })).status).to.equal(401);
    const list = await browser.send('GET', '/v2/account/keys');
    expect(list.body.data.map((k: { id: string }) => k.id)).to.not.include(created.id);
  });

  it('happy: GET /v2/account/packages lists the four packages with prices', async () => {
    const r = await browser.send('GET', '/v2/account/packages');
    expect(r.status).to.equal(200);
    expect(r.body.data.map((p: { credits: number }) => p.credits)).to.deep.equal([...CREDIT_PACKAGES]);
    expect(r.body.data[0]).to.include({ package: 20000, priceCents: 1000, currency: 'usd' });
  });

  it('happy: POST /v2/account/payment-method on the test gateway saves the test card named; GET shows it and the cards', async () => {
    const none = await browser.send('GET', '/v2/account/payment-method');
    expect(none.body).to.deep.include({ paymentMethod: null, gateway: 'test' });
    expect(none.body.testCards).to.include('pm_card_visa');
    const r = await browser.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' });
    expect(r.status).to.equal(201);
    expect(r.body.setup).to.include({ status: 'complete', url: null });
    expect(r.body.paymentMethod).to.include({ gateway: 'test', paymentMethod: 'pm_card_visa' });
    expect(r.body.paymentMethod.customer).to.match(/^cus_test_/);
    expect((await browser.send('GET', '/v2/account')).body.account.paymentMethod).to.include({ paymentMethod: 'pm_card_visa' });
  });

  it('happy: POST /v2/account/purchases charges the saved card once and credits the package (the test gateway: to the test credits)', async () => {
    const before = (await browser.send('GET', '/v2/account')).body.account;
    const r = await browser.send('POST', '/v2/account/purchases', { package: 20000 }, { 'Idempotency-Key': `happy-${email}` });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ package: 20000, priceCents: 1000, currency: 'usd', replayed: false, mode: 'test', balance: before.balance, testBalance: before.testBalance + 20000 });
    const charges = (await redis().lrange(TEST_GATEWAY_LOG(), 0, -1)).map((s) => JSON.parse(s)).filter((c) => c.metadata.purchaseId === r.body.id);
    expect(charges).to.have.length(1);
    expect(charges[0]).to.include({ status: 'succeeded', amountCents: 1000, paymentMethod: 'pm_card_visa' });
  });

  it('happy: PUT /v2/account/auto-recharge turns it on with the existing settings; DELETE turns it off', async () => {
    const on = await browser.send('PUT', '/v2/account/auto-recharge', { threshold: 1000, package: 100000 });
    expect(on.status).to.equal(200);
    expect(on.body.autoRecharge).to.include({ enabled: true, threshold: 1000, package: 100000 });
    const accountId = (await browser.send('GET', '/v2/account')).body.account.id;
    // The operator's view is the same repositories: one code path.
    expect((await accountSummary(processContext(), accountId)).autoRecharge).to.include({ enabled: true, threshold: 1000, packageCredits: 100000 });
    const off = await browser.send('DELETE', '/v2/account/auto-recharge');
    expect(off.status).to.equal(200);
    expect(off.body.autoRecharge.enabled).to.equal(false);
    expect((await accountSummary(processContext(), accountId)).autoRecharge.enabled).to.equal(false);
  });

  it('happy: the operator CLI code sees the self-serve account and its keys (no second code path)', async () => {
    const accountId = (await browser.send('GET', '/v2/account')).body.account.id;
    const keys = await listKeys(processContext(), accountId);
    expect(keys.map((k) => k.name)).to.deep.equal(['production bot', 'staging']);
    expect(keys[0].revokedAt).to.be.instanceOf(Date);
  });

  it('happy: POST /v2/account/logout ends the session (204, cookie cleared); the old cookie is refused', async () => {
    const cookie = browser.cookie;
    const r = await browser.send('POST', '/v2/account/logout');
    expect(r.status).to.equal(204);
    expect(r.headers.get('set-cookie')).to.match(/^odds_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    const old = new Browser(api.url);
    old.cookie = cookie;
    expect((await old.send('GET', '/v2/account')).status).to.equal(401);
    expect((await browser.login(email, PASSWORD)).status).to.equal(200);
  });

  it('happy: the cookie is Secure when the service is public over https (PUBLIC_URL)', async () => {
    setEnvForChildren({ PUBLIC_URL: 'https://odds.example.com' });
    try {
      const r = await new Browser(api.url).signup();
      expect(r.headers.get('set-cookie')).to.match(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      setEnvForChildren({ PUBLIC_URL: '' });
    }
  });

  it('happy: the OpenAPI document describes every account operation under the Account tag, free', async () => {
    const doc = (await api.get('/v2/openapi.json')).body;
    expect(doc.tags.map((t: { name: string }) => t.name)).to.include('Account');
    const ops = Object.entries<any>(doc.paths)
      .filter(([p]) => p.startsWith('/v2/account'))
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.sort()).to.deep.equal(
      [
        'POST /v2/account/signup',
        'POST /v2/account/login',
        'POST /v2/account/logout',
        'GET /v2/account',
        'GET /v2/account/keys',
        'POST /v2/account/keys',
        'DELETE /v2/account/keys/{id}',
        'GET /v2/account/usage',
        'GET /v2/account/packages',
        'POST /v2/account/purchases',
        'GET /v2/account/payment-method',
        'POST /v2/account/payment-method',
        'DELETE /v2/account/payment-method',
        'POST /v2/account/payment-method/confirm',
        'PUT /v2/account/auto-recharge',
        'DELETE /v2/account/auto-recharge',
        'GET /v2/account/track-record',
        'GET /v2/account/track-record/chart.svg',
        'GET /v2/account/stream',
        'GET /v2/account/webhooks',
        'POST /v2/account/webhooks',
        'DELETE /v2/account/webhooks/{id}',
        'POST /v2/account/webhooks/{id}/rotate-secret',
        'POST /v2/account/webhooks/{id}/enable',
        'POST /v2/account/webhooks/{id}/test',
        'GET /v2/account/webhooks/{id}/deliveries',
        'POST /v2/account/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      ].sort(),
    );
    for (const item of Object.values<any>(doc.paths).filter((i) => !i.get?.['x-credits'] && !i.get)) for (const op of Object.values<any>(item)) expect(op.tags).to.deep.equal(['Account']);
    expect(doc.paths['/v2/account/keys'].post['x-credits']).to.equal(0);
  });
});
