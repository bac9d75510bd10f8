import { expect } from 'chai';
import { expireSessionsOfAccount, findAllSessions, findLedgerEntriesOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { FAKE_STRIPE_CUSTOMER, startFakeStripe, type FakeStripe } from '../../helpers/fakeStripe';
import { Browser, forgetLocalFailures, PASSWORD, startWebProcess, uniqueEmail, type WebProcess } from './client';

/**
 * Security cases against two web processes (workers/web.ts, as production runs them) sharing the
 * stores, charging through a local server of Stripe's documented shape, logging at debug level.
 */
describe('account API: security', function () {
  this.timeout(180000);
  let stripe: FakeStripe;
  let web: WebProcess[] = [];
  const secrets: string[] = [];

  before(async () => {
    await connectMongo();
    await forgetLocalFailures();
    stripe = await startFakeStripe();
    const env = { PAYMENT_GATEWAY: 'stripe', STRIPE_API_URL: stripe.url, STRIPE_SECRET_KEY: stripe.secretKey, LOG_LEVEL: 'debug', RATE_LIMIT_LIVE_RPS: '1000' };
    web = await Promise.all([startWebProcess(env), startWebProcess(env)]);
  });
  after(async () => {
    await Promise.all(web.map((w) => w.stop()));
    await stripe?.close();
    await forgetLocalFailures();
  });

  const signedUp = async (on: WebProcess) => {
    const b = new Browser(on.url);
    const r = await b.signup(uniqueEmail('sec'));
    expect(r.status).to.equal(201);
    secrets.push(b.cookie!.split('=')[1], b.csrf!);
    return b;
  };
  const keyOf = async (b: Browser) => {
    const k = await b.newKey('sec key', 'live');
    secrets.push(k.key);
    return k;
  };
  const call = (w: WebProcess, key: string) => fetch(`${w.url}/v2/matches?limit=1`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status);

  it('security: a key of one account is invisible to another: not listed, not revocable (404), still working', async () => {
    const alice = await signedUp(web[0]);
    const bob = await signedUp(web[1]);
    const k = await keyOf(alice);
    const bobsList = await bob.send('GET', '/v2/account/keys');
    expect(bobsList.body.data).to.deep.equal([]);
    const r = await bob.send('DELETE', `/v2/account/keys/${k.id}`);
    expect(r.status).to.equal(404);
    expect(await call(web[0], k.key)).to.equal(200);
    expect((await alice.send('GET', '/v2/account/keys')).body.data.map((x: { id: string }) => x.id)).to.deep.equal([k.id]);
  });

  it("security: another account's session cookie (with its own CSRF token) cannot revoke your key; a copied CSRF token without your cookie cannot either", async () => {
    const alice = await signedUp(web[0]);
    const mallory = await signedUp(web[1]);
    const k = await keyOf(alice);
    expect((await mallory.send('DELETE', `/v2/account/keys/${k.id}`)).status).to.equal(404);
    // Mallory's cookie with Alice's token: the token is not Mallory's session's.
    expect((await mallory.send('DELETE', `/v2/account/keys/${k.id}`, undefined, { 'X-CSRF-Token': alice.csrf! })).status).to.equal(403);
    const noCookie = new Browser(web[0].url);
    expect((await noCookie.send('DELETE', `/v2/account/keys/${k.id}`, undefined, { 'X-CSRF-Token': alice.csrf! })).status).to.equal(401);
    expect(await call(web[1], k.key)).to.equal(200);
  });

  it('security: a revoked key is refused at once by both web processes (each had it cached)', async () => {
    const alice = await signedUp(web[0]);
    const k = await keyOf(alice);
    // Both processes have checked (and cached) the key.
    expect([await call(web[0], k.key), await call(web[1], k.key)]).to.deep.equal([200, 200]);
    const r = await alice.send('DELETE', `/v2/account/keys/${k.id}`);
    expect(r.status).to.equal(200);
    // The very next request, on either process, with no wait.
    expect([await call(web[1], k.key), await call(web[0], k.key)]).to.deep.equal([401, 401]);
  });

  /** The owner saves a card through Stripe's page (Checkout in setup mode), as the dashboard does. */
  const savedCard = async (b: Browser, paymentMethod: string) => {
    const start = await b.send('POST', '/v2/account/payment-method', {});
    expect(start.status, JSON.stringify(start.body)).to.equal(201);
    expect(start.body.setup).to.include({ status: 'open' });
    expect(start.body.setup.url).to.match(/^http/);
    stripe.completeCheckout(start.body.setup.id, paymentMethod);
    const done = await b.send('POST', '/v2/account/payment-method/confirm', { setupId: start.body.setup.id });
    expect(done.status, JSON.stringify(done.body)).to.equal(200);
    return done.body.paymentMethod as { customer: string; paymentMethod: string };
  };

  it('security: a retried purchase (same Idempotency-Key, concurrent and sequential, across both processes) charges once at the gateway and credits once', async () => {
    const alice = await signedUp(web[0]);
    const accountId = (await alice.send('GET', '/v2/account')).body.account.id;
    const card = await savedCard(alice, 'pm_alice_retry');
    const onOther = new Browser(web[1].url);
    onOther.cookie = alice.cookie;
    onOther.csrf = alice.csrf;
    const body = { package: 100000 };
    const headers = { 'Idempotency-Key': `order-${accountId}` };
    const createdBefore = stripe.created.length;
    const first = await Promise.all([alice, onOther, alice, onOther].map((b) => b.send('POST', '/v2/account/purchases', body, headers)));
    const again = await onOther.send('POST', '/v2/account/purchases', body, headers);
    for (const r of [...first, again]) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(new Set([...first, again].map((r) => r.body.chargeId)).size).to.equal(1);
    expect(again.body.replayed).to.equal(true);
    expect(stripe.created.length - createdBefore).to.equal(1);
    expect(stripe.created.at(-1)).to.include({ amount: 4500, paymentMethod: card.paymentMethod, status: 'succeeded' });
    expect(stripe.requests.at(-1)?.body).to.include({ customer: card.customer });
    expect(await findLedgerEntriesOfAccount(accountId, ['purchase'])).to.have.length(1);
    expect((await alice.send('GET', '/v2/account')).body.account.balance).to.equal(500 + 100000);
    // A new key is a new purchase.
    const second = await alice.send('POST', '/v2/account/purchases', body, { 'Idempotency-Key': `order2-${accountId}` });
    expect(second.status).to.equal(201);
    expect(stripe.created.length - createdBefore).to.equal(2);
    expect(second.body.balance).to.equal(500 + 200000);
  });

  it("security: a purchase naming another account's customer or card is a 400 and charges nothing; a plain one charges only the account's own", async () => {
    const alice = await signedUp(web[0]);
    const aliceCard = await savedCard(alice, 'pm_alice_victim');
    const mallory = await signedUp(web[1]);
    const malloryCard = await savedCard(mallory, 'pm_mallory_own');
    expect(malloryCard.customer).to.not.equal(aliceCard.customer);
    const before = stripe.created.length;
    for (const body of [
      { package: 20000, paymentMethod: aliceCard.paymentMethod, customer: aliceCard.customer },
      { package: 20000, paymentMethod: aliceCard.paymentMethod },
      { package: 20000, customer: aliceCard.customer },
      { package: 20000, paymentMethod: FAKE_STRIPE_CUSTOMER },
    ]) {
      const r = await mallory.send('POST', '/v2/account/purchases', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.message).to.match(/is not accepted/);
    }
    // Neither can Mallory save Alice's card by confirming Alice's setup.
    const aliceSetups = [...stripe.sessions.values()].filter((x) => x.customer === aliceCard.customer).map((x) => x.id);
    for (const setupId of aliceSetups) expect((await mallory.send('POST', '/v2/account/payment-method/confirm', { setupId })).status).to.equal(404);
    expect(stripe.created.length).to.equal(before);
    const own = await mallory.send('POST', '/v2/account/purchases', { package: 20000 });
    expect(own.status).to.equal(201);
    expect(stripe.created.length).to.equal(before + 1);
    expect(stripe.created.at(-1)).to.include({ paymentMethod: malloryCard.paymentMethod, status: 'succeeded' });
    expect(stripe.requests.filter((q) => q.body.payment_method === aliceCard.paymentMethod)).to.deep.equal([]);
  });

  it('security: an expired session is refused even while the store still holds it (FerretDB keeps expired documents)', async () => {
    const alice = await signedUp(web[0]);
    await expireSessionsOfAccount((await alice.send('GET', '/v2/account')).body.account.id, new Date(Date.now() - 1000));
    expect((await alice.send('GET', '/v2/account')).status).to.equal(401);
  });

  it('security: sessions are stored by hash: the cookie value is in no session document', async () => {
    const alice = await signedUp(web[1]);
    const id = alice.cookie!.split('=')[1];
    const docs = await findAllSessions();
    expect(JSON.stringify(docs)).to.not.include(id);
    expect(docs.some((d) => d.csrfToken === alice.csrf)).to.equal(true);
  });

  it('security: no password, session id, CSRF token or key reaches a log line of either process (debug level)', async () => {
    const b = new Browser(web[0].url);
    const email = uniqueEmail('logs');
    await b.signup(email, PASSWORD);
    await b.login(email, 'a-wrong-password-here');
    await b.login(email, PASSWORD);
    secrets.push(b.cookie!.split('=')[1], b.csrf!);
    await keyOf(b);
    const output = web.map((w) => w.process.output()).join('\n');
    expect(output).to.include('"url":"/v2/account/login"'); // the requests were logged
    for (const secret of [...secrets, PASSWORD, 'a-wrong-password-here']) expect(output.includes(secret), `a secret in the log: ${secret.slice(0, 6)}...`).to.equal(false);
  });
});
