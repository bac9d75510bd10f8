import type { Worker } from 'bullmq';
import { expect } from 'chai';
import { queueFor } from '../../../shared/platform/queues/client';
import { RECHARGE_RETRY_DELAY_MS, rechargeQueue } from '../../../jobs/recharge';
import { setAutoRecharge } from '../../../shared/app/billing/accounts';
import { setEnvForChildren } from '../../../shared/platform/config';
import { TEST_GATEWAY_LOG } from '../../../shared/platform/billing/gateway/testGateway';
import { balanceOf, testBalanceOf } from '../../../shared/platform/billing/credits';
import { ledgerOf, type CreditMode } from '../../../shared/domain/billing/creditModes';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { runCharge, sweepRecharges } from '../../../shared/app/billing/recharge';
import { redis } from '../../../shared/platform/db/redis';
import { findAccountById, findRechargeAttemptsOfAccount } from '../../../shared/platform/db/repositories/accounts';
import { findLedgerEntriesOfAccount, findRechargeAttemptOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { processContext } from '../../../shared/app/processContext';
import { rechargeHandlers } from '../../../workers/handlers/recharge';
import { createQueueWorker } from '../../../workers/registry';
import { type TestServer } from '../../helpers/api';
import { FAKE_STRIPE_CUSTOMER, startFakeStripe, type FakeStripe } from '../../helpers/fakeStripe';
import { accountWithKey, bearer, meteredApiForThisSuite } from '../../helpers/meteredApp';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';

async function gatewayCharges(accountId: string): Promise<{ status: string; idempotencyKey: string }[]> {
  const all = (await redis().lrange(TEST_GATEWAY_LOG(), 0, -1)).map((s) => JSON.parse(s));
  return all.filter((c) => c.metadata.accountId === accountId);
}

/** The recharge credits of an account's live balance (a real gateway's), or of its test credits (the test gateway's). */
const rechargeEntries = (accountId: string, mode: CreditMode = 'live') => findLedgerEntriesOfAccount(ledgerOf(accountId, mode), ['recharge']);

async function spend(api: TestServer, key: string, n: number): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, async () => (await api.get('/v2/matches', bearer(key))).status));
}

