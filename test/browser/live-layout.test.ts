import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createApp } from '../../api/app';
import { setEnvForChildren } from '../../shared/platform/config';
import { connectMongo } from '../../shared/platform/db/mongo';
import { appendChanges, type Change } from '../../shared/platform/feed/changeFeed';
import { serve, type TestServer } from '../helpers/api';
import { launchBrowser, PHONE, type Browser } from '../helpers/browser';
import { COMPETITIONS, insertEvents, TEAMS } from '../helpers/fixtures';

/** An id as long as the demo's, and the longest team names of a real fixture list. */
const EVENT = '704200003249473';
const HOME = 'Borussia Mönchengladbach';
const AWAY = 'Wolverhampton Wanderers';
/** A fixture team of the Premier League under another name. */
const named = (t: typeof TEAMS.arsenal | typeof TEAMS.chelsea, name: string) => ({ ...t, name: { en: name, es: name, pt: name } });
const item = (key: string, price: number, isAvailable = true) => ({ id: `${EVENT}-${key}`, price, isAvailable });
let seq = 0;
const at = () => new Date(Date.UTC(2026, 10, 27, 15, 0, 0) + seq++ * 1000);
const price = (items: ReturnType<typeof item>[]): Change => ({ eventId: EVENT, kind: 'price', at: at(), data: { items }, provider: 'simulated' });
const append = (changes: Change[]) => appendChanges('live-layout-test', `layout-${seq++}`, changes);

/** Elements of the Live page's lists whose content is wider than their box, and prices or labels drawn outside their card: what a reader would see cut. */
const CUT = `(() => {
  const cut = [];
  for (const card of document.querySelectorAll('section.live-card:not([hidden])')) {
    const box = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('li, .live-what, .live-event, .live-time, .move, .move-item')) {
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'inline') cut.push(el.className + ': ' + el.textContent);
    }
    for (const el of card.querySelectorAll('.move-prices, .move-off, .move-new, .live-event, .score')) {
      const r = el.getBoundingClientRect();
      if (r.left < box.left || r.right > box.right) cut.push(el.className + ' outside its card: ' + el.textContent);
    }
  }
  return cut;
})()`;

/**
 * The Live page with the demo's data (long ids, long team names, several markets with lines,
 * suspended prices) in Chromium: rows name the match and the markets, times say their clock, the
 * odds are never cut at 1280 px, and a 390 px phone never scrolls sideways.
 */
describe('dashboard: the Live page names matches and markets and fits its screen (Chromium)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let browser: Browser | undefined;
  const email = `live-layout-${Date.now()}-${process.pid}@example.com`;
  const password = 'correct horse battery staple 35';

  before(async () => {
    await connectMongo();
    await insertEvents({ id: EVENT, competition: COMPETITIONS.premierLeague, home: named(TEAMS.arsenal, HOME), away: named(TEAMS.chelsea, AWAY), start: '2026-11-27T14:00:00Z' });
    setEnvForChildren({ STREAM_POLL_MS: '100', STREAM_HEARTBEAT_MS: '500' });
    api = await serve(createApp());
  });
  after(async () => {
    await browser?.close();
    await api?.close();
  });

  const rows = (page: Page, channel: string) => page.locator(`#live-list-${channel} > li.live-row`);

  /** Signs in (signing up first the first time) and opens the Live page, connected. */
  async function openLive(page: Page, signUp: boolean): Promise<void> {
    await page.goto(`${api.url}/dashboard#/${signUp ? 'signup' : 'signin'}`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: signUp ? 'Create account' : 'Sign in' }).click();
    await page.getByRole('heading', { name: signUp ? 'API keys' : 'Overview' }).waitFor();
    await page.goto(`${api.url}/dashboard#/live`);
    await page.locator('#live-status[data-state="connected"]').waitFor();
  }

  /** What the demo streams: prices of several markets, one moved, some suspended; a score; a recommendation. */
  async function demoChanges(page: Page): Promise<void> {
    const first = [item('SOCCER_UNDER_OVER@1.5-O', 1.33), item('SOCCER_UNDER_OVER@1.5-U', 3.25), item('SOCCER_MATCH_RESULT-1', 2.1), item('SOCCER_MATCH_RESULT-X', 3.4, false)];
    await append([price(first)]);
    await rows(page, 'odds').first().waitFor();
    await append([
      price([item('SOCCER_UNDER_OVER@1.5-O', 1.36, false), item('SOCCER_UNDER_OVER@1.5-U', 3.1, false), item('SOCCER_ASIAN_HANDICAP@-0.25-2', 1.95), item('SOCCER_MATCH_RESULT-2', 3.75, false)]),
      { eventId: EVENT, kind: 'score', at: at(), data: { homeGoals: 1, awayGoals: 0, phase: 'FIRST_HALF', elapsedSeconds: 1260 }, provider: 'simulated' },
      {
        eventId: EVENT,
        kind: 'recommendation',
        at: at(),
        data: { recommendationId: 'rec-layout-1', betItemId: `${EVENT}-SOCCER_UNDER_OVER@1.5-O`, outcome: 'Over', bookmaker: 'pinnacle', odds: 1.36, edgePercentage: 3.1 },
      },
    ]);
    await rows(page, 'odds').nth(1).waitFor();
    await rows(page, 'scores').first().waitFor();
    await rows(page, 'recommendations').first().waitFor();
  }

  it('happy: at 1280 px rows name the match and each market, times say they are the world clock in UTC, and no price or "suspended" is cut', async () => {
    browser = await launchBrowser();
    const { page } = browser;
    await openLive(page, true);
    await demoChanges(page);

    const odds = (await rows(page, 'odds').first().textContent()) ?? '';
    expect(odds)
      .to.include(`${HOME} v ${AWAY}`)
      .and.include('Total Goals Over/Under 1.5 · Over 1.5')
      .and.include('1.33 → 1.36')
      .and.include('suspended')
      .and.include('Asian Handicap -0.25 · Away +0.25');
    expect(odds).to.not.match(/#\d|under over|SOCCER_/);
    expect(await rows(page, 'scores').first().textContent()).to.include(`${HOME} v ${AWAY}`);
    expect(await rows(page, 'recommendations').first().textContent())
      .to.include('Total Goals Over/Under 1.5 · Over 1.5')
      .and.include('@ 1.36');
    expect(await page.locator('#live-clock').textContent())
      .to.match(/world clock/)
      .and.match(/UTC/);
    expect(await rows(page, 'odds').first().locator('time').getAttribute('datetime')).to.match(/^2026-11-27T15:00:0\d\.000Z$/);
    expect(await page.evaluate<string[]>(CUT), 'cut at 1280 px').to.deep.equal([]);
  });

  it('happy: on a 390x844 phone the Live page with the same rows does not scroll sideways and cuts nothing', async () => {
    const phone = await launchBrowser(PHONE, { mobile: true });
    try {
      const { page } = phone;
      await openLive(page, false);
      await demoChanges(page);
      const width = await page.evaluate<{ scroll: number; client: number; body: number }>(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, body: document.body.scrollWidth })',
      );
      expect(width.client).to.equal(390);
      expect(width.scroll, 'the page scrolls sideways').to.be.at.most(width.client);
      expect(width.body, 'the body is wider than the screen').to.be.at.most(width.client);
      expect(await page.evaluate<string[]>(CUT), 'cut at 390 px').to.deep.equal([]);
    } finally {
      await phone.close();
    }
  });
});
