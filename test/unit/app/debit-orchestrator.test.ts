import { expect } from 'chai';
import { debitOfAdmission, debitRequest, drainMetering, HOLD_STALE_MS, settleRequest, sweepStaleHolds, type Debit } from '../../../shared/app/billing/metering';
import { chargeIntent } from '../../../shared/app/billing/recharge';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { fakeContext, type FakeContext } from './fakeContext';

/** A metered request's debit and settlement on an in-memory context: held, kept or given back, each once; the auto-recharge trigger; the stale-hold sweep. */

const ACC = 'acc-1';

/** The auto-recharge trigger runs off the request path: lets it finish. */
const triggersRun = () => new Promise((resolve) => setImmediate(resolve));

/** A request whose debit the key check made (meterAccess), as the route's chain receives it. */
function admitted(ctx: FakeContext, ref: string, cost: number): Promise<Debit> {
  return debitOfAdmission(ctx, { accountId: ACC, cost, ref }, ctx.credits.keyCheck(ACC, ref, cost));
}

function settle(ctx: FakeContext, d: Debit, charged: boolean): void {
  if (!d.ok) throw new Error('the request was not debited');
  settleRequest(ctx, { accountId: ACC, keyId: 'key-1', ref: d.ref, hold: d.hold, at: d.at, cost: 2, endpoint: 'GET /v2/matches', charged });
}

describe('debit orchestrator (in-memory context)', () => {
  // The trigger's memory of the windows it asked for, and of the settings it read, starts afresh with each test's stores.
  beforeEach(renewProcessScope);

  it('happy: an admitted request is held; settled as kept it is charged once', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 10, topUpSeq: 0 });
    const d = await admitted(ctx, 'r1', 2);
    expect(d).to.deep.equal({ ok: true, ref: 'r1', hold: `${ACC}|r1|2`, balance: 8, at: +ctx.clock.now() });
    expect([...ctx.credits.holds.keys()]).to.deep.equal([`${ACC}|r1|2`]);
    settle(ctx, d, true);
    settle(ctx, d, true); // a second settlement of the same request finds its hold gone
    await drainMetering();
    expect(ctx.credits.charges).to.deep.equal([{ ref: 'r1', accountId: ACC, cost: 2, endpoint: 'GET /v2/matches', keyId: 'key-1', at: +ctx.clock.now() }]);
    expect(ctx.credits.holds.size).to.equal(0);
    expect(ctx.credits.balances.get(ACC)?.balance).to.equal(8);
  });

  it('happy: settled as not kept (a 4xx or 5xx answer, the client gone before headers) it is refunded once', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 10, topUpSeq: 0 });
    const d = await admitted(ctx, 'r1', 2);
    settle(ctx, d, false);
    settle(ctx, d, false);
    await drainMetering();
    expect(ctx.credits.charges).to.deep.equal([]);
    expect(ctx.credits.holds.size).to.equal(0);
    expect(ctx.credits.balances.get(ACC)?.balance).to.equal(10);
  });

  it('happy: an admission the key check could not make (no balance in Redis yet) falls back to a debit of its own, seeded from the ledger', async () => {
    const ctx = fakeContext();
    ctx.credits.ledgerHeads.set(ACC, { balance: 10, topUpSeq: 4 });
    const admission = ctx.credits.keyCheck(ACC, 'r1', 2);
    expect(admission).to.deep.equal({ outcome: 'unseeded' });
    const d = await debitOfAdmission(ctx, { accountId: ACC, cost: 2, ref: 'r1' }, admission);
    expect(d).to.deep.equal({ ok: true, ref: 'r1', hold: `${ACC}|r1|2`, balance: 8, at: +ctx.clock.now() });
    expect([...ctx.credits.holds.keys()]).to.deep.equal([`${ACC}|r1|2`]);
  });

  it('error: a balance short of the cost is refused with the balance, nothing held', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 1, topUpSeq: 0 });
    expect(await admitted(ctx, 'r1', 2)).to.deep.equal({ ok: false, balance: 1 });
    expect(await debitRequest(ctx, { accountId: ACC, cost: 2 })).to.deep.equal({ ok: false, balance: 1 });
    expect(ctx.credits.holds.size).to.equal(0);
    expect(ctx.credits.balances.get(ACC)?.balance).to.equal(1);
  });

  it('happy: a debit under the auto-recharge threshold asks for exactly one charge per window', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 10, topUpSeq: 0 });
    ctx.credits.settings.set(ACC, { enabled: true, threshold: 6, version: 3 });
    await admitted(ctx, 'r1', 2); // 8: above the threshold
    await triggersRun();
    expect(ctx.dispatched).to.deep.equal([]);
    await admitted(ctx, 'r2', 3); // 5: under it
    await triggersRun();
    expect(ctx.dispatched).to.deep.equal([chargeIntent(ACC, 'v3s0', 1)]);
    await admitted(ctx, 'r3', 1); // still under it, the same window
    await debitRequest(ctx, { accountId: ACC, cost: 1 });
    await triggersRun();
    expect(ctx.dispatched).to.have.length(1);
    // A top-up opens a new window: its first low debit asks again.
    ctx.credits.balances.set(ACC, { balance: 7, topUpSeq: 9 });
    await admitted(ctx, 'r4', 2);
    await triggersRun();
    expect(ctx.dispatched).to.deep.equal([chargeIntent(ACC, 'v3s0', 1), chargeIntent(ACC, 'v3s9', 1)]);
    expect(ctx.credits.settingsReads).to.equal(1); // read at most every 5 s per process
  });

  it('happy: without auto-recharge, a low balance asks for nothing', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 3, topUpSeq: 0 });
    await admitted(ctx, 'r1', 2);
    await triggersRun();
    expect(ctx.dispatched).to.deep.equal([]);
  });

  it('error: stale holds (their web process died) are swept and refunded, each once', async () => {
    const ctx = fakeContext();
    ctx.credits.balances.set(ACC, { balance: 10, topUpSeq: 0 });
    const a = await admitted(ctx, 'r1', 2);
    await admitted(ctx, 'r2', 3);
    // Holds a version before the Redis debit left in MongoDB: their debit is in the ledger, or never was.
    ctx.credits.ledger.set('debit:old1', { accountId: ACC, kind: 'debit', delta: -4 });
    ctx.credits.meterHolds.push({
      _id: 'mh1',
      accountId: ACC,
      at: ctx.clock.now(),
      items: [
        { ref: 'debit:old1', cost: 4, keyId: 'key-1', endpoint: 'GET /v2/matches' },
        { ref: 'debit:old2', cost: 1, keyId: 'key-1', endpoint: 'GET /v2/matches' },
      ],
    });
    expect(await sweepStaleHolds(ctx)).to.deep.equal({ refunded: 0, dropped: 0 }); // not stale yet
    ctx.setNow(new Date(+ctx.clock.now() + HOLD_STALE_MS + 1));
    expect(await sweepStaleHolds(ctx)).to.deep.equal({ refunded: 3, dropped: 1 });
    expect(await sweepStaleHolds(ctx)).to.deep.equal({ refunded: 0, dropped: 0 });
    expect(ctx.credits.balances.get(ACC)?.balance).to.equal(14);
    expect(ctx.credits.ledger.get('refund:old1')).to.deep.equal({ accountId: ACC, kind: 'refund', delta: 4 });
    expect(ctx.credits.meterHolds).to.deep.equal([]);
    // The dead process's request, settled after all, is not charged.
    settle(ctx, a, true);
    await drainMetering();
    expect(ctx.credits.charges).to.deep.equal([]);
  });
});