describe('auto-recharge', function () {
  this.timeout(90000);
  const api = meteredApiForThisSuite('100000');

  describe('with the built-in test gateway and a recharge worker', () => {
    let worker: Worker;
    before(() => {
      worker = createQueueWorker(rechargeQueue, rechargeHandlers(processContext()), { concurrency: 2 });
      void worker.run();
    });
    after(() => worker.close());

    it('happy: 20 simultaneous low-balance triggers give one charge and one credit', async () => {
      const { accountId, key } = await accountWithKey(1020);
      await setAutoRecharge(processContext(), { accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa', operator: true });
      // 40 debits: the last 20 each leave the balance under 1000, and each triggers.
      const statuses = await spend(api, key, 40);
      expect(statuses.every((s) => s === 200)).to.equal(true);
      await api.written();
      // Charged through the test gateway: test credits, apart from the live balance.
      await waitUntil('the recharge to be credited', async () => (await rechargeEntries(accountId, 'test')).length > 0, 30000);
      await new Promise((r) => setTimeout(r, 1000)); // room for a wrong second charge to show up
      expect(await gatewayCharges(accountId)).to.have.length(1);
      expect(await rechargeEntries(accountId, 'test')).to.have.length(1);
      expect(await rechargeEntries(accountId)).to.have.length(0);
      expect((await findRechargeAttemptsOfAccount(accountId)).length).to.equal(1);
      expect(await balanceOf(accountId)).to.equal(1020 - 40);
      expect(await testBalanceOf(accountId)).to.equal(20000);
      const attempt = await findRechargeAttemptOfAccount(accountId);
      expect(attempt).to.include({ status: 'succeeded', credited: true, attempt: 1, amountCents: 1000 });
      expect((await checkLedger(processContext())).problems).to.deep.equal([]);
    });

    it('error: decline, retry after 1 hour, decline again: auto-recharge disabled, never a third charge', async () => {
      const { accountId, key } = await accountWithKey(1000);
      await setAutoRecharge(processContext(), { accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_chargeDeclined', operator: true });
      await spend(api, key, 5);
      await waitUntil('attempt 1 to be declined', async () => (await findRechargeAttemptOfAccount(accountId, 1))?.status === 'declined', 30000);
      const first = (await findRechargeAttemptOfAccount(accountId, 1))!;
      expect(first.error).to.match(/^generic_decline/);

      // Attempt 2 waits in the queue as a delayed job, an hour after the decline.
      const queue = queueFor(rechargeQueue);
      const retryId = `charge-${accountId}-${first.window}-a2`;
      await waitUntil('the retry to be scheduled', async () => (await queue.getJob(retryId)) !== undefined, 10000);
      const retry = (await queue.getJob(retryId))!;
      expect(await retry.getState()).to.equal('delayed');
      expect(retry.timestamp + retry.delay - +first.decidedAt!).to.be.within(RECHARGE_RETRY_DELAY_MS - 2000, RECHARGE_RETRY_DELAY_MS + 2000);
      // More low-balance debits during the hour charge nothing more.
      await spend(api, key, 5);
      await new Promise((r) => setTimeout(r, 500));
      expect(await gatewayCharges(accountId)).to.have.length(1);

      // The hour passes: the delayed job becomes due.
      await retry.promote();
      await waitUntil('auto-recharge to be disabled', async () => (await findAccountById(accountId))?.autoRecharge?.enabled === false, 30000);
      const account = (await findAccountById(accountId))!;
      expect(account.autoRecharge.disabledReason).to.match(/declined twice.*generic_decline/);
      expect(account.autoRecharge.disabledAt).to.be.instanceOf(Date);
      const charges = await gatewayCharges(accountId);
      expect(charges).to.have.length(2);
      expect(new Set(charges.map((c) => c.idempotencyKey)).size).to.equal(2); // a new idempotency key for the retry

      // Nothing brings a third charge: more debits, the sweep, a stray attempt-3 job.
      await spend(api, key, 5);
      expect(await sweepRecharges(processContext())).to.deep.equal({ ensured: 0 });
      expect(await runCharge(processContext(), { accountId, window: first.window, attempt: 3 })).to.include({ outcome: 'skipped' });
      await new Promise((r) => setTimeout(r, 500));
      expect(await gatewayCharges(accountId)).to.have.length(2);
      expect(await rechargeEntries(accountId)).to.have.length(0);
      expect(await rechargeEntries(accountId, 'test')).to.have.length(0);
    });

    it('happy: a card fixed during the hour makes the retry succeed', async () => {
      const { accountId, key } = await accountWithKey(1000);
      await setAutoRecharge(processContext(), { accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds', operator: true });
      await spend(api, key, 1);
      await waitUntil('attempt 1 to be declined', async () => (await findRechargeAttemptOfAccount(accountId, 1))?.status === 'declined', 30000);
      // New settings open a new window: the next trigger charges the new card at once.
      await setAutoRecharge(processContext(), { accountId, threshold: 1000, packageCredits: 100000, paymentMethod: 'pm_card_mastercard', operator: true });
      await new Promise((r) => setTimeout(r, 5100)); // the web process re-reads settings every 5 s
      await spend(api, key, 1);
      await waitUntil('the recharge to be credited', async () => (await rechargeEntries(accountId, 'test')).length > 0, 30000);
      expect(await balanceOf(accountId)).to.equal(1000 - 2);
      expect(await testBalanceOf(accountId)).to.equal(100000);
      expect((await gatewayCharges(accountId)).map((c) => c.status)).to.deep.equal(['declined', 'succeeded']);
    });
  });

  describe('with the Stripe adapter (local recorded-response server)', () => {
    let stripe: FakeStripe;
    const workers: Spawned[] = [];
    before(async () => (stripe = await startFakeStripe()));
    after(async () => {
      for (const w of workers) await sigkillTree(w);
      await stripe.close();
    });
    const stripeEnv = () => ({ PAYMENT_GATEWAY: 'stripe', STRIPE_API_URL: stripe.url, STRIPE_SECRET_KEY: stripe.secretKey });
    /** The operator saves the settings as a Stripe deployment does (the card recorded as Stripe's). */
    const setOnStripe = async (settings: Parameters<typeof setAutoRecharge>[1]) => {
      setEnvForChildren(stripeEnv());
      try {
        return await setAutoRecharge(processContext(), settings);
      } finally {
        setEnvForChildren({ PAYMENT_GATEWAY: 'test', STRIPE_API_URL: 'https://api.stripe.com', STRIPE_SECRET_KEY: '' });
      }
    };
    const spawnWorker = () => {
      const w = spawnEntry('workers/settlement.ts', { PAYMENT_GATEWAY: 'stripe', STRIPE_API_URL: stripe.url, STRIPE_SECRET_KEY: stripe.secretKey, LOG_LEVEL: 'warn' });
      workers.push(w);
      return w;
    };

    it('error: a worker killed between the charge and the credit neither charges nor credits twice', async () => {
      const { accountId, key } = await accountWithKey(1000);
      await setOnStripe({ accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa', customer: FAKE_STRIPE_CUSTOMER, operator: true });
      stripe.hold = true; // Stripe charges, the worker never hears back
      const first = spawnWorker();
      await spend(api, key, 1);
      await waitUntil('Stripe to make the charge', () => stripe.created.length === 1, 60000);
      await sigkillTree(first);
      const attempt = (await findRechargeAttemptOfAccount(accountId))!;
      expect(attempt.status).to.equal('charging');
      expect(await rechargeEntries(accountId)).to.have.length(0);

      // Another worker picks the stalled job up and replays the charge under the same key.
      stripe.hold = false;
      spawnWorker();
      await waitUntil('the recharge to be credited', async () => (await rechargeEntries(accountId)).length > 0, 60000, 250);
      expect(stripe.created).to.have.length(1);
      const calls = stripe.requests.filter((r) => r.idempotencyKey === attempt.idempotencyKey);
      expect(calls).to.have.length(2);
      expect(calls[1].body).to.deep.equal(calls[0].body);
      // The off-session charge of the saved card names the customer it is attached to.
      expect(calls[0].body).to.include({ payment_method: 'pm_card_visa', customer: FAKE_STRIPE_CUSTOMER, off_session: 'true', confirm: 'true' });
      // Running the job once more (a duplicate delivery) changes nothing.
      expect(await runCharge(processContext(), { accountId, window: attempt.window, attempt: 1 })).to.include({ outcome: 'credited' });
      expect(await rechargeEntries(accountId)).to.have.length(1);
      // Charged through Stripe: live credits.
      expect(await balanceOf(accountId)).to.equal(999 + 20000);
      expect(await testBalanceOf(accountId)).to.equal(0);
      expect(stripe.created).to.have.length(1);
      const done = (await findRechargeAttemptOfAccount(accountId))!;
      expect(done).to.include({ status: 'succeeded', credited: true });
      expect(done.gatewayChargeId).to.match(/^pi_/);
    });

    it('error: a Stripe decline (402 card_error) is recorded with its decline code; a 500 leaves the attempt to be retried', async () => {
      const { accountId, key } = await accountWithKey(1000);
      await setOnStripe({ accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds', customer: FAKE_STRIPE_CUSTOMER, operator: true });
      if (!workers.some((w) => w.child.exitCode === null)) spawnWorker();
      stripe.failNext = 1;
      await spend(api, key, 1);
      await waitUntil('attempt 1 to be declined', async () => (await findRechargeAttemptOfAccount(accountId, 1))?.status === 'declined', 60000, 250);
      const a = (await findRechargeAttemptOfAccount(accountId, 1))!;
      expect(a.error).to.match(/^insufficient_funds: Your card has insufficient funds/);
      expect(a.gatewayChargeId).to.match(/^pi_/);
      // The 500 was retried with the same key; Stripe created one PaymentIntent for the attempt.
      expect(stripe.requests.filter((r) => r.idempotencyKey === a.idempotencyKey).length).to.equal(2);
      expect(stripe.created.filter((c) => c.idempotencyKey === a.idempotencyKey)).to.have.length(1);
    });

    it('error: a card saved on the test gateway is never charged through Stripe: auto-recharge disabled with the reason', async () => {
      // Saved while this process runs the test gateway (no customer), charged by a Stripe worker.
      const { accountId, key } = await accountWithKey(1000);
      await setAutoRecharge(processContext(), { accountId, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa', operator: true });
      if (!workers.some((w) => w.child.exitCode === null)) spawnWorker();
      await spend(api, key, 1);
      await waitUntil('auto-recharge to be disabled', async () => (await findAccountById(accountId))?.autoRecharge?.enabled === false, 60000, 250);
      const account = (await findAccountById(accountId))!;
      expect(account.autoRecharge.disabledReason).to.match(/settings incomplete: no payment method saved on the account/);
      expect(account.autoRecharge.disabledAt).to.be.instanceOf(Date);
      expect(stripe.requests.filter((r) => r.body['metadata[accountId]'] === accountId)).to.have.length(0);
      expect((await findRechargeAttemptsOfAccount(accountId)).length).to.equal(0);
      expect(await balanceOf(accountId)).to.equal(999);
    });
  });
});
