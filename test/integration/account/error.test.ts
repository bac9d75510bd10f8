import { expect } from 'chai';
import { WIRE_CODES } from '../../../api/errors';
import { MAX_ATTEMPTS_PER_ADDRESS, MAX_FAILURES_PER_EMAIL } from '../../../shared/app/accounts/throttle';
import type { TestServer } from '../../helpers/api';
import { Browser, forgetLocalFailures, PASSWORD, startAccountApi, uniqueEmail } from './client';

const errorShape = (body: any, status: number) => {
  expect(body).to.include({ statusCode: status });
  expect(body.message).to.be.a('string');
  expect(body.error).to.be.a('string');
  expect(WIRE_CODES).to.include(body.code);
  expect(body.requestId).to.be.a('string');
};

/** The account API's refusals: 400 naming the field, 401, 403 without CSRF, 404, 405, 409, 415, 429, all in the error shape. */
describe('account API: error paths', function () {
  this.timeout(90000);
  let api: TestServer;
  let signedIn: Browser;

  before(async () => {
    api = await startAccountApi();
    await forgetLocalFailures();
    signedIn = new Browser(api.url);
    expect((await signedIn.signup()).status).to.equal(201);
  });
  after(async () => {
    await forgetLocalFailures();
    await api.close();
  });

  const cases: [string, unknown, string][] = [
    ['malformed e-mail', { email: 'not-an-address', password: PASSWORD }, 'email'],
    ['e-mail without a domain dot', { email: 'a@localhost', password: PASSWORD }, 'email'],
    ['missing e-mail', { password: PASSWORD }, 'email'],
    ['password under 12 characters', { email: uniqueEmail(), password: 'Short1!x' }, 'password'],
    ['common password', { email: uniqueEmail(), password: 'passwordpassword' }, 'password'],
    ['common password in other case', { email: uniqueEmail(), password: 'QwertyUiop123' }, 'password'],
    ['password not a string', { email: uniqueEmail(), password: 123456789012345 }, 'password'],
  ];
  for (const [what, body, field] of cases) {
    it(`error: signup with a ${what} is a 400 naming ${field}`, async () => {
      const r = await new Browser(api.url).send('POST', '/v2/account/signup', body);
      expect(r.status).to.equal(400);
      errorShape(r.body, 400);
      expect(r.body.message).to.match(new RegExp(`\\b${field}\\b`));
      expect(r.headers.get('set-cookie')).to.equal(null);
    });
  }

  it('error: signup with a taken e-mail, in any case, is a 409', async () => {
    const email = uniqueEmail('taken');
    expect((await new Browser(api.url).signup(email)).status).to.equal(201);
    for (const variant of [email, email.toUpperCase(), `  ${email.replace('taken', 'TAKEN')} `]) {
      const r = await new Browser(api.url).signup(variant);
      expect(r.status, variant).to.equal(409);
      errorShape(r.body, 409);
    }
  });

  it('error: a malformed JSON body is a 400 in the error shape; a form post is a 415; a huge body a 413', async () => {
    const b = new Browser(api.url);
    const bad = await b.send('POST', '/v2/account/signup', '{"email": ');
    expect(bad.status).to.equal(400);
    errorShape(bad.body, 400);
    const form = await b.send('POST', '/v2/account/login', 'email=a@b.co&password=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).to.equal(415);
    errorShape(form.body, 415);
    const huge = await b.send('POST', '/v2/account/signup', { email: uniqueEmail(), password: 'x'.repeat(20000) });
    expect(huge.status).to.equal(413);
    errorShape(huge.body, 413);
  });

  it('error: login with a wrong password and with an unknown e-mail: the same 401 body, in about the same time', async () => {
    const email = uniqueEmail('timing');
    expect((await new Browser(api.url).signup(email)).status).to.equal(201);
    const wrong: number[] = [];
    const unknown: number[] = [];
    let bodies: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const a = await new Browser(api.url).login(email, 'wrong-password-123456');
      const b = await new Browser(api.url).login(uniqueEmail('nobody'), 'wrong-password-123456');
      expect([a.status, b.status]).to.deep.equal([401, 401]);
      bodies = [a.body, b.body];
      wrong.push(a.ms);
      unknown.push(b.ms);
    }
    // The same body but for each answer's own request id: nothing tells an unknown e-mail apart.
    const withoutId = (b: unknown) => ({ ...(b as Record<string, unknown>), requestId: undefined });
    expect(withoutId(bodies[0])).to.deep.equal(withoutId(bodies[1]));
    errorShape(bodies[0], 401);
    // The fastest of five: a busy machine (the suite runs four files at a time) only ever makes a
    // sample slower, so the minimum is the request's own cost.
    const fastest = (xs: number[]) => Math.min(...xs);
    // Both run scrypt once (the unknown e-mail against a dummy hash): neither is several times the other.
    expect(fastest(unknown) / fastest(wrong), `wrong ${wrong.join(', ')} ms; unknown ${unknown.join(', ')} ms`).to.be.within(0.33, 3);
    expect(fastest(unknown)).to.be.above(10);
    await forgetLocalFailures();
  });

  it(`error: ${MAX_FAILURES_PER_EMAIL} failed logins for one e-mail throttle it: 429 with Retry-After, even with the right password`, async () => {
    const email = uniqueEmail('throttle');
    expect((await new Browser(api.url).signup(email)).status).to.equal(201);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) expect((await new Browser(api.url).login(email, 'not-the-password-1')).status).to.equal(401);
    const r = await new Browser(api.url).login(email, PASSWORD);
    expect(r.status).to.equal(429);
    errorShape(r.body, 429);
    expect(Number(r.headers.get('retry-after'))).to.be.within(1, 900);
    // Another e-mail from the same address still signs in.
    await forgetLocalFailures();
    const other = uniqueEmail('other');
    expect((await new Browser(api.url).signup(other)).status).to.equal(201);
    expect((await new Browser(api.url).login(other)).status).to.equal(200);
  });

  it(`error: ${MAX_ATTEMPTS_PER_ADDRESS} failed logins from one address throttle it for every e-mail: 429 with Retry-After`, async () => {
    await forgetLocalFailures();
    const email = uniqueEmail('addr');
    expect((await new Browser(api.url).signup(email)).status).to.equal(201);
    for (let i = 0; i < MAX_ATTEMPTS_PER_ADDRESS; i++) expect((await new Browser(api.url).login(uniqueEmail('spray'), 'sprayed-password-1')).status).to.equal(401);
    const r = await new Browser(api.url).login(email);
    expect(r.status).to.equal(429);
    expect(Number(r.headers.get('retry-after'))).to.be.within(1, 900);
    await forgetLocalFailures();
    expect((await new Browser(api.url).login(email)).status).to.equal(200);
  });

  it('error: without a session every account path but signup, login and packages is a 401', async () => {
    const anon = new Browser(api.url);
    for (const [method, path] of [
      ['GET', '/v2/account'],
      ['GET', '/v2/account/keys'],
      ['POST', '/v2/account/keys'],
      ['DELETE', '/v2/account/keys/key_x'],
      ['GET', '/v2/account/usage'],
      ['POST', '/v2/account/purchases'],
      ['PUT', '/v2/account/auto-recharge'],
      ['DELETE', '/v2/account/auto-recharge'],
      ['POST', '/v2/account/logout'],
    ]) {
      const r = await anon.send(method, path, method === 'POST' || method === 'PUT' ? {} : undefined);
      expect(r.status, `${method} ${path}`).to.equal(401);
      errorShape(r.body, 401);
    }
    const forged = new Browser(api.url);
    forged.cookie = 'odds_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect((await forged.send('GET', '/v2/account')).status).to.equal(401);
  });

  it("error: a state-changing request without X-CSRF-Token, or with another session's, is a 403 and changes nothing", async () => {
    const other = new Browser(api.url);
    await other.signup();
    const before = (await signedIn.send('GET', '/v2/account/keys')).body.data.length;
    for (const token of ['', other.csrf!, 'x'.repeat(43)]) {
      const r = await signedIn.send('POST', '/v2/account/keys', { name: 'csrf', mode: 'live' }, { 'X-CSRF-Token': token });
      expect(r.status).to.equal(403);
      errorShape(r.body, 403);
      // Told apart from the other 403 (insufficient credits) by its code, not its words.
      expect(r.body.code).to.equal('csrf_rejected');
    }
    for (const [method, path, body] of [
      ['PUT', '/v2/account/auto-recharge', { threshold: 100, package: 20000 }],
      ['DELETE', '/v2/account/auto-recharge', undefined],
      ['POST', '/v2/account/purchases', { package: 20000 }],
      ['POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' }],
      ['DELETE', '/v2/account/payment-method', undefined],
      ['POST', '/v2/account/logout', undefined],
    ] as const) {
      expect((await signedIn.send(method, path, body, { 'X-CSRF-Token': '' })).status, `${method} ${path}`).to.equal(403);
    }
    expect((await signedIn.send('GET', '/v2/account/keys')).body.data.length).to.equal(before);
    expect((await signedIn.send('GET', '/v2/account')).body.account.autoRecharge.enabled).to.equal(false);
    expect((await signedIn.send('GET', '/v2/account')).body.account.paymentMethod).to.equal(null);
  });

  it('error: without a saved card a purchase and auto-recharge are 409s and charge nothing', async () => {
    const fresh = new Browser(api.url);
    expect((await fresh.signup()).status).to.equal(201);
    for (const [method, path, body] of [
      ['POST', '/v2/account/purchases', { package: 20000 }],
      ['PUT', '/v2/account/auto-recharge', { threshold: 100, package: 20000 }],
    ] as const) {
      const r = await fresh.send(method, path, body);
      expect(r.status, path).to.equal(409);
      expect(r.body.message).to.match(/No payment method is saved/);
    }
  });

  it('error: bad key, usage, purchase, card and auto-recharge fields are 400s naming the field', async () => {
    const expect400 = async (method: string, path: string, body: unknown, field: string) => {
      const r = await signedIn.send(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).to.equal(400);
      expect(r.body.message).to.match(new RegExp(`\\b${field}\\b`));
    };
    await expect400('POST', '/v2/account/keys', { name: '', mode: 'live' }, 'name');
    await expect400('POST', '/v2/account/keys', { name: 'x', mode: 'prod' }, 'mode');
    await expect400('GET', '/v2/account/usage?days=0', undefined, 'days');
    await expect400('GET', '/v2/account/usage?days=abc', undefined, 'days');
    await expect400('GET', '/v2/account/usage?since=1', undefined, 'since');
    await expect400('POST', '/v2/account/purchases', { package: 12345 }, 'package');
    await expect400('POST', '/v2/account/purchases', { package: 20000, paymentMethod: 'pm_card_visa' }, 'paymentMethod');
    await expect400('POST', '/v2/account/purchases', { package: 20000, customer: 'cus_someone' }, 'customer');
    await expect400('PUT', '/v2/account/auto-recharge', { threshold: -1, package: 20000 }, 'threshold');
    await expect400('PUT', '/v2/account/auto-recharge', { threshold: 100, package: 7 }, 'package');
    await expect400('PUT', '/v2/account/auto-recharge', { threshold: 100, package: 20000, paymentMethod: 'pm_card_visa' }, 'paymentMethod');
    await expect400('POST', '/v2/account/payment-method', {}, 'testCard');
    await expect400('POST', '/v2/account/payment-method', { testCard: '4242424242424242' }, 'testCard');
    await expect400('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa', customer: 'cus_x' }, 'customer');
    await expect400('POST', '/v2/account/payment-method/confirm', { setupId: 'seti_x' }, 'setupId');
  });

  it('error: a declined card is a 402 and credits nothing; an unknown key id is a 404', async () => {
    const before = (await signedIn.send('GET', '/v2/account')).body.account.balance;
    expect((await signedIn.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_chargeDeclined' })).status).to.equal(201);
    const r = await signedIn.send('POST', '/v2/account/purchases', { package: 20000 });
    expect(r.status).to.equal(402);
    expect(r.body.message).to.match(/declined/);
    expect((await signedIn.send('GET', '/v2/account')).body.account.balance).to.equal(before);
    expect((await signedIn.send('DELETE', '/v2/account/keys/key_doesNotExist')).status).to.equal(404);
  });

  it('error: one Idempotency-Key reused for another purchase is a 409', async () => {
    const key = `reuse-${Date.now()}`;
    expect((await signedIn.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' })).status).to.equal(201);
    expect((await signedIn.send('POST', '/v2/account/purchases', { package: 20000 }, { 'Idempotency-Key': key })).status).to.equal(201);
    const r = await signedIn.send('POST', '/v2/account/purchases', { package: 100000 }, { 'Idempotency-Key': key });
    expect(r.status).to.equal(409);
    errorShape(r.body, 409);
  });

  it('error: another method on an account path is a 405 with Allow; the read API stays GET-only', async () => {
    const r = await signedIn.send('PATCH', '/v2/account/keys', {});
    expect(r.status).to.equal(405);
    expect(r.headers.get('allow')).to.equal('GET, POST, HEAD');
    expect((await signedIn.send('GET', '/v2/account/signup')).headers.get('allow')).to.equal('POST');
    const read = await signedIn.send('POST', '/v2/matches', {});
    expect(read.status).to.equal(405);
    expect(read.headers.get('allow')).to.equal('GET, HEAD');
    expect((await signedIn.send('GET', '/v2/account/nothing-here')).status).to.equal(404);
  });
});
