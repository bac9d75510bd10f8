import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { hotStats } from '../../../api/cache/hotReads';
import { blockStats, closeBlocks } from '../../../api/hot/creditBlocks';
import { revokeKey } from '../../../shared/app/billing/accounts';
import { drainMetering } from '../../../shared/app/billing/metering';
import { processContext } from '../../../shared/app/processContext';
import { hashKey } from '../../../shared/domain/billing/keys';
import { spendBlocks, takeBlock } from '../../../shared/platform/billing/blocks';
import { balanceOf, chargesNotYetInLedger, heldRequestsOf, refundStaleHolds } from '../../../shared/platform/billing/credits';
import { bumpCacheVersion, cacheVersionKey } from '../../../shared/platform/cache/versions';
import { setEnvForChildren } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { redis } from '../../../shared/platform/db/redis';
import { heardVersions } from '../../../shared/platform/cache/versionFeed';
import { countChargedRequestsOfAccount } from '../../../shared/platform/db/repositories/fixtures';
import { serve, type TestServer } from '../../helpers/api';
import { clearReadData, insertEvents, seedReference } from '../../helpers/fixtures';
import { ledgerConsumerForThisSuite } from '../../helpers/ledgerConsumer';
import { accountWithKey, bearer } from '../../helpers/meteredApp';

const URL_ = '/v2/matches?limit=20';
/** Headers that differ between any two answers (ids, time, balances). */
const VOLATILE = new Set(['date', 'x-request-id', 'x-credits-remaining', 'x-ratelimit-remaining', 'keep-alive', 'connection']);
const stable = (h: Headers) => Object.fromEntries([...h].filter(([name]) => !VOLATILE.has(name)));

