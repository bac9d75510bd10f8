import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { createAccount, setAutoRecharge } from '../../../shared/app/billing/accounts';
import { drainMetering } from '../../../shared/app/billing/metering';
import { startSetup } from '../../../shared/app/billing/paymentMethods';
import { rechargeWindow, runCharge } from '../../../shared/app/billing/recharge';
import { attemptDelivery } from '../../../shared/app/webhooks/deliver';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, redeliver, rotateSecret, sendTest } from '../../../shared/app/webhooks/endpoints';
import { fanOut, fanOutFeed, lowBalanceEvents } from '../../../shared/app/webhooks/fanout';
import { sweepWebhooks } from '../../../shared/app/webhooks/sweep';
import { AccountError } from '../../../shared/domain/accounts/errors';
import { BillingInputError } from '../../../shared/domain/billing/errors';
import { eventIdOf, type WebhookEvent } from '../../../shared/domain/webhooks/events';
import { fakeContext, type FakeContext } from './fakeContext';

const ACC = 'acct_a';
const OTHER = 'acct_b';
const URL_A = 'https://hooks.example.com/odds';

/** The attempts the fake dispatcher was asked for: `[deliveryId, attempt, delay]`. */
function attemptsQueued(ctx: FakeContext): [string, number, number | undefined][] {
  const out: [string, number, number | undefined][] = [];
  for (const i of ctx.dispatched) {
    if (i.kind === 'enqueue' && i.queue === 'webhooks' && i.name === 'deliver') out.push([i.data.deliveryId, i.data.attempt, i.delay]);
    if (i.kind === 'enqueue-many' && i.queue === 'webhooks' && i.name === 'deliver') for (const j of i.jobs) out.push([j.data.deliveryId, j.data.attempt, j.delay]);
  }
  return out;
}

async function withEndpoint(ctx: FakeContext, events: string[] = ['recommendation.created', 'recommendation.settled'], account = ACC) {
  ctx.webhooks.dns.set('hooks.example.com', ['93.184.216.34']);
  return createEndpoint(ctx, account, { url: URL_A, events });
}

const rec = (id: string): WebhookEvent => ({ id: eventIdOf('recommendation.created', id), type: 'recommendation.created', timestamp: new Date('2026-11-21T11:00:00Z'), data: { id } });

