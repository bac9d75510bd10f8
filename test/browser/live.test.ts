import { expect } from 'chai';
import { processContext } from '../../shared/app/processContext';
import type { Page } from 'playwright-core';
import { createApp } from '../../api/app';
import { endSession } from '../../shared/app/accounts/sessions';
import { endAllStreams } from '../../shared/app/stream/session';
import { setEnvForChildren } from '../../shared/platform/config';
import { connectMongo } from '../../shared/platform/db/mongo';
import { key, redis } from '../../shared/platform/db/redis';
import { appendChanges, type Change } from '../../shared/platform/feed/changeFeed';
import { serve, type TestServer } from '../helpers/api';
import { launchBrowser, pageUntil, PHONE, type Browser } from '../helpers/browser';

const EVENT = '8820001';
const ITEM = `${EVENT}-SOCCER_MATCH_RESULT-1`;
let seq = 0;
const at = () => new Date(Date.UTC(2026, 10, 27, 15, 0, 0) + seq++ * 1000);
const price = (p: number): Change => ({ eventId: EVENT, kind: 'price', at: at(), data: { items: [{ id: ITEM, price: p, isAvailable: true }] }, provider: 'simulated' });
const score = (home: number, away = 0): Change => ({
  eventId: EVENT,
  kind: 'score',
  at: at(),
  data: { homeGoals: home, awayGoals: away, phase: 'FIRST_HALF', elapsedSeconds: 1260 },
  provider: 'simulated',
});
const recommendation: () => Change = () => ({
  eventId: EVENT,
  kind: 'recommendation',
  at: at(),
  data: { recommendationId: 'rec-live-1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', outcome: 'Home', bookmaker: 'pinnacle', odds: 2.3, edgePercentage: 4.2, confidence: 'high' },
});
const settled: () => Change = () => ({
  eventId: EVENT,
  kind: 'settled',
  at: at(),
  data: { resultVersion: 1, recommendations: { settled: 3, corrected: 0, confirmed: 0, errors: 0 }, picks: { settled: 0, corrected: 0, legs: 0, errors: 0 } },
});
const append = (changes: Change[]) => appendChanges('live-page-test', `live-${seq++}`, changes);
/** What a flushed Redis does to the change feed: this file's feed (the Redis stream under its prefix) is gone. */
async function flushFeed(): Promise<void> {
  for (const k of await redis().keys(key('*'))) if (k.includes('feed') && (await redis().type(k)) === 'stream') await redis().del(k);
}

/**
 * The dashboard's Live page in Chromium against the real app: the browser's EventSource on
 * /v2/account/stream with the session cookie, changes appended to the change feed from here
 * appearing on the page (odds old → new, scores, recommendations, settlements), the connection's
 * states (connected, reconnecting, snapshot required), channel toggles, the capped lists, and the
 * stream ending with the session.
 */
