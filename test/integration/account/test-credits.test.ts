import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { FREE_CREDITS } from '../../../shared/domain/billing/packages';
import { setEnvForChildren } from '../../../shared/platform/config';
import { findLedgerEntriesOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { ledgerConsumerForThisSuite } from '../../helpers/ledgerConsumer';
import type { TestServer } from '../../helpers/api';
import { Browser, forgetLocalFailures, startAccountApi } from './client';

/**
 * Test money is test money (docs/metering.md, "Test credits"): credits bought through the built-in
 * test gateway (PAYMENT_GATEWAY=test, the default outside production) are test credits, a balance
 * of their own that only test keys see; a live key spends and sees only the live balance.
 */
describe('account API: test credits are apart from live credits', function () {
  this.timeout(120000);
  const ledger = ledgerConsumerForThisSuite();
  let api: TestServer;

  before(async () => {
    // Spending the 500 live credits one request at a time: the per-key rate is not what this is about.
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '100000', PAYMENT_GATEWAY: 'test' });
    api = await startAccountApi();
  });
  after(async () => {
    await forgetLocalFailures();
    await api.close();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '20' });
  });

  it('happy: a test-gateway purchase is test credits: a live key sees and spends only the live balance (402 once spent), a test key sees the test balance, GET /v2/account shows both', async () => {
    const b = new Browser(api.url);
    expect((await b.signup()).status).to.equal(201);
    const accountId = (await b.send('GET', '/v2/account')).body.account.id as string;
    expect((await b.send('POST', '/v2/account/payment-method', { testCard: 'pm_card_visa' })).status).to.equal(201);

    // Each new Idempotency-Key is a new purchase: two of them, 4,000,000 test credits.
    for (const n of [1, 2]) {
      const bought = await b.send('POST', '/v2/account/purchases', { package: 2000000 }, { 'Idempotency-Key': `test-money-${n}` });
      expect(bought.status).to.equal(201);
      expect(bought.body).to.include({ package: 2000000, mode: 'test', replayed: false, balance: FREE_CREDITS, testBalance: n * 2000000 });
      expect(bought.headers.get('idempotent-replayed'), 'a first purchase is not a replay').to.equal(null);
    }
    const replay = await b.send('POST', '/v2/account/purchases', { package: 2000000 }, { 'Idempotency-Key': 'test-money-2' });
    expect(replay.body).to.include({ mode: 'test', replayed: true, balance: FREE_CREDITS, testBalance: 4000000 });
    expect(replay.headers.get('idempotent-replayed'), 'the replay says so in its headers').to.equal('true');

    const account = (await b.send('GET', '/v2/account')).body.account;
    expect(account).to.include({ balance: FREE_CREDITS, testBalance: 4000000 });

    const live = (await b.newKey('live bot', 'live')).key;
    const test = (await b.newKey('test bot', 'test')).key;
    const get = (key: string) => api.get('/v2/teams', { Authorization: `Bearer ${key}` });

    const fromTest = await get(test);
    expect(fromTest.status).to.equal(200);
    expect(fromTest.headers.get('x-key-mode')).to.equal('test');
    expect(fromTest.headers.get('x-credits-consumed')).to.equal('0');
    expect(fromTest.headers.get('x-credits-remaining')).to.equal('4000000');

    const first = await get(live);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-credits-remaining')).to.equal(String(FREE_CREDITS - 1));
    // The rest of the live balance, 50 at a time.
    for (let spent = 1; spent < FREE_CREDITS; spent += 50) {
      const answers = await Promise.all(Array.from({ length: Math.min(50, FREE_CREDITS - spent) }, () => get(live)));
      expect(answers.map((r) => r.status).every((s) => s === 200)).to.equal(true);
    }
    const refused = await get(live);
    expect(refused.status).to.equal(402);
    expect((refused.body as { code: string }).code).to.be.oneOf(['payment_required', 'insufficient_credits']);
    expect(refused.headers.get('x-credits-remaining')).to.equal('0');

    // The test key is still served, showing the untouched test balance.
    const stillTest = await get(test);
    expect(stillTest.status).to.equal(200);
    expect(stillTest.headers.get('x-credits-remaining')).to.equal('4000000');
    expect((await b.send('GET', '/v2/account')).body.account).to.include({ balance: 0, testBalance: 4000000 });

    // The ledger records the test purchases apart, and both balances check exactly.
    await ledger.written();
    const liveEntries = await findLedgerEntriesOfAccount(accountId);
    expect(liveEntries.filter((e) => e.kind === 'purchase')).to.deep.equal([]);
    expect(liveEntries.at(-1)?.balance).to.equal(0);
    const check = await checkLedger(processContext());
    expect(check.problems).to.deep.equal([]);
    expect(check.balances[accountId]).to.equal(0);
    expect(check.testBalances[accountId]).to.equal(4000000);
  });
});