describe('webhooks (in memory): endpoints, fan-out, attempts, sweep', () => {
  describe('endpoints', () => {
    it('happy: created with a whsec_ secret shown once; the list never shows it', async () => {
      const ctx = fakeContext();
      const ep = await withEndpoint(ctx);
      expect(ep.secret).to.match(/^whsec_/);
      expect(ep.id).to.match(/^we_/);
      const listed = await listEndpoints(ctx, ACC);
      expect(listed.data).to.have.length(1);
      expect(JSON.stringify(listed)).not.to.include(ep.secret);
      expect(listed.data[0]).to.include({ id: ep.id, url: URL_A, enabled: true, failedAttemptsInARow: 0 });
    });

    const refused: [string, Record<string, string>, { url: unknown; events: unknown }, string][] = [
      ['a loopback URL', {}, { url: 'http://127.0.0.1:9000/hook', events: ['balance.low'] }, 'url: is a loopback address'],
      ['a name resolving to a private address', {}, { url: 'https://intranet.example.com/x', events: ['balance.low'] }, 'url: intranet.example.com does not resolve to a public address'],
      ['a name that does not resolve', {}, { url: 'https://nowhere.example.com/x', events: ['balance.low'] }, 'url: nowhere.example.com does not resolve to a public address'],
      ['http in production', { NODE_ENV: 'production', PAYMENT_GATEWAY: 'none' }, { url: 'http://hooks.example.com/x', events: ['balance.low'] }, 'url: must be an https URL'],
      ['no events', {}, { url: URL_A, events: [] }, 'events: must be a non-empty list'],
      ['an unknown event', {}, { url: URL_A, events: ['pick.deleted'] }, 'events: must name events of'],
      ['ping (not subscribable)', {}, { url: URL_A, events: ['ping'] }, 'events: must name events of'],
    ];
    for (const [what, env, input, message] of refused) {
      it(`error: ${what} is refused naming the field`, async () => {
        const ctx = fakeContext(undefined, env);
        ctx.webhooks.dns.set('hooks.example.com', ['93.184.216.34']);
        ctx.webhooks.dns.set('intranet.example.com', ['10.0.0.8']);
        const err = await createEndpoint(ctx, ACC, input).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(BillingInputError);
        expect((err as Error).message).to.include(message);
        expect(ctx.webhooks.endpoints.size).to.equal(0);
      });
    }

    it('happy: WEBHOOK_ALLOW_PRIVATE=true lets a loopback receiver in (local use, tests)', async () => {
      const ctx = fakeContext(undefined, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      expect((await createEndpoint(ctx, ACC, { url: 'http://127.0.0.1:9000/hook', events: ['balance.low'] })).url).to.equal('http://127.0.0.1:9000/hook');
    });

    it('error: past WEBHOOK_MAX_ENDPOINTS a conflict; another account is not counted', async () => {
      const ctx = fakeContext(undefined, { WEBHOOK_MAX_ENDPOINTS: '2' });
      await withEndpoint(ctx);
      await withEndpoint(ctx);
      await withEndpoint(ctx, undefined, OTHER);
      const err = await withEndpoint(ctx).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AccountError).and.to.have.property('kind', 'too-many-webhooks');
    });

    it("error: another account's endpoint is not found (delete, rotate, test, deliveries)", async () => {
      const ctx = fakeContext();
      const ep = await withEndpoint(ctx, undefined, OTHER);
      for (const call of [() => deleteEndpoint(ctx, ACC, ep.id), () => rotateSecret(ctx, ACC, ep.id), () => sendTest(ctx, ACC, ep.id), () => listDeliveries(ctx, ACC, ep.id, 10)]) {
        expect(await call().catch((e: unknown) => e))
          .to.be.instanceOf(AccountError)
          .and.to.have.property('kind', 'not-found');
      }
      expect(ctx.webhooks.endpoints.has(ep.id)).to.equal(true);
    });
  });

  describe('fan-out', () => {
    it('happy: the change feed becomes one delivery per subscribed endpoint; a second read of the same events adds none', async () => {
      const ctx = fakeContext();
      const a = await withEndpoint(ctx);
      const b = await withEndpoint(ctx, ['recommendation.settled'], OTHER);
      ctx.webhooks.feed.push({ id: '1-0', poll: 'p', change: { eventId: 'e0', kind: 'price', at: new Date(), data: {} } });
      expect(await fanOutFeed(ctx)).to.deep.equal({ entries: 0, events: 0, deliveries: 0 }); // a fresh cursor starts at the head
      ctx.webhooks.feed.push(
        { id: '2-0', poll: 'p', change: { eventId: 'e1', kind: 'recommendation', at: new Date('2026-11-21T11:00:00Z'), data: { recommendationId: 'r1', odds: 2.1 } } },
        { id: '3-0', poll: 'p', change: { eventId: 'e1', kind: 'price', at: new Date(), data: {} } },
        { id: '4-0', poll: 's', change: { eventId: 'e2', kind: 'settled', at: new Date(), data: {} } },
      );
      ctx.webhooks.settled.set('e2', [{ _id: 'r2', eventId: 'e2', result: 'won', settledVersion: 0, closingOdds: 1.9, clv: 0.05 }]);
      expect(await fanOutFeed(ctx)).to.deep.equal({ entries: 3, events: 2, deliveries: 3 });
      const byEndpoint = (id: string) => [...ctx.webhooks.deliveries.values()].filter((d) => d.endpointId === id).map((d) => d.type);
      expect(byEndpoint(a.id)).to.have.members(['recommendation.created', 'recommendation.settled']);
      expect(byEndpoint(b.id)).to.deep.equal(['recommendation.settled']);
      const settled = [...ctx.webhooks.deliveries.values()].find((d) => d.type === 'recommendation.settled');
      expect(JSON.parse(settled!.body).data).to.deep.include({ result: 'won', closingLine: { closingOdds: 1.9, clv: 0.05 } });
      // The same entries published again (a crash between a writer's store write and its publish): found, not doubled.
      ctx.webhooks.feed.push({ ...ctx.webhooks.feed[1], id: '5-0' });
      await fanOutFeed(ctx);
      expect(ctx.webhooks.deliveries.size).to.equal(3);
      expect(ctx.webhooks.cursor).to.equal('5-0');
    });

    it('happy: an account event reaches that account only; a turned-off endpoint gets nothing', async () => {
      const ctx = fakeContext();
      const mine = await withEndpoint(ctx, ['balance.low']);
      await withEndpoint(ctx, ['balance.low'], OTHER);
      const off = await withEndpoint(ctx, ['recommendation.created']);
      await ctx.webhooks.disable(off.id, Date.now(), 'test');
      await fanOut(ctx, [{ id: 'msg_x', type: 'balance.low', timestamp: new Date(), data: {}, accountId: ACC }, rec('r9')]);
      expect([...ctx.webhooks.deliveries.values()].map((d) => d.endpointId)).to.deep.equal([mine.id]);
    });

    it('happy: balance.low under the auto-recharge threshold, or the low-balance level without it', async () => {
      const ctx = fakeContext(undefined, { WEBHOOK_BALANCE_LOW_CREDITS: '100' });
      await withEndpoint(ctx, ['balance.low']);
      await withEndpoint(ctx, ['balance.low'], OTHER);
      ctx.credits.balances.set(ACC, { balance: 150, topUpSeq: 3 });
      ctx.credits.balances.set(OTHER, { balance: 90, topUpSeq: 1 });
      expect((await lowBalanceEvents(ctx)).map((e) => e.accountId)).to.deep.equal([OTHER]);
      ctx.credits.settings.set(ACC, { enabled: true, threshold: 200, version: 1 });
      const events = await lowBalanceEvents(ctx);
      expect(events.map((e) => [e.accountId, e.data.level])).to.deep.equal([
        [ACC, 200],
        [OTHER, 100],
      ]);
      // One event per low-balance window: the same while it lasts, another after a top-up.
      expect((await lowBalanceEvents(ctx))[0].id).to.equal(events[0].id);
      ctx.credits.balances.set(ACC, { balance: 150, topUpSeq: 4 });
      expect((await lowBalanceEvents(ctx))[0].id).not.to.equal(events[0].id);
    });
  });

  describe('attempts', () => {
    async function oneDelivery(ctx: FakeContext) {
      const ep = await withEndpoint(ctx);
      ctx.credits.balances.set(ACC, { balance: 10, topUpSeq: 1 });
      await fanOut(ctx, [rec('r1')]);
      const [d] = ctx.webhooks.deliveries.values();
      return { ep, d };
    }

    it('happy: a 2xx delivers it, signed so that the standardwebhooks package verifies it, and charges its credit once', async () => {
      // The real clock: the package refuses a timestamp more than 5 minutes from its own.
      const ctx = fakeContext(new Date());
      const { ep, d } = await oneDelivery(ctx);
      const r = await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      await drainMetering();
      expect(r).to.deep.include({ outcome: 'attempted', statusCode: 200, status: 'delivered' });
      const sent = ctx.webhooks.sent[0];
      expect(sent.headers['webhook-id']).to.equal(d.eventId);
      expect(new Webhook(ep.secret).verify(sent.body, sent.headers)).to.deep.include({ type: 'recommendation.created' });
      expect(ctx.credits.balances.get(ACC)!.balance).to.equal(9);
      expect(ctx.credits.charges.map((c) => [c.endpoint, c.cost])).to.deep.equal([['WEBHOOK recommendation.created', 1]]);
      // A resend of a delivered event is not charged again.
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 2, manual: true });
      await drainMetering();
      expect(ctx.webhooks.sent).to.have.length(2);
      expect(ctx.credits.balances.get(ACC)!.balance).to.equal(9);
    });

    it('happy: a 500 queues the next attempt 5 s later with the same webhook-id; the credit is given back', async () => {
      const ctx = fakeContext();
      const { d } = await oneDelivery(ctx);
      ctx.webhooks.answer = () => ({ statusCode: 500, error: null, durationMs: 3 });
      const r = await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      await drainMetering();
      expect(r).to.deep.include({ status: 'pending', next: 5000 });
      expect(attemptsQueued(ctx).at(-1)).to.deep.equal([d._id, 2, 5000]);
      expect(ctx.credits.balances.get(ACC)!.balance).to.equal(10);
      ctx.webhooks.answer = () => ({ statusCode: 204, error: null, durationMs: 3 });
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 2 });
      expect(ctx.webhooks.sent.map((s) => s.headers['webhook-id'])).to.deep.equal([d.eventId, d.eventId]);
      const listed = await listDeliveries(ctx, ACC, d.endpointId, 10);
      expect(listed.data[0].attempts.map((a) => [a.n, a.statusCode])).to.deep.equal([
        [1, 500],
        [2, 204],
      ]);
      expect(listed.data[0].status).to.equal('delivered');
    });

    it('happy: a replayed attempt (its worker died after recording it) sends nothing and queues the next', async () => {
      const ctx = fakeContext();
      const { d } = await oneDelivery(ctx);
      ctx.webhooks.answer = () => ({ statusCode: null, error: 'timeout', durationMs: 15000 });
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      const queued = attemptsQueued(ctx).length;
      expect(await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 })).to.deep.equal({ outcome: 'replayed' });
      expect(ctx.webhooks.sent).to.have.length(1);
      expect(
        attemptsQueued(ctx)
          .slice(queued)
          .map(([id, n]) => [id, n]),
      ).to.deep.equal([[d._id, 2]]);
    });

    it('happy: the schedule spent, the delivery has failed and nothing more is queued', async () => {
      const ctx = fakeContext(undefined, { WEBHOOK_RETRY_SCHEDULE_MS: '10,20' });
      const { d } = await oneDelivery(ctx);
      ctx.webhooks.answer = () => ({ statusCode: 503, error: null, durationMs: 1 });
      for (const n of [1, 2, 3]) await attemptDelivery(ctx, { deliveryId: d._id, attempt: n });
      expect(ctx.webhooks.deliveries.get(d._id)).to.deep.include({ status: 'failed', nextAttemptAt: null });
      expect(attemptsQueued(ctx).map(([, n, delay]) => [n, delay])).to.deep.equal([
        [1, 0],
        [2, 10],
        [3, 20],
      ]);
      expect(await attemptDelivery(ctx, { deliveryId: d._id, attempt: 4 })).to.deep.equal({ outcome: 'done', status: 'failed' });
    });

    it('error: without the credits, nothing is sent (live data is never delivered without its debit); retried later', async () => {
      const ctx = fakeContext();
      const { d } = await oneDelivery(ctx);
      ctx.credits.balances.set(ACC, { balance: 0, topUpSeq: 1 });
      const r = await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      expect(r).to.deep.include({ error: 'insufficient_credits', status: 'pending' });
      expect(ctx.webhooks.sent).to.have.length(0);
      // Not the endpoint's failure.
      expect((await ctx.webhooks.health([d.endpointId])).get(d.endpointId)!.run).to.equal(0);
    });

    it('happy: a ping is free and reaches the endpoint whatever it subscribed to', async () => {
      const ctx = fakeContext();
      const ep = await withEndpoint(ctx, ['balance.low']);
      ctx.credits.balances.set(ACC, { balance: 0, topUpSeq: 1 });
      const t = await sendTest(ctx, ACC, ep.id);
      expect(await attemptDelivery(ctx, { deliveryId: t.deliveryId, attempt: 1 })).to.deep.include({ statusCode: 200 });
      expect(JSON.parse(ctx.webhooks.sent[0].body)).to.deep.include({ type: 'ping' });
    });

    it('happy: a rotated secret signs the next attempt (the replaced one beside it for a day)', async () => {
      const ctx = fakeContext(new Date());
      const { ep, d } = await oneDelivery(ctx);
      const { secret } = await rotateSecret(ctx, ACC, ep.id);
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      const sent = ctx.webhooks.sent[0];
      expect(() => new Webhook(secret).verify(sent.body, sent.headers)).not.to.throw();
      expect(() => new Webhook(ep.secret).verify(sent.body, sent.headers)).not.to.throw();
      ctx.setNow(new Date(ctx.clock.now().getTime() + 25 * 3600_000));
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 2, manual: true });
      const later = ctx.webhooks.sent[1];
      expect(later.headers['webhook-signature'].split(' ')).to.have.length(1);
    });

    it('happy: a deleted endpoint gets nothing more: its pending attempt finds no delivery', async () => {
      const ctx = fakeContext();
      const { ep, d } = await oneDelivery(ctx);
      await deleteEndpoint(ctx, ACC, ep.id);
      expect(await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 })).to.deep.equal({ outcome: 'gone' });
      expect(ctx.webhooks.sent).to.have.length(0);
    });

    it('error: a run of failures long enough turns the endpoint off; its next attempt is cancelled', async () => {
      const ctx = fakeContext(undefined, { WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_MS: '0' });
      const ep = await withEndpoint(ctx);
      ctx.credits.balances.set(ACC, { balance: 100, topUpSeq: 1 });
      await fanOut(ctx, [rec('r1'), rec('r2'), rec('r3'), rec('r4')]);
      ctx.webhooks.answer = () => ({ statusCode: null, error: 'ECONNREFUSED', durationMs: 1 });
      const ids = [...ctx.webhooks.deliveries.keys()];
      for (const id of ids.slice(0, 3)) await attemptDelivery(ctx, { deliveryId: id, attempt: 1 });
      const listed = (await listEndpoints(ctx, ACC)).data[0];
      expect(listed).to.deep.include({ enabled: false, failedAttemptsInARow: 3, lastError: 'ECONNREFUSED' });
      expect(listed.disabledReason).to.include('3 attempts failed in a row');
      expect(await attemptDelivery(ctx, { deliveryId: ids[3], attempt: 1 })).to.deep.include({ outcome: 'cancelled' });
      expect(ctx.webhooks.sent).to.have.length(3);
      expect(ep.id).to.equal(listed.id);
    });

    it('happy: redeliver asks for one more attempt now, under an id apart from the schedule', async () => {
      const ctx = fakeContext();
      const { ep, d } = await oneDelivery(ctx);
      await attemptDelivery(ctx, { deliveryId: d._id, attempt: 1 });
      expect(await redeliver(ctx, ACC, ep.id, d._id)).to.deep.equal({ id: d._id, attempt: 2 });
      const last = ctx.dispatched.at(-1);
      expect(last).to.deep.include({ queue: 'webhooks', name: 'deliver', data: { deliveryId: d._id, attempt: 2, manual: true } });
    });
  });

  it('happy: an auto-recharge announces its outcome to the account, once per attempt however often its job runs; an account without such an endpoint queues nothing', async () => {
    const ctx = fakeContext();
    const accountId = 'acct_r';
    await createAccount(ctx, { id: accountId, name: 'R' });
    await startSetup(ctx, accountId, { testCard: 'pm_card_visa' }, 'https://example.test/back');
    await setAutoRecharge(ctx, { accountId, threshold: 1000, packageCredits: 20000 });
    const window = rechargeWindow((await ctx.accounts.findAccount(accountId))?.autoRecharge?.version ?? 0, (await ctx.credits.admissionHead(accountId)).topUpSeq);
    const accountEvents = () => ctx.dispatched.filter((i) => i.kind === 'enqueue' && i.queue === 'webhooks' && i.name === 'account-event');
    const declined = { status: 'declined' as const, code: 'card_declined', message: 'no', chargeId: null };
    ctx.payments.answers.push(declined);
    await runCharge(ctx, { accountId, window, attempt: 1 });
    expect(accountEvents()).to.deep.equal([]);

    await withEndpoint(ctx, ['recharge.failed', 'recharge.succeeded'], accountId);
    await runCharge(ctx, { accountId, window, attempt: 1 }); // its job again (a replay): announced now
    await runCharge(ctx, { accountId, window, attempt: 1 });
    const [failed, again] = accountEvents();
    expect(failed).to.deep.include({ name: 'account-event' });
    expect(failed.kind === 'enqueue' && failed.name === 'account-event' && failed.data).to.deep.include({ type: 'recharge.failed', accountId });
    expect(again).to.deep.equal(failed); // the same event: its job id collapses the repeat
    const data = failed.kind === 'enqueue' && failed.name === 'account-event' ? failed.data.data : {};
    expect(data).to.deep.include({ willRetry: true, autoRechargeDisabled: false, code: 'card_declined', attempt: 1 });

    await runCharge(ctx, { accountId, window, attempt: 2 }); // the gateway's default answer: succeeded
    const last = accountEvents().at(-1);
    expect(last?.kind === 'enqueue' && last.name === 'account-event' && last.data).to.deep.include({ type: 'recharge.succeeded', accountId });
  });

  it('happy: the sweep queues again the attempts of pending deliveries past their time (a lost job)', async () => {
    const ctx = fakeContext();
    await withEndpoint(ctx);
    await fanOut(ctx, [rec('r1')]);
    const [d] = ctx.webhooks.deliveries.values();
    const before = ctx.dispatched.length;
    expect((await sweepWebhooks(ctx)).requeued).to.equal(0);
    ctx.setNow(new Date(ctx.clock.now().getTime() + 120_000));
    expect((await sweepWebhooks(ctx)).requeued).to.equal(1);
    expect(ctx.dispatched.slice(before).at(-1)).to.deep.include({ name: 'deliver', data: { deliveryId: d._id, attempt: 1 }, existing: 'retry-failed' });
  });
});