async function get(server: TestServer, key: string, path = URL_) {
  const res = await fetch(server.url + path, { headers: bearer(key) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Reads until the front door answers from a block (the first reads teach it the URL and ask for the block). */
async function untilFromBlock(server: TestServer, key: string): Promise<number> {
  for (let sent = 1; sent <= 50; sent++) {
    const before = hotStats.fromBlocks;
    await get(server, key);
    if (hotStats.fromBlocks > before) return sent;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the front door never answered from a block: ${JSON.stringify(blockStats)} ${heardVersions(['events'])}`);
}

describe('credit blocks: the front door answers from a block of the key’s requests, charged exactly', function () {
  this.timeout(60_000);
  const ledger = ledgerConsumerForThisSuite();
  let web: TestServer;
  let routed: TestServer;

  before(async () => {
    await connectMongo();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '100000', BLOCK_RESERVE_CREDITS: '1000' });
    await clearReadData();
    await seedReference();
    await insertEvents({ id: '4401', start: '2030-03-01T12:00:00Z' }, { id: '4402', start: '2030-03-02T15:00:00Z' });
    await bumpCacheVersion('events', 'competitions', 'ai');
    const ctx = processContext();
    web = await serve(createApp(ctx));
    routed = await serve(createApp({ ...ctx, config: { ...ctx.config, HOT_READS: false } }));
  });
  after(async () => {
    await web?.close();
    await routed?.close();
    await closeBlocks();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '20', BLOCK_RESERVE_CREDITS: '1000' });
  });

  it("happy: a block's answers carry the routed answer's headers and bytes; every request is charged once when the blocks close", async () => {
    const { accountId, key } = await accountWithKey(100_000);
    await get(routed, key);
    const viaRouter = await get(routed, key);
    let sent = 2 + (await untilFromBlock(web, key));
    const before = hotStats.fromBlocks;
    const answers = await Promise.all(Array.from({ length: 400 }, () => get(web, key)));
    sent += answers.length;
    expect(answers.every((a) => a.status === 200)).to.equal(true);
    expect(hotStats.fromBlocks - before, 'answered from blocks').to.be.greaterThan(300);
    expect(stable(answers[0].headers)).to.deep.equal(stable(viaRouter.headers));
    expect(answers[0].text).to.equal(viaRouter.text);
    await drainMetering(); // closes the blocks: spent charged, the rest given back
    await ledger.written();
    expect(await heldRequestsOf(accountId)).to.equal(0);
    expect(await countChargedRequestsOfAccount(accountId)).to.equal(sent);
    expect(await balanceOf(accountId)).to.equal(100_000 - sent);
  });

  it('happy: X-Credits-Remaining counts down by the price on each answer from a block', async () => {
    const { key } = await accountWithKey(50_000);
    await untilFromBlock(web, key);
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) remaining.push(Number((await get(web, key)).headers.get('x-credits-remaining')));
    for (let i = 1; i < remaining.length; i++) expect(remaining[i - 1] - remaining[i], `answer ${i}`).to.equal(1);
  });

  it('exact at the bottom: 1,600 concurrent requests on 1,100 credits (100 above the reserve) serve exactly 1,100', async () => {
    const { accountId, key } = await accountWithKey(1_100);
    const taken = blockStats.taken;
    await get(web, key); // teaches the URL
    const answers = await Promise.all(Array.from({ length: 1_600 }, () => get(web, key)));
    const served = answers.filter((a) => a.status === 200).length + 1;
    expect(answers.filter((a) => a.status !== 200 && a.status !== 402).map((a) => a.status)).to.deep.equal([]);
    expect(blockStats.taken, 'a block was taken above the reserve').to.be.greaterThan(taken);
    await drainMetering();
    await ledger.written();
    expect(served).to.equal(1_100);
    expect(await balanceOf(accountId)).to.equal(0);
    expect(await countChargedRequestsOfAccount(accountId)).to.equal(1_100);
  });

  it('security: a revoke returns once no block of the key can be spent: the very next request is a 401', async () => {
    const { keyId, key } = await accountWithKey(100_000);
    await untilFromBlock(web, key);
    await revokeKey(processContext(), keyId);
    expect((await get(web, key)).status).to.equal(401);
  });

  it('idempotent: a spend step sent twice is applied once; a step whose hold the sweep gave back is charged on the balance', async () => {
    const { accountId, keyId, plaintext } = await accountWithKey(100_000).then((a) => ({ ...a, plaintext: a.key }));
    await get(routed, plaintext); // caches the key's identity and seeds the balance
    const t = await takeBlock(hashKey(plaintext), { tokens: 50, price: 1, ref: `blk${Date.now()}`, lifetimeMs: 1000 });
    if (!('taken' in t)) throw new Error(`no block: ${t.refused}`);
    expect(t.taken.credits).to.equal(50);
    const afterTake = await balanceOf(accountId);
    const charge = { keyId, endpoint: 'matches', price: 1, requests: 10, ref: `c${Date.now()}`, at: Date.now() };
    const step = { id: `${t.taken.member}.0`, member: t.taken.member, nextMember: `${accountId}|x${Date.now()}|40`, accountId, spent: 10, back: 0, charges: [charge] };
    const streamBefore = await chargesNotYetInLedger();
    expect(await spendBlocks([step])).to.deep.equal(['applied']);
    expect(await spendBlocks([step])).to.deep.equal(['repeated']);
    expect((await chargesNotYetInLedger()) - streamBefore).to.be.at.most(1);
    // The process "dies": its hold is the sweep's, which gives back the 40 unspent credits.
    expect(await refundStaleHolds(-1000)).to.be.at.least(1);
    expect(await balanceOf(accountId)).to.equal(afterTake + 40);
    // A late step of that block finds its hold gone: what it spent comes off the balance.
    const late = { ...step, id: `${step.id}.late`, member: step.nextMember, nextMember: '', spent: 5, back: 35, charges: [{ ...charge, requests: 5, ref: `${charge.ref}b` }] };
    expect(await spendBlocks([late])).to.deep.equal(['on-balance']);
    await ledger.written();
    expect(await balanceOf(accountId)).to.equal(afterTake + 40 - 5);
    expect(await countChargedRequestsOfAccount(accountId)).to.equal(1 + 10 + 5);
  });

  it('versions: a bump announced reaches the front door at once; one made behind its back within the refresh', async () => {
    const { key } = await accountWithKey(100_000);
    await untilFromBlock(web, key);
    await bumpCacheVersion('events');
    expect((await get(web, key)).headers.get('x-cache')).to.equal('MISS');
    await untilFromBlock(web, key);
    await redis().incr(cacheVersionKey('events')); // not announced
    await new Promise((r) => setTimeout(r, 1200));
    expect((await get(web, key)).headers.get('x-cache')).to.equal('MISS');
  });
});