describe('dashboard: the Live page in Chromium', function () {
  this.timeout(120_000);
  let api: TestServer;
  let browser: Browser | undefined;
  const email = `live-${Date.now()}-${process.pid}@example.com`;
  const password = 'correct horse battery staple 24';

  before(async () => {
    await connectMongo();
    setEnvForChildren({ STREAM_POLL_MS: '100', STREAM_HEARTBEAT_MS: '500' });
    api = await serve(createApp());
  });
  after(async () => {
    await browser?.close();
    await api?.close();
  });

  /** Script errors and CSP refusals; Chromium's line for each deliberate 4xx of the API is not one. */
  const unexpected = (b: Browser) => b.problems.filter((p) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(p));
  const rows = (page: Page, channel: string) => page.locator(`#live-list-${channel} > li.live-row`);
  const state = (page: Page, value: string) => page.locator(`#live-status[data-state="${value}"]`).waitFor();

  it('security: signed out, the stream is a 401 and the Live page shows the sign-in', async () => {
    const res = await fetch(`${api.url}/v2/account/stream`, { headers: { Accept: 'text/event-stream' } });
    expect(res.status).to.equal(401);
    expect(await res.json()).to.deep.include({ statusCode: 401, code: 'not_signed_in' });
    browser = await launchBrowser();
    const { page } = browser;
    await page.goto(`${api.url}/dashboard#/live`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#live-status').count()).to.equal(0);
  });

  it('happy: signed in, the Live page shows each change as it is stored: odds old → new, scores, recommendations, settlements', async () => {
    await browser?.close();
    browser = await launchBrowser();
    const { page } = browser;
    await page.goto(`${api.url}/dashboard#/signup`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Live' }).click();
    await page.getByRole('heading', { name: 'Live', exact: true }).waitFor();
    await state(page, 'connected');
    expect(await page.locator('#live-status').textContent()).to.equal('Connected');

    await append([price(2.0)]);
    await rows(page, 'odds').first().waitFor();
    expect(await rows(page, 'odds').first().textContent())
      .to.include('Match Result · Home')
      .and.include('2.00');
    await append([price(2.25)]);
    const moved = rows(page, 'odds').first().locator('.move-up');
    await moved.waitFor();
    expect(await moved.locator('.move-old').textContent()).to.equal('2.00');
    expect(await moved.locator('.move-new').textContent()).to.equal('2.25');
    await append([price(1.95)]);
    await rows(page, 'odds').first().locator('.move-down', { hasText: '1.95' }).waitFor();

    await append([score(1, 0)]);
    await rows(page, 'scores').first().locator('.score', { hasText: '1 – 0' }).waitFor();
    expect(await rows(page, 'scores').first().textContent())
      .to.include(`Event ${EVENT}`)
      .and.include('21′');
    await append([recommendation()]);
    await rows(page, 'recommendations').first().waitFor();
    expect(await rows(page, 'recommendations').first().textContent())
      .to.include('Home')
      .and.include('@ 2.30')
      .and.include('edge 4.2 %');
    await append([settled()]);
    await rows(page, 'settlements').first().waitFor();
    expect(await rows(page, 'settlements').first().textContent()).to.include('Settled: 3 recommendations graded');
    expect(await rows(page, 'odds').count()).to.equal(3);
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
  });

  it('happy: a channel toggled off is not streamed; each list keeps its latest 20 rows', async () => {
    if (!browser) throw new Error('the previous test opened no browser');
    const { page } = browser;
    await page.getByRole('button', { name: 'Odds', exact: true }).click();
    expect(await page.getByRole('button', { name: 'Odds', exact: true }).getAttribute('aria-pressed')).to.equal('false');
    expect(await page.locator('section.live-card[data-channel="odds"]').isHidden()).to.equal(true);
    await state(page, 'connected');
    const oddsBefore = await rows(page, 'odds').count();
    await append([price(3.5), score(2, 0)]);
    await rows(page, 'scores').first().locator('.score', { hasText: '2 – 0' }).waitFor();
    await new Promise((r) => setTimeout(r, 300));
    expect(await rows(page, 'odds').count()).to.equal(oddsBefore);
    expect(await page.locator('#live-list-odds').textContent()).to.not.include('3.50');
    await page.getByRole('button', { name: 'Odds', exact: true }).click();
    await state(page, 'connected');

    await append(Array.from({ length: 25 }, (_, i) => score(10 + i)));
    await rows(page, 'scores').first().locator('.score', { hasText: '34 – 0' }).waitFor();
    expect(await rows(page, 'scores').count()).to.equal(20);
    expect(await rows(page, 'scores').last().textContent()).to.include('15 – 0');
  });

  it('happy: a dropped connection shows reconnecting and resumes with Last-Event-ID (nothing missed); an id the feed cannot replay (a flushed feed) shows snapshot required and the page starts again from now', async () => {
    if (!browser) throw new Error('the previous test opened no browser');
    const { page } = browser;
    // What a web process restart does: its streams end; EventSource reconnects after 2 s by itself.
    endAllStreams();
    await state(page, 'reconnecting');
    await append([score(5, 5)]);
    await state(page, 'connected');
    await rows(page, 'scores').first().locator('.score', { hasText: '5 – 5' }).waitFor();
    await new Promise((r) => setTimeout(r, 300));
    // Once each, right after the last score shown before the drop.
    expect(await page.locator('#live-list-scores .score', { hasText: '5 – 5' }).count()).to.equal(1);
    expect(await rows(page, 'scores').nth(1).locator('.score').textContent()).to.equal('34 – 0');

    // While it reconnects the feed is flushed (what a flushed Redis does): its last id can no longer be
    // replayed, and the server answers snapshot_required (trimmed) first.
    endAllStreams();
    await state(page, 'reconnecting');
    await flushFeed();
    await append([price(2.6)]);
    await state(page, 'snapshot');
    await page.locator('#live-notice', { hasText: 'could not be replayed (trimmed)' }).waitFor();
    await page.locator('#live-list-scores > li.live-gap[data-reason="trimmed"]').waitFor();
    // The page forgot the prices it held: the next move shows its new price alone, no stale old one.
    await append([price(2.7)]);
    await rows(page, 'odds').first().locator('.move-new', { hasText: '2.70' }).waitFor();
    expect(await rows(page, 'odds').first().locator('.move-old').count()).to.equal(0);
    // The stream goes on live after it: the next change appears, and the page says it is connected again.
    await append([score(6, 5)]);
    await rows(page, 'scores').first().locator('.score', { hasText: '6 – 5' }).waitFor();
    await state(page, 'connected');
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
  });

  it('happy: on a phone (390x844) the Live page fits the screen', async () => {
    const phone = await launchBrowser(PHONE, { mobile: true });
    try {
      const { page } = phone;
      await page.goto(`${api.url}/dashboard#/signin`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.goto(`${api.url}/dashboard#/live`);
      await state(page, 'connected');
      await append([price(2.4), score(7, 5)]);
      await rows(page, 'scores').first().locator('.score', { hasText: '7 – 5' }).waitFor();
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'); // runs in the page (no DOM types here)
      expect(overflow, 'live scrolls sideways').to.be.at.most(0);
    } finally {
      await phone.close();
    }
  });

  it('security: when the session ends (signed out elsewhere), the stream ends and the page shows the sign-in', async () => {
    if (!browser) throw new Error('the previous test opened no browser');
    const { page } = browser;
    await page.goto(`${api.url}/dashboard#/live`);
    await state(page, 'connected');
    const cookie = (await browser.context.cookies()).find((c) => c.name === 'odds_session');
    expect(cookie, 'the session cookie').to.not.equal(undefined);
    await endSession(processContext(), cookie?.value);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session has ended.').waitFor();
    await pageUntil(page, "document.getElementById('live-status') === null");
    expect(unexpected(browser), 'console errors, page errors or CSP refusals').to.deep.equal([]);
  });
});
