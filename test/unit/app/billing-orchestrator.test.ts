import { expect } from 'chai';
import { accountView, keysOf, logIn, newKey, revokeOwnKey, signUp, usageOf } from '../../../shared/app/accounts/selfServe';
import { endSession, resolveSession, startSession, SESSION_TTL_S } from '../../../shared/app/accounts/sessions';
import { MAX_FAILURES_PER_EMAIL } from '../../../shared/app/accounts/throttle';
import { accountSummary, addCredits, balanceOf, clearAutoRecharge, createAccount, createKey, listKeys, revokeKey, setAutoRecharge } from '../../../shared/app/billing/accounts';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { confirmSetup, startSetup } from '../../../shared/app/billing/paymentMethods';
import { purchasePackage } from '../../../shared/app/billing/purchase';
import { rechargeWindow, runCharge, sweepRecharges } from '../../../shared/app/billing/recharge';
import { sweepHoldsAndRecharges } from '../../../shared/app/billing/sweep';
import { AccountError } from '../../../shared/domain/accounts/errors';
import { BillingInputError } from '../../../shared/domain/billing/errors';
import { hashKey } from '../../../shared/domain/billing/keys';
import { FREE_CREDITS } from '../../../shared/domain/billing/packages';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { fakeContext, type FakeContext } from './fakeContext';

/** Accounts, keys, purchases, auto-recharge, the ledger check, sign-in and sessions on an in-memory context. */

const NOW = new Date('2026-11-21T12:00:00Z');

async function refusal(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.fail('expected a refusal'),
    (err: unknown) => err,
  );
}

async function accountWithCard(ctx: FakeContext, id = 'acc-1'): Promise<string> {
  await createAccount(ctx, { id, name: 'Acme' });
  await startSetup(ctx, id, { testCard: 'pm_card_visa' }, 'https://example.test/back');
  return id;
}

describe('accounts and keys (in-memory context)', () => {
  beforeEach(renewProcessScope);

  it('happy: a new account gets its free credits once, from a clean balance; its id cannot be taken twice', async () => {
    const ctx = fakeContext(NOW);
    ctx.credits.balances.set('acc-1', { balance: 999, topUpSeq: 9 }); // left under a reused id
    expect(await createAccount(ctx, { id: 'acc-1', name: ' Acme ' })).to.deep.equal({ id: 'acc-1', name: 'Acme', balance: FREE_CREDITS });
    expect(ctx.credits.ledger.get('grant:acc-1')).to.deep.equal({ accountId: 'acc-1', kind: 'grant', delta: FREE_CREDITS });
    expect(await refusal(createAccount(ctx, { id: 'acc-1', name: 'Again' }))).to.be.instanceOf(BillingInputError);
    expect(await refusal(createAccount(ctx, { name: '' }))).to.include({ argument: 'name' });
  });

  it('happy: a key is stored hashed and shown once; revoked, every process refuses it and a second revoke says so', async () => {
    const ctx = fakeContext(NOW);
    await createAccount(ctx, { id: 'acc-1', name: 'Acme' });
    const key = await createKey(ctx, { accountId: 'acc-1', name: 'ci', mode: 'test' });
    expect(ctx.accounts.keys[0]).to.include({ _id: key.id, hash: hashKey(key.key), mode: 'test' });
    expect(JSON.stringify(ctx.accounts.keys)).to.not.include(key.key);
    ctx.accounts.lastUsed.set(hashKey(key.key), NOW);
    expect((await listKeys(ctx, 'acc-1')).map((k) => [k.id, k.lastUsedAt])).to.deep.equal([[key.id, NOW]]);
    expect(await revokeKey(ctx, key.id)).to.deep.include({ alreadyRevoked: false, revokedAt: NOW });
    expect(ctx.accounts.refused.has(hashKey(key.key))).to.equal(true);
    expect(await revokeKey(ctx, key.id)).to.deep.include({ alreadyRevoked: true });
    expect(await refusal(createKey(ctx, { accountId: 'acc-1', name: 'x', mode: 'gold' }))).to.include({ argument: 'mode' });
    expect(await refusal(createKey(ctx, { accountId: 'nope', name: 'x' }))).to.include({ argument: 'account' });
  });

  it('happy: a package is credited once per ref; the summary counts billed requests per endpoint, refunds cancelling their debits', async () => {
    const ctx = fakeContext(NOW);
    await createAccount(ctx, { id: 'acc-1', name: 'Acme' });
    expect(await addCredits(ctx, { accountId: 'acc-1', packageCredits: 20000, ref: 'p1' })).to.include({ applied: true, balance: FREE_CREDITS + 20000 });
    expect(await addCredits(ctx, { accountId: 'acc-1', packageCredits: 20000, ref: 'p1' })).to.include({ applied: false, balance: FREE_CREDITS + 20000 });
    expect(await refusal(addCredits(ctx, { accountId: 'acc-1', packageCredits: 7 }))).to.include({ argument: 'package' });
    const at = new Date('2026-11-20T12:00:00Z');
    ctx.accounts.usage.set('acc-1', [
      { endpoint: 'GET /v2/matches', kind: 'debit', delta: -1, at },
      { endpoint: 'GET /v2/matches', kind: 'debit', delta: -1, at },
      { endpoint: 'GET /v2/matches', kind: 'refund', delta: 1, at },
      { endpoint: 'GET /v2/ai/picks', kind: 'debit', delta: -5, at: new Date('2026-01-01T00:00:00Z') },
    ]);
    const summary = await accountSummary(ctx, 'acc-1', 30);
    expect(summary.usage.endpoints).to.deep.equal([{ endpoint: 'GET /v2/matches', requests: 1, credits: 1 }]);
  });
});

