import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createApp } from '../../api/app';
import { commitRecommendations } from '../../shared/app/commitments/commit';
import { connectMongo } from '../../shared/platform/db/mongo';
import { processContext } from '../../shared/app/processContext';
import { settleEvent } from '../../shared/app/settlement/settleEvent';
import { serve, type TestServer } from '../helpers/api';
import { launchBrowser, pageUntil, PHONE, type Browser } from '../helpers/browser';
import { ledgerConsumerForThisSuite } from '../helpers/ledgerConsumer';
import { createEvent, createRecommendations } from '../helpers/settlementFixtures';

/**
 * The dashboard in a real browser (Debian's Chromium, headless) against the real web app and
 * account API: what a developer does in their first minute, from sign-up to a first API call and
 * back, on a laptop and on a phone.
 */
describe('dashboard in Chromium', function () {
  // Usage is read from the ledger, which the consumer writes (the settlement process in the service).
  ledgerConsumerForThisSuite();
  this.timeout(180_000);
  let api: TestServer;
  let browser: Browser | undefined;
  const email = `dash-${Date.now()}-${process.pid}@example.com`;
  const password = 'correct horse battery staple 14';
  let secret = '';

  before(async () => {
    await connectMongo();
    api = await serve(createApp());
  });
  after(async () => {
    await browser?.close();
    await api?.close();
  });

  const callMatches = (key: string) => fetch(`${api.url}/v2/matches?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
  /**
   * Problems other than the API's deliberate refusals (Chromium logs each 4xx: the first account
   * check before sign-in, the weak password): a script error or a CSP refusal remains.
   */
  const unexpected = (b: Browser) => b.problems.filter((p) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(p));
  const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim() ?? '';
  /** Signs the test's account in, landing on its overview. */
  const signIn = async (page: Page) => {
    await page.goto(`${api.url}/dashboard#/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  };

  it('happy: the page is served with its own files only, under a CSP that forbids inline script', async () => {
    const res = await fetch(`${api.url}/dashboard`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'");
    expect(csp).to.not.include('unsafe-inline');
    const html = await res.text();
    expect(html).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).to.not.match(/https?:\/\//); // nothing from another origin
    const asset = await fetch(`${api.url}/dashboard/js/main.js`);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('content-type')).to.match(/javascript/);
  });

  it('happy: sign up, create a key, call /v2/matches with it, see usage and balance, revoke, sign out', async () => {
    browser = await launchBrowser();
    const { page } = browser;
    const started = Date.now();
    await page.goto(`${api.url}/dashboard`);
    // Not signed in: the sign-in page, with the way to sign up.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    // A weak password is refused with the API's own message, next to the form.
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).to.match(/password/i);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).to.equal('true');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // A new account lands on its keys, with 500 free credits in the header.
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await text(page, '#header-balance')).to.equal('500 credits');
    expect(await text(page, '#header-email')).to.equal(email);
    await page.getByText('No keys yet').waitFor();

    await page.getByLabel('Name').fill('laptop script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('#new-key');
    await shown.waitFor();
    secret = (await shown.textContent()) ?? '';
    expect(secret).to.match(/^sk_live_[0-9A-Za-z]{32}$/);
    const row = page.locator('.keys-table tbody tr', { hasText: 'laptop script' });
    await row.waitFor();
    expect(await row.textContent()).to.include(secret.slice(0, 14)); // the prefix, never the whole secret
    expect(await row.textContent()).to.not.include(secret);

    // The overview's quick start carries the new key.
    await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click();
    await page.locator('.codeblock code', { hasText: secret }).waitFor();

    const res = await callMatches(secret);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-credits-remaining')).to.equal('499');
    const firstCall = Date.now() - started;

    // Usage is counted as the request's debit reaches the ledger (asynchronously; seconds, more on
    // a busy CI runner): the page shows it once it is there, and a user reloads to see it.
    await page.getByRole('navigation').getByRole('link', { name: 'Usage' }).click();
    const chartBar = page.locator('#usage-chart svg rect').first();
    for (let tries = 0; ; tries++) {
      try {
        await chartBar.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (tries >= 8) throw err;
        await page.reload();
        await page.getByRole('navigation').getByRole('link', { name: 'Usage' }).click();
      }
    }
    expect(await text(page, '#usage-requests')).to.equal('1');
    expect(await page.locator('.legend').textContent()).to.include('/matches');
    expect(await page.locator('#usage-chart svg title').first().textContent()).to.match(/\/matches: 1 request$/);
    await page.getByText('Show as a table').click();
    expect(await page.locator('.usage-table tbody tr').count()).to.equal(1);

    await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click();
    await page.locator('#balance[data-balance="499"]').waitFor();
    expect(await text(page, '#header-balance')).to.equal('499 credits');

    await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
    await page.locator('.keys-table tbody tr', { hasText: 'laptop script' }).getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet').waitFor();
    expect((await callMatches(secret)).status).to.equal(401);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('You are signed out.').waitFor();
    expect(await page.locator('#session').isHidden()).to.equal(true);
    // The session is over on the server too: a reload stays signed out.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
    expect(firstCall, 'sign-up to first successful API call').to.be.below(30_000);
    process.stderr.write(`      (page load to first successful API call with the new key: ${firstCall} ms, typing at machine speed)\n`);
  });

  it('happy: the track record page shows the settled record and its three server-rendered charts from the same answer, over all time, with the chain head', async () => {
    // A settled bet of its own, so the record is never empty whatever ran before.
    const start = new Date(Date.now() - 4 * 3600_000);
    const eventId = await createEvent({ start });
    const ids = await createRecommendations(eventId, [{ key: 'dash', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.1, createdAt: new Date(start.getTime() - 24 * 3600_000) }]);
    await commitRecommendations(processContext(), ids, { id: eventId, home: 'Home FC', away: 'Away FC', competition: 'League', startAt: start });
    await settleEvent(processContext(), eventId);

    await browser?.close();
    browser = await launchBrowser();
    const { page } = browser;
    const reads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/track-record')) reads.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await signIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Track record' }).click();
    await page.getByRole('heading', { name: 'Track record' }).waitFor();
    await page.locator('#track-bets').waitFor();
    expect(await page.getByRole('button', { name: 'All time' }).getAttribute('aria-pressed')).to.equal('true');
    // Three images, each a chart the server drew in the same answer as the figures, loaded (an image that failed has no natural width).
    await pageUntil(page, "[...document.querySelectorAll('img.chart-img')].length === 3 && [...document.querySelectorAll('img.chart-img')].every((i) => i.complete && i.naturalWidth > 0)");
    const ALL = '/v2/account/track-record?days=all&per=recommendation';
    expect(reads, 'one read of the record, no chart fetched apart').to.deep.equal([ALL]);
    // The page shows what the account API serves for the same window (all, every recommendation).
    const served = await page.evaluate<{ bets: number; head: { hash: string } }>(`fetch('${ALL}').then((r) => r.json())`);
    expect(served.bets).to.be.at.least(1);
    expect(await text(page, '#track-bets')).to.equal(served.bets.toLocaleString('en-US'));
    expect(await text(page, '#track-head')).to.include(served.head.hash);
    const charts = () =>
      page.evaluate<[string, number, string][]>(
        "[...document.querySelectorAll('img.chart-img')].map((i) => [i.dataset.kind, i.naturalWidth, decodeURIComponent(i.src.slice(i.src.indexOf(',') + 1))])",
      ); // runs in the page (no DOM types here)
    const drawn = await charts();
    expect(drawn.map(([kind, width]) => [kind, width])).to.deep.equal([
      ['cumulative', 640],
      ['clv', 640],
      ['calibration', 640],
    ]);
    // Said as all, and the bets the headline counts are the bets the charts draw.
    for (const [kind, , svg] of drawn) expect(svg, kind).to.include(`<desc>all time, ${served.bets} settled bets</desc>`);
    // Counting the first bet per outcome reloads the figures and the charts with per=outcome, in one read again.
    await page.getByRole('button', { name: 'First per outcome' }).click();
    await pageUntil(page, "[...document.querySelectorAll('img.chart-img')].every((i) => decodeURIComponent(i.src).includes('first bet per outcome') && i.complete && i.naturalWidth > 0)");
    expect(reads, "the page's reads and this test's own").to.deep.equal([ALL, ALL, '/v2/account/track-record?days=all&per=outcome']);
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
  });

  it('happy: billing: save a test card, buy a package with it, turn on auto-recharge (a threshold not below the package refused)', async () => {
    await browser?.close();
    browser = await launchBrowser();
    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing' }).waitFor();
    await page.getByText('No card saved yet').waitFor();
    await page.getByLabel(/Test card/).selectOption('pm_card_mastercard');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByText('Saved: pm_card_mastercard').waitFor();

    // Bought through the test gateway: test credits, shown apart; the live balance does not move.
    const before = Number((await text(page, '#billing-balance')).replace(/,/g, ''));
    const beforeTest = Number((await text(page, '#billing-test-balance')).replace(/,/g, ''));
    await page.locator('button[data-package="20000"]').click();
    await page.locator('#buy-status', { hasText: 'Added 20,000 credits' }).waitFor();
    expect(Number((await text(page, '#billing-test-balance')).replace(/,/g, ''))).to.equal(beforeTest + 20000);
    expect(await page.locator('#billing-test-balance-line').isVisible()).to.equal(true);
    expect(Number((await text(page, '#billing-balance')).replace(/,/g, ''))).to.equal(before);

    await page.locator('#ar-package').selectOption('20000');
    await page.locator('#ar-threshold').fill('20000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.locator('#ar-status', { hasText: 'below the package' }).waitFor();
    await page.locator('#ar-threshold').fill('5000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.locator('#ar-state', { hasText: 'when your balance falls below 5,000' }).waitFor();
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
  });

  it('happy: on a phone (390x844) every page fits the screen and the usage chart is drawn', async () => {
    await browser?.close();
    browser = await launchBrowser(PHONE, { mobile: true });
    const { page } = browser;
    await signIn(page);
    for (const view of ['overview', 'keys', 'usage', 'billing', 'track-record']) {
      await page.goto(`${api.url}/dashboard#/${view}`);
      await page.locator(`main[data-view="${view}"]`).waitFor();
      if (view === 'usage') {
        const chart = page.locator('#usage-chart svg');
        await chart.waitFor();
        expect(await chart.evaluate((el) => el.getBoundingClientRect().width)).to.be.within(250, PHONE.width);
      }
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'); // runs in the page (no DOM types here)
      expect(overflow, `${view} scrolls sideways`).to.be.at.most(0);
    }
    expect(unexpected(browser)).to.deep.equal([]);
  });
});
