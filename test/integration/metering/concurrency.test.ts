import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { addCredits } from '../../../shared/app/billing/accounts';
import { balanceOf, heldRequestsOf } from '../../../shared/platform/billing/credits';
import { checkLedger } from '../../../shared/app/billing/ledgerCheck';
import { findLedgerEntriesOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { accountWithKey, bearer, meteredApiForThisSuite } from '../../helpers/meteredApp';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';

interface Hit {
  status: number;
  remaining: number;
  consumed: number;
}

async function hit(url: string, key: string): Promise<Hit> {
  const res = await fetch(`${url}/v2/matches`, { headers: bearer(key) });
  await res.arrayBuffer();
  return { status: res.status, remaining: Number(res.headers.get('x-credits-remaining')), consumed: Number(res.headers.get('x-credits-consumed')) };
}

async function ledgerOf(accountId: string) {
  const entries = await findLedgerEntriesOfAccount(accountId);
  return {
    debits: entries.filter((e) => e.kind === 'debit'),
    /** Requests the debits charge (like requests settled together are one debit carrying their count). */
    charged: entries.filter((e) => e.kind === 'debit').reduce((n, e) => n + (e.requests ?? 1), 0),
    refunds: entries.filter((e) => e.kind === 'refund'),
    usageSum: entries.filter((e) => e.kind === 'debit' || e.kind === 'refund').reduce((s, e) => s + e.delta, 0),
    minBalance: Math.min(...entries.map((e) => e.balance)),
  };
}

function expectExactlyFiveHundred(hits: Hit[]) {
  const ok = hits.filter((h) => h.status === 200);
  const refused = hits.filter((h) => h.status !== 200);
  expect(ok).to.have.length(500);
  expect(new Set(refused.map((h) => h.status))).to.deep.equal(new Set([402]));
  // Each success saw its own balance: the remaining counts are exactly 499 down to 0.
  expect(ok.map((h) => h.remaining).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 500 }, (_, i) => i));
  expect(ok.every((h) => h.consumed === 1)).to.equal(true);
  expect(refused.every((h) => h.consumed === 0 && h.remaining === 0)).to.equal(true);
}

describe('metering: exact under concurrency', function () {
  this.timeout(180000);
  const api = meteredApiForThisSuite('1000000');

  it('happy: 2,000 concurrent requests against a balance of 500 at cost 1 give exactly 500 successes, the rest 402', async () => {
    const { accountId, key } = await accountWithKey(500);
    const hits = await Promise.all(Array.from({ length: 2000 }, () => hit(api.url, key)));
    await api.written();
    expectExactlyFiveHundred(hits);
    expect(await balanceOf(accountId)).to.equal(0);
    const l = await ledgerOf(accountId);
    expect(l.charged).to.equal(500);
    expect(l.refunds).to.have.length(0);
    expect(l.usageSum).to.equal(-500);
    expect(l.minBalance).to.equal(0);
    expect(await heldRequestsOf(accountId)).to.equal(0);
    expect((await checkLedger(processContext())).problems).to.deep.equal([]);
  });

  it('happy: the same across two API processes', async () => {
    const { accountId, key } = await accountWithKey(500);
    const procs: Spawned[] = [0, 1].map(() => spawnEntry('test/fixtures/meteredWeb.ts', { RATE_LIMIT_LIVE_RPS: '1000000', LOG_LEVEL: 'warn' }));
    try {
      await waitUntil('both API processes to listen', () => procs.every((p) => /listening (\S+)/.test(p.output())), 60000);
      const urls = procs.map((p) => /listening (\S+)/.exec(p.output())![1]);
      const hits = await Promise.all(Array.from({ length: 2000 }, (_, i) => hit(urls[i % 2], key)));
      expectExactlyFiveHundred(hits);
      // Settlements are written just after the answers; then the processes can go.
      await waitUntil('every hold to be settled', async () => (await heldRequestsOf(accountId)) === 0, 30000);
    } finally {
      for (const p of procs) await sigkillTree(p);
    }
    await api.written();
    expect(await balanceOf(accountId)).to.equal(0);
    const l = await ledgerOf(accountId);
    expect(l.charged).to.equal(500);
    expect(l.usageSum).to.equal(-500);
    expect(l.minBalance).to.equal(0);
    expect(await heldRequestsOf(accountId)).to.equal(0);
    expect((await checkLedger(processContext())).problems).to.deep.equal([]);
  });

  it('happy: a top-up racing spends stays exact', async () => {
    const { accountId, key } = await accountWithKey(300);
    const spends = Array.from({ length: 1200 }, () => hit(api.url, key));
    const topUps = [addCredits(processContext(), { accountId, packageCredits: 20000 }), addCredits(processContext(), { accountId, packageCredits: 20000 })];
    const [hits] = await Promise.all([Promise.all(spends), Promise.all(topUps)]);
    await api.written();
    const ok = hits.filter((h) => h.status === 200).length;
    expect(ok).to.be.at.least(300);
    expect(hits.filter((h) => h.status !== 200).every((h) => h.status === 402)).to.equal(true);
    expect(await balanceOf(accountId)).to.equal(300 + 40000 - ok);
    const l = await ledgerOf(accountId);
    expect(l.charged - l.refunds.length).to.equal(ok);
    expect(l.minBalance).to.be.at.least(0);
    expect((await checkLedger(processContext())).problems).to.deep.equal([]);
  });
});
