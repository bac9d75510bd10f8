import { expect } from 'chai';
import { appendChanges } from '../../../shared/platform/feed/changeFeed';
import { overrideEnv } from '../../../shared/platform/config';
import type { Service } from '../../../workers/runtime';
import { startWebhookFeed, startWebhooks } from '../../../workers/webhookServices';
import type { TestServer } from '../../helpers/api';
import { waitUntil } from '../../helpers/processes';
import { WebhookReceiver, type Received } from '../../helpers/webhookReceiver';
import { Browser, forgetLocalFailures, startAccountApi } from '../account/client';

/**
 * Webhooks end to end in one process: the account API, the delivery worker and the change feed's
 * fan-out on the real stores, delivering to a local HTTP receiver (WEBHOOK_ALLOW_PRIVATE=true, as
 * for local use) with retries shortened by the settings.
 */
describe('webhooks: endpoints and deliveries against a local receiver', function () {
  this.timeout(60000);
  let restoreEnv: () => void;
  let api: TestServer;
  let browser: Browser;
  let services: Service[] = [];
  const receiver = new WebhookReceiver();
  let url: string;
  let endpoint: { id: string; secret: string };
  let seq = 0;

  /** A recommendation newly stored by the AI worker, as the change feed announces it. */
  async function newRecommendation(): Promise<string> {
    const id = `wh-rec-${process.pid}-${++seq}`;
    await appendChanges('test-ai', `batch-${id}`, [
      { eventId: `wh-event-${seq}`, kind: 'recommendation', at: new Date(), data: { recommendationId: id, odds: 2.05, edgePercentage: 4.2, confidence: 'High' } },
    ]);
    return id;
  }
  const dataId = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;
  const deliveriesOf = async (id: string) => (await browser.send('GET', `/v2/account/webhooks/${id}/deliveries?limit=50`)).body.data as any[];

  before(async () => {
    restoreEnv = overrideEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '400,800,1600', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_FEED_POLL_MS: '50' });
    url = await receiver.start();
    api = await startAccountApi();
    browser = new Browser(api.url);
    expect((await browser.signup()).status).to.equal(201);
    services = [await startWebhooks(), await startWebhookFeed()];
  });

  after(async () => {
    for (const s of services.reverse()) await s.stop();
    await receiver.close();
    await forgetLocalFailures();
    await api.close();
    restoreEnv();
  });

  it('security: an endpoint on 127.0.0.1 is refused without WEBHOOK_ALLOW_PRIVATE, naming url', async () => {
    const restore = overrideEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    try {
      const r = await browser.send('POST', '/v2/account/webhooks', { url, events: ['recommendation.created'] });
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ code: 'invalid_parameter' });
      expect(r.body.message).to.match(/^Invalid request parameters: url is a loopback address/);
      expect((await browser.send('GET', '/v2/account/webhooks')).body.data).to.deep.equal([]);
    } finally {
      restore();
    }
  });

  it('happy: POST /v2/account/webhooks is a 201 with the whsec_ secret, which the list never shows', async () => {
    const r = await browser.send('POST', '/v2/account/webhooks', { url, events: ['recommendation.created', 'recommendation.settled'] });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ url });
    expect(r.body.secret).to.match(/^whsec_/);
    expect(r.body.events).to.deep.equal(['recommendation.created', 'recommendation.settled']);
    endpoint = r.body;
    const list = await browser.send('GET', '/v2/account/webhooks');
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0]).to.include({ id: endpoint.id, enabled: true, failedAttemptsInARow: 0 });
    expect(JSON.stringify(list.body)).not.to.include(endpoint.secret.slice(6));
  });

  it('error: a change without the CSRF token, bad events, another account or an unknown delivery are refused', async () => {
    expect((await browser.send('POST', '/v2/account/webhooks', { url, events: ['x'] })).body.message).to.match(/events must name events of/);
    expect((await browser.send('POST', `/v2/account/webhooks/${endpoint.id}/test`, undefined, { 'X-CSRF-Token': 'nope' })).status).to.equal(403);
    const stranger = new Browser(api.url);
    await stranger.signup();
    expect((await stranger.send('DELETE', `/v2/account/webhooks/${endpoint.id}`)).status).to.equal(404);
    expect((await stranger.send('GET', `/v2/account/webhooks/${endpoint.id}/deliveries`)).status).to.equal(404);
    expect((await browser.send('POST', `/v2/account/webhooks/${endpoint.id}/deliveries/nope/redeliver`)).status).to.equal(404);
    expect((await browser.send('GET', `/v2/account/webhooks/${endpoint.id}/deliveries?limit=500`)).status).to.equal(400);
  });

  it('happy: a test ping arrives signed (the standardwebhooks package verifies it) and the deliveries list shows its attempt', async () => {
    const t = await browser.send('POST', `/v2/account/webhooks/${endpoint.id}/test`);
    expect(t.status).to.equal(201);
    await waitUntil('the ping', () => receiver.ofType('ping').length === 1, 10000, 20);
    const ping = receiver.ofType('ping')[0];
    expect(ping.id).to.equal(t.body.eventId);
    expect(WebhookReceiver.verifies(endpoint.secret, ping)).to.equal(true);
    await waitUntil('its attempt recorded', async () => (await deliveriesOf(endpoint.id)).some((d) => d.status === 'delivered'), 5000, 50);
    const [d] = await deliveriesOf(endpoint.id);
    expect(d).to.include({ eventId: ping.id, type: 'ping', status: 'delivered' });
    expect(d.attempts).to.have.length(1);
    expect(d.attempts[0]).to.include({ n: 1, statusCode: 200, error: null, manual: false });
    expect(d.attempts[0].durationMs).to.be.a('number').within(0, 2000);
    expect(Date.parse(d.attempts[0].at)).to.be.closeTo(Date.now(), 10000);
  });

  it('happy: a recommendation stored becomes recommendation.created, verified, and its credit is debited once', async () => {
    const before = (await browser.send('GET', '/v2/account')).body.account.balance;
    const recId = await newRecommendation();
    await waitUntil('recommendation.created', () => receiver.ofType('recommendation.created').some((r) => dataId(r) === recId), 10000, 20);
    const got = receiver.ofType('recommendation.created').find((r) => dataId(r) === recId)!;
    expect(WebhookReceiver.verifies(endpoint.secret, got)).to.equal(true);
    expect(JSON.parse(got.body).data).to.include({ id: recId, odds: 2.05, confidence: 'High' });
    await waitUntil('the debit', async () => (await browser.send('GET', '/v2/account')).body.account.balance === before - 1, 5000, 50);
  });

  it('error: a receiver that answers 500 to the first attempt gets the same webhook-id again after the backoff', async () => {
    const failedOnce = new Set<string>();
    receiver.answer = (r) => (r.type === 'recommendation.created' && !failedOnce.has(r.id) ? (failedOnce.add(r.id), 500) : 200);
    const recId = await newRecommendation();
    await waitUntil('two attempts', () => receiver.ofType('recommendation.created').filter((r) => dataId(r) === recId).length === 2, 10000, 20);
    const [first, second] = receiver.ofType('recommendation.created').filter((r) => dataId(r) === recId);
    expect(second.id).to.equal(first.id);
    expect(second.at - first.at).to.be.at.least(400); // WEBHOOK_RETRY_SCHEDULE_MS' first delay
    expect(second.body).to.equal(first.body);
    expect(WebhookReceiver.verifies(endpoint.secret, second)).to.equal(true);
    await waitUntil('recorded', async () => (await deliveriesOf(endpoint.id)).some((d) => d.eventId === first.id && d.status === 'delivered'), 5000, 50);
    const d = (await deliveriesOf(endpoint.id)).find((x) => x.eventId === first.id);
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).to.deep.equal([500, 200]);
    receiver.answer = () => 200;
  });

  it('happy: redeliver sends the same webhook-id and body once more, listed as a manual attempt', async () => {
    const [d] = (await deliveriesOf(endpoint.id)).filter((x) => x.type === 'recommendation.created');
    const before = receiver.received.filter((r) => r.id === d.eventId).length;
    const r = await browser.send('POST', `/v2/account/webhooks/${endpoint.id}/deliveries/${d.id}/redeliver`);
    expect(r.status).to.equal(201);
    await waitUntil('the resend', () => receiver.received.filter((x) => x.id === d.eventId).length === before + 1, 10000, 20);
    await waitUntil('listed', async () => (await deliveriesOf(endpoint.id)).find((x) => x.id === d.id).attempts.some((a: { manual: boolean }) => a.manual), 5000, 50);
  });

  it('happy: a rotated secret signs the next delivery (the old one still verifies for a day)', async () => {
    const r = await browser.send('POST', `/v2/account/webhooks/${endpoint.id}/rotate-secret`);
    expect(r.status).to.equal(200);
    expect(r.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(endpoint.secret);
    const recId = await newRecommendation();
    await waitUntil('the next delivery', () => receiver.ofType('recommendation.created').some((x) => dataId(x) === recId), 10000, 20);
    const got = receiver.ofType('recommendation.created').find((x) => dataId(x) === recId)!;
    expect(WebhookReceiver.verifies(r.body.secret, got)).to.equal(true);
    expect(WebhookReceiver.verifies(endpoint.secret, got)).to.equal(true);
    endpoint = { ...endpoint, secret: r.body.secret };
  });

  it('happy: a deleted endpoint gets nothing more, its pending retry included', async () => {
    receiver.answer = () => 500;
    const failing = await newRecommendation();
    await waitUntil('the first attempt', () => receiver.ofType('recommendation.created').some((x) => dataId(x) === failing), 10000, 20);
    const del = await browser.send('DELETE', `/v2/account/webhooks/${endpoint.id}`);
    expect(del.status).to.equal(200);
    expect(del.body).to.include({ id: endpoint.id });
    receiver.answer = () => 200;
    const count = receiver.received.length;
    await newRecommendation();
    await new Promise((r) => setTimeout(r, 2500)); // past the retry (400 ms) and a few feed reads
    expect(receiver.received.slice(count)).to.deep.equal([]);
    expect((await browser.send('GET', '/v2/account/webhooks')).body.data).to.deep.equal([]);
  });
});
