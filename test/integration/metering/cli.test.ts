import { expect } from 'chai';
import { hashKey } from '../../../shared/domain/billing/keys';
import { slotOf } from '../../../shared/platform/billing/ledger';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findApiKeyByHash } from '../../../shared/platform/db/repositories/accounts';
import { deleteLedgerEntryByRef, insertForgedLedgerEntry } from '../../../shared/platform/db/repositories/fixtures';
import { cli, cliWith } from '../../helpers/cli';

describe('operator CLI', function () {
  this.timeout(90000);
  before(connectMongo);

  // One account through the life an operator gives it, a step per test: each spawn is a whole
  // process (about 1.4 s on an idle 2-core host, several times that beside a parallel suite).
  describe('happy: an account from creation to a revoked key (human and --json)', () => {
    let id: string;
    let testKey: { id: string; key: string };

    it('create-account gives the free credits', async () => {
      const acct = await cli('create-account', '--name', 'CLI Test', '--json');
      expect(acct.code).to.equal(0);
      expect(acct.json).to.include({ name: 'CLI Test', balance: 500 });
      id = acct.json.id;
    });

    it('create-key shows the key once, stores it hashed; list-keys never shows it', async () => {
      const key = await cli('create-key', '--account', id, '--name', 'bot', '--mode', 'test', '--json');
      expect(key.code).to.equal(0);
      expect(key.json.key).to.match(/^sk_test_[0-9A-Za-z]{32}$/);
      expect(await findApiKeyByHash(hashKey(key.json.key))).to.not.equal(null);
      testKey = key.json;
      const human = await cli('create-key', '--account', id, '--name', 'live bot');
      expect(human.code).to.equal(0);
      expect(human.out)
        .to.match(/sk_live_[0-9A-Za-z]{32}/)
        .and.match(/only time the key is shown/);
      const list = await cli('list-keys', '--account', id, '--json');
      expect(list.json.map((k: { name: string }) => k.name).sort()).to.deep.equal(['bot', 'live bot']);
      expect(list.out).to.not.include(key.json.key);
    });

    it('add-credits, set-auto-recharge and balance agree (human and --json)', async () => {
      const add = await cli('add-credits', '--account', id, '--package', '100000', '--json');
      expect(add.json).to.include({ credits: 100000, balance: 100500, priceCents: 4500 });
      const auto = await cli('set-auto-recharge', '--account', id, '--threshold', '1000', '--package', '20000', '--payment-method', 'pm_card_visa', '--customer', 'cus_cliTest01', '--json');
      expect(auto.code).to.equal(0);
      const bal = await cli('balance', '--account', id, '--json');
      expect(bal.json).to.deep.include({ balance: 100500 });
      expect(bal.json.autoRecharge).to.include({ enabled: true, threshold: 1000, packageCredits: 20000, paymentMethod: 'pm_card_visa', customer: 'cus_cliTest01' });
      const humanBal = await cli('balance', '--account', id);
      expect(humanBal.out)
        .to.match(/balance 100500 credits/)
        .and.match(/auto-recharge: on, below 1000 buy 20000 with pm_card_visa/);
      expect((await cli('clear-auto-recharge', '--account', id, '--json')).json).to.include({ enabled: false });
    });

    it('revoke-key revokes once and says so the second time', async () => {
      const revoked = await cli('revoke-key', '--key', testKey.id, '--json');
      expect(revoked.json).to.include({ id: testKey.id, alreadyRevoked: false });
      expect((await cli('revoke-key', '--key', testKey.id, '--json')).json).to.include({ alreadyRevoked: true });
    });
  });

  it('happy: demo-key prints a working key and is idempotent', async () => {
    const a = await cli('demo-key', '--json');
    const b = await cli('demo-key', '--json');
    expect(a.code).to.equal(0);
    expect(a.json.key).to.match(/^sk_live_/);
    expect(b.json).to.include({ key: a.json.key, created: false, accountId: 'acct_demo' });
    const doc = await findApiKeyByHash(hashKey(a.json.key));
    expect(doc).to.include({ accountId: 'acct_demo', revokedAt: null });
  });

  it('happy: demo-key prints the key alone on stdout (KEY=$(npm run -s cli -- demo-key)), its hint and any log on stderr', async () => {
    const r = await cliWith({ LOG_LEVEL: 'info' }, 'demo-key');
    expect(r.code).to.equal(0);
    expect(r.out).to.match(/^sk_live_[A-Za-z0-9]+\n$/);
    expect(r.err).to.include('Authorization: Bearer');
  });

  it("happy: demo-key's curl line names the port the API listens on, or PUBLIC_URL", async () => {
    expect((await cliWith({ PORT: '3456' }, 'demo-key')).err).to.include('http://localhost:3456/v2/matches');
    expect((await cliWith({ PUBLIC_URL: 'https://odds.example.com/' }, 'demo-key')).err).to.include('https://odds.example.com/v2/matches');
  });

  describe('error', () => {
    const cases: [string[], RegExp][] = [
      [['create-account'], /--name is required/],
      [['create-key', '--account', 'acct_x'], /--name is required/],
      [['create-key', '--account', 'acct_nope', '--name', 'x'], /--account: no account "acct_nope"/],
      [['add-credits', '--account', 'acct_x', '--package', 'lots'], /--package must be a whole number/],
      [['balance', '--account', 'acct_x', '--bogus', '1'], /unknown option '--bogus'/i],
      [['set-auto-recharge', '--account', 'acct_x', '--threshold', '10', '--package', '20000'], /--account: no account "acct_x"/],
      [['set-auto-recharge', '--account', 'acct_x', '--threshold', '10'], /--package is required/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      it(`${args.join(' ')} exits non-zero naming the argument`, async () => {
        const r = await cli(...args);
        expect(r.code).to.not.equal(0);
        expect(r.err).to.match(message);
      });
    }

    describe('bad values of a real account name the argument', () => {
      let id = '';
      before(async () => {
        id = (await cli('create-account', '--name', 'Bad args', '--json')).json.id;
      });
      const cases: [(id: string) => string[], RegExp][] = [
        [(id) => ['add-credits', '--account', id, '--package', '12345'], /--package: must be one of 20000, 100000, 500000, 2000000/],
        [(id) => ['create-key', '--account', id, '--name', 'k', '--mode', 'prod'], /--mode: must be live or test/],
        [(id) => ['set-auto-recharge', '--account', id, '--threshold', '10', '--package', '20000', '--payment-method', '4242424242424242'], /--payment-method: must be a gateway payment method id/],
        [(id) => ['set-auto-recharge', '--account', id, '--threshold', '0', '--package', '20000', '--payment-method', 'pm_card_visa'], /--threshold: must be an integer from 1/],
        [
          (id) => ['set-auto-recharge', '--account', id, '--threshold', '20000', '--package', '20000', '--payment-method', 'pm_card_visa'],
          /--threshold: must be an integer from 1 to 19999: below the package's 20000 credits/,
        ],
        [
          (id) => ['set-auto-recharge', '--account', id, '--threshold', '10', '--package', '20000', '--payment-method', 'pm_card_visa', '--customer', 'acct_42'],
          /--customer: must be a gateway customer id \(cus_\.\.\.\)/,
        ],
        [(id) => ['set-auto-recharge', '--account', id, '--threshold', '10', '--package', '20000', '--payment-method', 'pm_card_visa', '--customer', ''], /--customer: must be a gateway customer id/],
      ];
      for (const [argsOf, message] of cases) {
        it(`${argsOf('<id>').join(' ')} exits 2 naming the argument`, async () => {
          const r = await cli(...argsOf(id));
          expect(r.code).to.equal(2);
          expect(r.err).to.match(message);
        });
      }
    });

    it('set-auto-recharge without --customer exits 2 naming it when PAYMENT_GATEWAY=stripe, and is optional with the test gateway', async () => {
      const id = (await cli('create-account', '--name', 'Stripe customer', '--json')).json.id;
      const settings = ['set-auto-recharge', '--account', id, '--threshold', '10', '--package', '20000', '--payment-method', 'pm_card_visa'];
      const stripeEnv = { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_cliNeverCalled', STRIPE_API_URL: 'http://127.0.0.1:9' };
      const missing = await cliWith(stripeEnv, ...settings);
      expect(missing.code).to.equal(2);
      expect(missing.err).to.match(/--customer: is required with PAYMENT_GATEWAY=stripe: the customer the payment method is attached to \(cus_\.\.\.\)/);
      expect(missing.err).to.not.include('sk_test_cliNeverCalled');
      expect((await cli('balance', '--account', id, '--json')).json.autoRecharge).to.include({ enabled: false, customer: null });

      const saved = await cliWith(stripeEnv, ...settings, '--customer', 'cus_cliStripe01');
      expect(saved.code).to.equal(0);
      expect(saved.out).to.match(/buy 20000 with pm_card_visa of cus_cliStripe01/);
      expect((await cli('balance', '--account', id, '--json')).json.autoRecharge).to.include({ enabled: true, customer: 'cus_cliStripe01' });

      const testGateway = await cli(...settings, '--json');
      expect(testGateway.code).to.equal(0);
      expect(testGateway.json).to.include({ paymentMethod: 'pm_card_visa', customer: null });
    });

    it('check-ledger exits 0 on a sound ledger and 1 naming the account when entries do not sum to the balance', async () => {
      const id = (await cli('create-account', '--name', 'Ledger check', '--json')).json.id;
      const ok = await cli('check-ledger', '--json');
      expect(ok.code).to.equal(0);
      expect(ok.json.problems).to.deep.equal([]);
      // A forged entry whose running balance does not follow from the chain.
      await insertForgedLedgerEntry({
        accountId: id,
        kind: 'adjustment',
        delta: -10,
        ref: `forged:${id}`,
        at: new Date(),
        seq: 2,
        slot: slotOf(id, 2),
        balance: 999,
        topUpSeq: 1,
        endpoint: null,
        keyId: null,
      });
      try {
        for (const spelling of ['check-ledger', 'ledger-check']) {
          const bad = await cli(spelling);
          expect(bad.code, spelling).to.equal(1);
          expect(bad.out, spelling).to.match(new RegExp(`${id}: entries sum to 490 but the balance is 999`));
        }
      } finally {
        await deleteLedgerEntryByRef(`forged:${id}`);
      }
    });
  });
});
