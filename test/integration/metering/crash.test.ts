import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { balanceOf, heldRequestsOf } from '../../../shared/platform/billing/credits';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { sweepStaleHolds } from '../../../shared/app/billing/metering';
import { processContext } from '../../../shared/app/processContext';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { applyCredit } from '../../../shared/platform/billing/credits';
import { countMeterHoldsOfAccount, findLedgerEntriesOfAccount, insertLegacyMeterHold } from '../../../shared/platform/db/repositories/fixtures';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil } from '../../helpers/processes';

describe('metering: a web process that crashes or loses Redis', function () {
  this.timeout(90000);
  before(connectMongo);

  it('error: killed mid-request, its debited in-flight requests are refunded once by the sweep, never twice', async () => {
    const { accountId, key } = await accountWithKey(100);
    const web = spawnEntry('test/fixtures/meteredWeb.ts', { LOG_LEVEL: 'warn' });
    try {
      await waitUntil('the API process to listen', () => /listening (\S+)/.test(web.output()), 60000);
      const url = /listening (\S+)/.exec(web.output())![1];
      // Five slow requests: debited, then the process dies before answering.
      const inflight = Array.from({ length: 5 }, () =>
        fetch(`${url}/v2/ai/featured-picks?delay=30000`, { headers: bearer(key) }).then(
          async (r) => `${r.status} ${await r.text()}`,
          () => 'reset',
        ),
      );
      await waitUntil('the five debits', async () => (await heldRequestsOf(accountId)) === 5, 30000);
      await sigkillTree(web);
      expect(await Promise.all(inflight)).to.deep.equal(['reset', 'reset', 'reset', 'reset', 'reset']);
    } finally {
      await sigkillTree(web);
    }
    expect(await balanceOf(accountId)).to.equal(50);
    // Never settled, so never charged: the ledger has no debit to refund.
    expect(await findLedgerEntriesOfAccount(accountId, ['debit'])).to.have.length(0);

    // Too young: a live request may still be running.
    expect(await sweepStaleHolds(processContext())).to.deep.equal({ refunded: 0, dropped: 0 });
    // Once stale (here: any age), each is refunded once; a second sweep finds nothing.
    expect(await sweepStaleHolds(processContext(), 0)).to.deep.equal({ refunded: 5, dropped: 0 });
    expect(await sweepStaleHolds(processContext(), 0)).to.deep.equal({ refunded: 0, dropped: 0 });
    expect(await balanceOf(accountId)).to.equal(100);
    expect(await heldRequestsOf(accountId)).to.equal(0);
    expect(await findLedgerEntriesOfAccount(accountId, ['debit', 'refund'])).to.have.length(0);
    expect((await checkLedger(processContext())).problems).to.deep.equal([]);
  });

  it('error: holds an earlier version left in MongoDB (debit in the ledger, never settled) are refunded once', async () => {
    const { accountId, keyId } = await accountWithKey(100);
    await applyCredit(accountId, { ref: 'debit:legacy1', kind: 'debit', delta: -10, endpoint: 'GET /v2/ai/featured-picks', keyId });
    await insertLegacyMeterHold('hold_legacy1', accountId, [{ ref: 'debit:legacy1', cost: 10, keyId, endpoint: 'GET /v2/ai/featured-picks' }], new Date(Date.now() - 3600000));
    expect(await balanceOf(accountId)).to.equal(90);
    expect(await sweepStaleHolds(processContext())).to.deep.equal({ refunded: 1, dropped: 0 });
    expect(await sweepStaleHolds(processContext())).to.deep.equal({ refunded: 0, dropped: 0 });
    expect(await balanceOf(accountId)).to.equal(100);
    expect((await findLedgerEntriesOfAccount(accountId, ['refund'])).map((e) => e.ref)).to.deep.equal(['refund:legacy1']);
    expect(await countMeterHoldsOfAccount(accountId)).to.equal(0);
    expect((await checkLedger(processContext())).problems).to.deep.equal([]);
  });

  it('error: with Redis unreachable a metered request answers 503, charges nothing and leaks nothing', async () => {
    const { accountId, key } = await accountWithKey(100);
    // A port that accepts nothing: take a free one and close it.
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const deadPort = (srv.address() as AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const web = spawnEntry('test/fixtures/meteredWeb.ts', { LOG_LEVEL: 'warn', REDIS_URL: `redis://127.0.0.1:${deadPort}` });
    try {
      await waitUntil('the API process to listen', () => /listening (\S+)/.test(web.output()), 60000);
      const url = /listening (\S+)/.exec(web.output())![1];
      const res = await fetch(`${url}/v2/matches`, { headers: bearer(key) });
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({
        statusCode: 503,
        message: 'Service temporarily unavailable. Please retry.',
        error: 'Service Unavailable',
        code: 'service_unavailable',
        requestId: res.headers.get('x-request-id'),
      });
      expect(res.headers.get('retry-after')).to.equal('5');
    } finally {
      await sigkillTree(web);
    }
    expect(await balanceOf(accountId)).to.equal(100);
  });
});