describe('purchases and payment methods (in-memory context)', () => {
  beforeEach(renewProcessScope);

  it('happy: a purchase charges the saved card once per idempotency key; through the test gateway it buys test credits', async () => {
    const ctx = fakeContext(NOW);
    await accountWithCard(ctx);
    const first = await purchasePackage(ctx, { accountId: 'acc-1', package: 20000, idempotencyKey: 'k1' });
    expect(first).to.include({ package: 20000, mode: 'test', replayed: false, balance: FREE_CREDITS, testBalance: 20000 });
    expect(ctx.payments.charges).to.have.length(1);
    expect(ctx.payments.charges[0]).to.include({ paymentMethod: 'pm_card_visa', customer: 'cus_acc-1', currency: 'usd' });
    const again = await purchasePackage(ctx, { accountId: 'acc-1', package: 20000, idempotencyKey: 'k1' });
    expect(again).to.include({ id: first.id, replayed: true, testBalance: 20000 });
    // The same key for another purchase is refused before any charge.
    expect(await refusal(purchasePackage(ctx, { accountId: 'acc-1', package: 100000, idempotencyKey: 'k1' }))).to.include({ kind: 'idempotency-conflict' });
    expect(ctx.payments.charges).to.have.length(2); // the replay reached the gateway with the same key (it answers the first outcome)
    expect(ctx.payments.charges[1].idempotencyKey).to.equal(ctx.payments.charges[0].idempotencyKey);
  });

  it('happy: through a live gateway the package is live credits', async () => {
    const ctx = fakeContext(NOW, { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' });
    ctx.payments.gatewayName = 'stripe';
    await createAccount(ctx, { id: 'acc-1', name: 'Acme' });
    await ctx.accounts.saveBillingPaymentMethod('acc-1', 'stripe', 'cus_1', 'pm_1');
    expect(await purchasePackage(ctx, { accountId: 'acc-1', package: 20000 })).to.include({ mode: 'live', balance: FREE_CREDITS + 20000, testBalance: 0 });
  });

  it('error: a decline is an answer; a gateway that does not answer is a 503 to retry; no card, a named card, or no gateway are refused', async () => {
    const ctx = fakeContext(NOW);
    await accountWithCard(ctx);
    ctx.payments.answers.push({ status: 'declined', code: 'card_declined', message: 'Your card was declined.', chargeId: null });
    expect(await refusal(purchasePackage(ctx, { accountId: 'acc-1', package: 20000 }))).to.include({ kind: 'declined' });
    ctx.payments.fail = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    expect(await refusal(purchasePackage(ctx, { accountId: 'acc-1', package: 20000, idempotencyKey: 'k2' }))).to.include({ kind: 'gateway-unavailable' });
    ctx.payments.fail = null;
    expect(await refusal(purchasePackage(ctx, { accountId: 'acc-1', package: 20000, paymentMethod: 'pm_other' }))).to.include({ argument: 'paymentMethod' });
    await createAccount(ctx, { id: 'acc-2', name: 'No card' });
    expect(await refusal(purchasePackage(ctx, { accountId: 'acc-2', package: 20000 }))).to.include({ kind: 'no-payment-method' });
    const none = fakeContext(NOW, { PAYMENT_GATEWAY: 'none' });
    await createAccount(none, { id: 'acc-3', name: 'x' });
    expect(await refusal(purchasePackage(none, { accountId: 'acc-3', package: 20000 }))).to.include({ kind: 'not-selling' });
    // Nothing credited by the refusals.
    expect(await ctx.credits.testBalanceOf('acc-1')).to.equal(0);
  });

  it("security: a setup is confirmed only by the account that started it; another account's is not found", async () => {
    const ctx = fakeContext(NOW);
    await accountWithCard(ctx, 'acc-1');
    await createAccount(ctx, { id: 'acc-2', name: 'Other' });
    expect(await refusal(confirmSetup(ctx, 'acc-2', 'cs_1'))).to.include({ kind: 'not-found' });
    expect((await confirmSetup(ctx, 'acc-1', 'cs_1')).paymentMethod).to.include({ paymentMethod: 'pm_card_visa', customer: 'cus_acc-1' });
    expect(ctx.payments.customers).to.have.length(1); // one customer per account, made once
    expect(await refusal(startSetup(ctx, 'acc-1', {}, 'https://example.test'))).to.include({ argument: 'testCard' });
  });
});

describe('auto-recharge (in-memory context)', () => {
  beforeEach(renewProcessScope);

  async function underThreshold(ctx: FakeContext): Promise<{ accountId: string; window: string }> {
    const accountId = await accountWithCard(ctx);
    await setAutoRecharge(ctx, { accountId, threshold: 1000, packageCredits: 20000 });
    const head = await ctx.credits.admissionHead(accountId);
    const settings = await ctx.accounts.findAccount(accountId);
    return { accountId, window: rechargeWindow(settings?.autoRecharge?.version ?? 0, head.topUpSeq) };
  }

  it('happy: a charge of the window credits its package once, however often the job runs', async () => {
    const ctx = fakeContext(NOW);
    const { accountId, window } = await underThreshold(ctx);
    expect(await runCharge(ctx, { accountId, window, attempt: 1 })).to.deep.include({ outcome: 'credited', credits: 20000 });
    expect(await runCharge(ctx, { accountId, window, attempt: 1 })).to.deep.include({ outcome: 'credited' });
    expect(ctx.payments.charges).to.have.length(1);
    expect(await ctx.credits.testBalanceOf(accountId)).to.equal(20000);
    expect(ctx.recharges.attempts[0]).to.include({ status: 'succeeded', credited: true });
  });

  it('happy: a decline schedules attempt 2 an hour later; a second decline turns auto-recharge off with the reason', async () => {
    const ctx = fakeContext(NOW);
    const { accountId, window } = await underThreshold(ctx);
    const declined = { status: 'declined' as const, code: 'card_declined', message: 'no', chargeId: null };
    ctx.payments.answers.push(declined, declined);
    expect(await runCharge(ctx, { accountId, window, attempt: 1 })).to.deep.include({ outcome: 'declined', next: 'retry' });
    expect(ctx.dispatched).to.deep.equal([{ kind: 'enqueue', queue: 'recharge', name: 'charge', data: { accountId, window, attempt: 2 }, delay: 3_600_000 }]);
    expect(await runCharge(ctx, { accountId, window, attempt: 2 })).to.deep.include({ outcome: 'declined', next: 'disabled' });
    const settings = (await ctx.accounts.findAccount(accountId))?.autoRecharge;
    expect(settings).to.include({ enabled: false });
    expect(settings?.disabledReason).to.match(/declined twice/);
    expect(await runCharge(ctx, { accountId, window, attempt: 3 })).to.deep.include({ outcome: 'skipped' });
  });

  it('error: settings that cannot be charged are turned off uncharged; a closed window or a balance above the threshold is skipped', async () => {
    const ctx = fakeContext(NOW);
    const { accountId, window } = await underThreshold(ctx);
    await addCredits(ctx, { accountId, packageCredits: 20000, ref: 'manual' });
    expect(await runCharge(ctx, { accountId, window, attempt: 1 })).to.deep.include({ outcome: 'skipped', reason: 'window closed (topped up or settings changed)' });
    await ctx.accounts.removeBillingPaymentMethod(accountId, 0);
    await ctx.accounts.enableAutoRecharge(accountId, { threshold: 1000, packageCredits: 20000, version: 0 });
    const head = await ctx.credits.admissionHead(accountId);
    expect(await runCharge(ctx, { accountId, window: rechargeWindow(0, head.topUpSeq), attempt: 1 })).to.deep.include({ outcome: 'disabled' });
    expect(ctx.payments.charges).to.deep.equal([]);
  });

  it('happy: the sweep queues the next charge of every account under its threshold, and leaves a credited window alone', async () => {
    const ctx = fakeContext(NOW);
    const { accountId, window } = await underThreshold(ctx);
    expect(await sweepRecharges(ctx)).to.deep.equal({ ensured: 1 });
    expect(ctx.dispatched[0]).to.deep.include({ kind: 'enqueue', queue: 'recharge', name: 'charge', data: { accountId, window, attempt: 1 }, existing: 'retry-failed' });
    await runCharge(ctx, { accountId, window, attempt: 1 });
    // Credited to the test credits: the live balance stays under the threshold, the window was charged.
    expect(await sweepHoldsAndRecharges(ctx)).to.deep.equal({ refunded: 0, dropped: 0, ensured: 0 });
    await clearAutoRecharge(ctx, accountId);
    expect(await sweepRecharges(ctx)).to.deep.equal({ ensured: 0 });
  });
});

describe('ledger check (in-memory context)', () => {
  it('happy: chains that sum to their balance pass; a gap, a wrong balance, a negative one and an account without entries are named', async () => {
    const ctx = fakeContext(NOW);
    ctx.accounts.accounts.push({ _id: 'good', name: 'g' }, { _id: 'bad', name: 'b' }, { _id: 'empty', name: 'e' });
    ctx.ledger.entries.push(
      { accountId: 'good', delta: 500, seq: 1, balance: 500 },
      { accountId: 'good', delta: -2, seq: 2, balance: 498 },
      { accountId: 'good:test', delta: 20000, seq: 1, balance: 20000 },
      { accountId: 'bad', delta: 500, seq: 1, balance: 500 },
      { accountId: 'bad', delta: -600, seq: 3, balance: -100 },
    );
    ctx.ledger.pendingCharges = 4;
    const r = await checkLedger(ctx);
    expect(r).to.deep.include({ accounts: 3, entries: 5, balances: { good: 498, bad: -100 }, testBalances: { good: 20000 }, chargesPending: 4 });
    expect(r.problems.map((p) => p.accountId)).to.deep.equal(['bad', 'bad', 'empty']);
    expect(r.problems[0].problem).to.match(/2 entries but the chain ends at position 3/);
    expect(r.problems[1].problem).to.match(/went negative/);
  });
});

describe('sign-up, login and sessions (in-memory context)', () => {
  beforeEach(renewProcessScope);
  const PASSWORD = 'correct horse battery staple';

  it('happy: sign-up makes the account and its sign-in; login answers the account, and the address becomes known', async () => {
    const ctx = fakeContext(NOW);
    const { accountId } = await signUp(ctx, { email: 'Dev@Example.com', password: PASSWORD });
    expect(await refusal(signUp(ctx, { email: 'dev@example.com', password: PASSWORD }))).to.include({ kind: 'email-taken' });
    expect(await logIn(ctx, { email: 'DEV@example.com', password: PASSWORD }, '10.0.0.1')).to.deep.equal({ accountId });
    expect(await ctx.throttle.isKnownAddress('dev@example.com', '10.0.0.1')).to.equal(true);
    const view = await accountView(ctx, accountId);
    expect(view).to.deep.include({ id: accountId, email: 'dev@example.com', balance: FREE_CREDITS, testBalance: 0, paymentMethod: null });
    expect(await balanceOf(ctx, accountId)).to.equal(FREE_CREDITS);
  });

  it('security: a wrong password and an unknown e-mail get the same answer; past the limit an unknown address is throttled, a known one is not', async () => {
    const ctx = fakeContext(NOW);
    await signUp(ctx, { email: 'dev@example.com', password: PASSWORD });
    await logIn(ctx, { email: 'dev@example.com', password: PASSWORD }, '10.0.0.1');
    const wrong = await refusal(logIn(ctx, { email: 'dev@example.com', password: 'wrong password here' }, '10.0.0.9'));
    const unknown = await refusal(logIn(ctx, { email: 'nobody@example.com', password: PASSWORD }, '10.0.0.9'));
    expect([wrong, unknown].map((e) => e instanceof AccountError && [e.kind, e.message])).to.deep.equal([
      ['login-failed', 'Invalid e-mail or password'],
      ['login-failed', 'Invalid e-mail or password'],
    ]);
    for (let i = 1; i < MAX_FAILURES_PER_EMAIL; i++) await refusal(logIn(ctx, { email: 'dev@example.com', password: 'wrong password here' }, '10.0.0.9'));
    expect(await refusal(logIn(ctx, { email: 'dev@example.com', password: PASSWORD }, '10.0.0.9'))).to.include({ kind: 'throttled' });
    expect(await logIn(ctx, { email: 'dev@example.com', password: PASSWORD }, '10.0.0.1')).to.have.property('accountId');
  });

  it("happy: an owner's keys: made up to the limit, listed without secrets, revoked; another account's key is not found", async () => {
    const ctx = fakeContext(NOW);
    const { accountId } = await signUp(ctx, { email: 'dev@example.com', password: PASSWORD });
    const { accountId: other } = await signUp(ctx, { email: 'other@example.com', password: PASSWORD });
    const k = await newKey(ctx, accountId, { name: 'ci', mode: 'live' });
    const theirs = await newKey(ctx, other, { name: 'theirs', mode: 'live' });
    expect(await keysOf(ctx, accountId)).to.deep.equal([{ id: k.id, name: 'ci', mode: 'live', prefix: k.prefix, createdAt: NOW, lastUsedAt: null }]);
    expect(await refusal(revokeOwnKey(ctx, accountId, theirs.id))).to.include({ kind: 'not-found' });
    expect(await revokeOwnKey(ctx, accountId, k.id)).to.deep.equal({ id: k.id, revokedAt: NOW });
    expect(await keysOf(ctx, accountId)).to.deep.equal([]);
    expect((await usageOf(ctx, accountId, 7)).days).to.equal(7);
    expect(await refusal(usageOf(ctx, accountId, 0))).to.include({ argument: 'days' });
  });

  it('happy: a session resolves until it ends or expires', async () => {
    const ctx = fakeContext(NOW);
    const s = await startSession(ctx, 'acc-1');
    expect(await resolveSession(ctx, s.sessionId)).to.deep.equal({ accountId: 'acc-1', csrfToken: s.csrfToken, expiresAt: new Date(NOW.getTime() + SESSION_TTL_S * 1000) });
    expect(await resolveSession(ctx, 'forged')).to.equal(undefined);
    ctx.setNow(new Date(NOW.getTime() + SESSION_TTL_S * 1000 + 1));
    expect(await resolveSession(ctx, s.sessionId)).to.equal(undefined);
    ctx.setNow(NOW);
    await endSession(ctx, s.sessionId);
    expect(await resolveSession(ctx, s.sessionId)).to.equal(undefined);
  });
});
