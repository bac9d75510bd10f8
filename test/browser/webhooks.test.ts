import { expect } from 'chai';
import { createApp } from '../../api/app';
import { connectMongo } from '../../shared/platform/db/mongo';
import { overrideEnv } from '../../shared/platform/config';
import type { Service } from '../../workers/runtime';
import { startWebhooks } from '../../workers/webhookServices';
import { serve, type TestServer } from '../helpers/api';
import { launchBrowser, type Browser } from '../helpers/browser';
import { WebhookReceiver } from '../helpers/webhookReceiver';
import { Browser as AccountBrowser, forgetLocalFailures } from '../integration/account/client';

/**
 * The dashboard's Webhooks page in Chromium against the real app and delivery worker: add an
 * endpoint (a local receiver, WEBHOOK_ALLOW_PRIVATE=true), see its secret once, send a test that
 * the receiver gets signed with that secret, and see the delivery and its attempt listed.
 */
describe('dashboard: the Webhooks page in Chromium', function () {
  this.timeout(90_000);
  let restoreEnv: () => void;
  let api: TestServer;
  let browser: Browser | undefined;
  let worker: Service | undefined;
  const receiver = new WebhookReceiver();
  const email = `hooks-${Date.now()}-${process.pid}@example.com`;
  const password = 'correct horse battery staple 14';

  before(async () => {
    restoreEnv = overrideEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '3000' });
    await connectMongo();
    api = await serve(createApp());
    worker = await startWebhooks();
    expect((await new AccountBrowser(api.url).signup(email, password)).status).to.equal(201);
  });
  after(async () => {
    await browser?.close();
    await worker?.stop();
    await receiver.close();
    await forgetLocalFailures();
    await api?.close();
    restoreEnv();
  });

  it('happy: add an endpoint, see its secret once, send a test it receives signed, see the delivery and its attempt', async () => {
    const url = await receiver.start();
    browser = await launchBrowser();
    const { page } = browser;
    await page.goto(`${api.url}/dashboard#/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No endpoints yet').waitFor();

    // An address of the service's own network is refused with the API's message, next to the form.
    const restore = overrideEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('url is a loopback address').waitFor();
    restore();

    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel(/balance\.low/).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('#webhook-secret').textContent())?.trim() ?? '';
    expect(secret).to.match(/^whsec_/);
    await page.getByText('it will not be shown again').waitFor();
    const row = page.locator('tr[data-endpoint-id]');
    await row.waitFor();
    expect(await row.locator('td').first().textContent()).to.include(url);
    expect(await row.textContent())
      .to.include('balance.low')
      .and.include('on');

    // Once saved, the secret is gone from the page and never comes back with the list.
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.to.include(secret.slice(6, 20));

    await row.getByRole('button', { name: 'Send test' }).click();
    await page.locator('.deliveries tr[data-delivery-id]').waitFor();
    const deadline = Date.now() + 15_000;
    while (!(await page.locator('.deliveries .attempts').first().textContent())?.includes('HTTP 200')) {
      if (Date.now() > deadline) throw new Error(`no delivered attempt shown: ${await page.locator('.deliveries').textContent()}`);
      await page.locator('.deliveries').getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(300);
    }
    const delivery = page.locator('.deliveries tr[data-delivery-id]').first();
    expect(await delivery.textContent())
      .to.include('ping')
      .and.include('delivered');

    const [ping] = receiver.ofType('ping');
    expect(ping, 'the receiver got the ping').to.not.equal(undefined);
    expect(WebhookReceiver.verifies(secret, ping)).to.equal(true);
    expect(await delivery.textContent()).to.include(ping.id);
    expect(browser.problems.filter((p) => !/status of 4\d\d/.test(p))).to.deep.equal([]);
  });
});
