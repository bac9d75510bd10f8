import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { createApp } from '../../../api/app';
import { revokeKey } from '../../../shared/app/billing/accounts';
import { COST_TABLE } from '../../../shared/domain/billing/costs';
import { applyCredit, balanceOf, testBalanceOf } from '../../../shared/platform/billing/credits';
import { ledgerOf } from '../../../shared/domain/billing/creditModes';
import { setEnvForChildren } from '../../../shared/platform/config';
import { findLedgerEntriesOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { serve } from '../../helpers/api';
import { accountWithKey, bearer, concrete, meteredApiForThisSuite } from '../../helpers/meteredApp';

const METERED = COST_TABLE.filter((r) => !r.public);
const PUBLIC = COST_TABLE.filter((r) => r.public);

describe('metering: charges, headers and keys', function () {
  this.timeout(60000);
  const api = meteredApiForThisSuite('100000');

  describe('happy', () => {
    it('every metered endpoint of the cost table charges its cost and says so in its headers', async () => {
      const { accountId, key } = await accountWithKey(10000);
      let expected = 10000;
      for (const row of METERED) {
        const res = await api.get(concrete(row.path), bearer(key));
        expected -= row.credits;
        expect(res.status, row.path).to.equal(200);
        expect(res.headers.get('x-credits-consumed'), row.path).to.equal(String(row.credits));
        expect(res.headers.get('x-credits-remaining'), row.path).to.equal(String(expected));
      }
      await api.written();
      expect(await balanceOf(accountId)).to.equal(expected);
      const debits = await findLedgerEntriesOfAccount(accountId, ['debit']);
      expect(debits.map((d) => d.endpoint).sort()).to.deep.equal(METERED.map((r) => `GET ${r.path}`).sort());
    });

    it('every metered endpoint of the real app charges its cost when it serves (a 404 is given back)', async () => {
      const real = await serve(createApp());
      try {
        const { accountId, key } = await accountWithKey(10000);
        const served: string[] = [];
        // A stream never ends on its own: its per-minute metering is tested in test/integration/stream.
        for (const row of METERED.filter((r) => !('per' in r))) {
          // An endpoint with a required parameter gets a valid one (odds at a past instant: at).
          const path =
            row.path.replace('{eventId}', '990000001').replace('{betItemId}', '990000001-SOCCER_MATCH_RESULT-1') + (row.path === '/v2/matches/{eventId}/odds' ? '?at=2026-01-01T00:00:00Z' : '');
          const res = await real.get(path, bearer(key));
          expect(res.status, path).to.be.oneOf([200, 404]);
          expect(res.headers.get('x-credits-consumed'), path).to.equal(res.status === 200 ? String(row.credits) : '0');
          if (res.status === 200) served.push(`GET ${row.path} ${-row.credits}`);
        }
        expect(served.length).to.be.greaterThan(5);
        await api.written();
        const debits = await findLedgerEntriesOfAccount(accountId, ['debit']);
        expect(debits.map((d) => `${d.endpoint} ${d.delta}`).sort()).to.deep.equal(served.sort());
      } finally {
        await real.close();
      }
    });

    it('the documented costs: trending 2, value-opportunities 5, featured picks 10, matches 1', async () => {
      const { key } = await accountWithKey(1000);
      for (const [path, cost] of [
        ['/v2/matches/trending', 2],
        ['/v2/ai/value-opportunities', 5],
        ['/v2/ai/featured-picks', 10],
        ['/v2/matches', 1],
        ['/v2/matches/123/live-odds', 2],
      ] as const) {
        expect((await api.get(path, bearer(key))).headers.get('x-credits-consumed'), path).to.equal(String(cost));
      }
    });

    it('free endpoints need no key and carry no credit headers', async () => {
      const real = await serve(createApp());
      try {
        for (const path of ['/v2/health', '/v2/costs']) {
          const res = await real.get(path);
          expect(res.status, path).to.equal(200);
          expect(res.headers.get('x-credits-consumed')).to.equal(null);
        }
      } finally {
        await real.close();
      }
      for (const row of PUBLIC) expect((await api.get(row.path)).status, row.path).to.not.equal(401);
    });

    it('GET /v2/costs serves the cost table', async () => {
      const real = await serve(createApp());
      try {
        const res = await real.get('/v2/costs');
        expect(res.body.data).to.have.length(COST_TABLE.length);
        expect(res.body.data.find((r: { path: string }) => r.path === '/v2/ai/value-opportunities')).to.include({ credits: 5, keyRequired: true });
        expect(res.body.data.find((r: { path: string }) => r.path === '/v2/competitions')).to.include({ credits: 0, keyRequired: false });
      } finally {
        await real.close();
      }
    });

    it("test keys are served but never consume credits; their X-Credits-Remaining is the account's test credits, never the live balance", async () => {
      const { accountId, key } = await accountWithKey(500, 'test');
      const first = await api.get('/v2/ai/featured-picks', bearer(key));
      expect(first.status).to.equal(200);
      expect(first.headers.get('x-credits-consumed')).to.equal('0');
      expect(first.headers.get('x-credits-remaining')).to.equal('0'); // no test credits bought yet
      // Test credits, as a purchase through the test gateway credits them (a ledger apart).
      await applyCredit(ledgerOf(accountId, 'test'), { ref: `purchase:${accountId}:charges-test`, kind: 'purchase', delta: 20000 });
      const res = await api.get('/v2/ai/featured-picks', bearer(key));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-credits-consumed')).to.equal('0');
      expect(res.headers.get('x-credits-remaining')).to.equal('20000');
      await api.written();
      expect(await balanceOf(accountId)).to.equal(500);
      expect(await testBalanceOf(accountId)).to.equal(20000);
      expect(await findLedgerEntriesOfAccount(accountId, ['debit'])).to.have.length(0);
    });

    it('a HEAD request is charged like its GET', async () => {
      const { key } = await accountWithKey(100);
      const res = await fetch(`${api.url}/v2/matches`, { method: 'HEAD', headers: bearer(key) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-credits-consumed')).to.equal('1');
      expect(res.headers.get('x-credits-remaining')).to.equal('99');
    });
  });

  describe('error', () => {
    it('4xx and 5xx answers cost nothing, and their headers say so', async () => {
      const { accountId, key } = await accountWithKey(100);
      for (const status of [400, 404, 500, 503]) {
        const res = await api.get(`/v2/ai/featured-picks?fail=${status}`, bearer(key));
        expect(res.status).to.equal(status);
        expect(res.headers.get('x-credits-consumed')).to.equal('0');
        expect(res.headers.get('x-credits-remaining')).to.equal('100');
      }
      // An unknown event on the real app: the detail route's 404.
      const real = await serve(createApp());
      try {
        const res = await real.get('/v2/matches/990000404', bearer(key));
        expect(res.status).to.equal(404);
        expect(res.headers.get('x-credits-consumed')).to.equal('0');
      } finally {
        await real.close();
      }
      await api.written();
      expect(await balanceOf(accountId)).to.equal(100);
      // Given back in Redis: the ledger never sees them.
      expect(await findLedgerEntriesOfAccount(accountId, ['debit', 'refund'])).to.have.length(0);
    });

    it('balance 0 answers 402, a balance under the cost 403, both with creditsRequired and creditsRemaining', async () => {
      const empty = await accountWithKey(0);
      const r402 = await api.get('/v2/matches', bearer(empty.key));
      expect(r402.status).to.equal(402);
      expect(r402.body).to.deep.equal({
        statusCode: 402,
        message: 'Payment required. Your credit balance is 0 and this endpoint costs 1 credits.',
        error: 'Payment Required',
        code: 'payment_required',
        requestId: r402.headers.get('x-request-id'),
        creditsRequired: 1,
        creditsRemaining: 0,
      });
      const low = await accountWithKey(4);
      const r403 = await api.get('/v2/ai/value-opportunities', bearer(low.key));
      expect(r403.status).to.equal(403);
      expect(r403.body).to.deep.equal({
        statusCode: 403,
        message: 'Insufficient credits. This endpoint costs 5 credits.',
        error: 'Forbidden',
        code: 'insufficient_credits',
        requestId: r403.headers.get('x-request-id'),
        creditsRequired: 5,
        creditsRemaining: 4,
      });
      expect(r403.headers.get('x-credits-consumed')).to.equal('0');
      expect(r403.headers.get('x-credits-remaining')).to.equal('4');
      // The cheaper endpoint still works with what is left.
      expect((await api.get('/v2/matches', bearer(low.key))).status).to.equal(200);
    });

    it('a rate-limited request answers 429 with Retry-After and is never charged; test keys have the tighter limit', async () => {
      setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '5', RATE_LIMIT_TEST_RPS: '1' });
      try {
        const live = await accountWithKey(1000);
        const test = await accountWithKey(1000, 'test');
        const liveHits = await Promise.all(Array.from({ length: 30 }, () => api.get('/v2/matches', bearer(live.key))));
        const testHits = await Promise.all(Array.from({ length: 30 }, () => api.get('/v2/matches', bearer(test.key))));
        const liveOk = liveHits.filter((h) => h.status === 200).length;
        const testOk = testHits.filter((h) => h.status === 200).length;
        expect(liveOk).to.be.within(10, 12); // a burst of 2 * 5, plus what refilled meanwhile
        expect(testOk).to.be.within(2, 3);
        const limited = liveHits.find((h) => h.status === 429)!;
        expect(limited.body).to.include({ statusCode: 429, error: 'Too Many Requests' });
        expect(Number(limited.headers.get('retry-after'))).to.be.at.least(1);
        expect(limited.headers.get('x-credits-consumed')).to.equal('0');
        await api.written();
        expect(await balanceOf(live.accountId)).to.equal(1000 - liveOk);
      } finally {
        setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '100000', RATE_LIMIT_TEST_RPS: '2' });
      }
    });
  });

  describe('security', () => {
    it('missing, unknown, malformed and revoked keys get the identical 401 body', async () => {
      const { key, keyId } = await accountWithKey(100);
      await revokeKey(processContext(), keyId);
      const bodies = await Promise.all(
        (
          [
            {},
            { Authorization: `Bearer sk_live_${'A'.repeat(32)}` },
            { Authorization: 'Bearer sk_live_short' },
            { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
            { Authorization: `Bearer ${key}` },
          ] as Record<string, string>[]
        ).map(async (h) => {
          const res = await api.get('/v2/matches', h);
          expect(res.status).to.equal(401);
          // The same answer whatever the key (nothing to learn from it); each carries its own request id.
          expect(res.body.requestId).to.equal(res.headers.get('x-request-id'));
          return JSON.stringify({ ...res.body, requestId: undefined });
        }),
      );
      expect(new Set(bodies).size).to.equal(1);
      expect(JSON.parse(bodies[0])).to.deep.equal({ statusCode: 401, message: 'Invalid API key', error: 'Unauthorized', code: 'invalid_api_key' });
    });

    it('a revoked key stops working at once, even while cached', async () => {
      const { key, keyId } = await accountWithKey(100);
      expect((await api.get('/v2/matches', bearer(key))).status).to.equal(200); // now cached in Redis
      await revokeKey(processContext(), keyId);
      expect((await api.get('/v2/matches', bearer(key))).status).to.equal(401);
    });

    it('no spelling of a metered path is served without being charged', async () => {
      const { key } = await accountWithKey(1000);
      const variants = ['/v2/MATCHES', '/V2/matches', '/v2/matches/', '/v2/Matches/Trending', '/v2/matches/x%2Fy', '/v2/ai/featured-picks/', '/v2//matches', '/v2/matches//'];
      for (const path of variants) {
        const res = await api.get(path, bearer(key));
        if (res.status === 200) expect(Number(res.headers.get('x-credits-consumed')), path).to.be.greaterThan(0);
        const anon = await api.get(path);
        expect(anon.status, `${path} without a key`).to.be.oneOf([401, 404]);
      }
    });
  });
});
