/**
 * `npm run screenshots`: starts the local services and the web app on a database and Redis prefix
 * of its own, drives the dashboard in headless Chromium as a new developer would (sign up, create
 * a key, call the API with it, look at usage, billing, the Live page fed with changes), and writes
 * a PNG of each page to docs/screenshots/ (desktop 1280x800, and the phone pages at 390x844).
 * Removes its data after.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import mongoose from 'mongoose';
import type { Page } from 'playwright-core';
import { createApp } from '../api/app';
import { listen } from '../api/server';
import { closeQueues } from '../shared/platform/queues/client';
import { startLedgerConsumer } from '../shared/platform/billing/ledgerConsumer';
import { drainMetering } from '../shared/app/billing/metering';
import { setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { appendChanges, type Change } from '../shared/platform/feed/changeFeed';
import { closeAllRedis } from '../shared/platform/db/redis';
import { DESKTOP, launchBrowser, PHONE } from '../test/helpers/browser';
import { deleteKeysOfThisRun } from '../test/helpers/redisKeys';
import { ensureChromium } from './chromium';
import { startLocalServices } from './services';

const OUT = resolve(__dirname, '..', 'docs', 'screenshots');
const say = (msg: string) => process.stderr.write(`[screenshots] ${msg}\n`);

/** A spread of endpoints and counts, so the usage chart shows what a real integration's looks like. */
const CALLS: [string, number][] = [
  ['/v2/matches?limit=5', 14],
  ['/v2/matches/live', 6],
  ['/v2/teams', 4],
  ['/v2/ai/betting-recommendations', 5],
  ['/v2/ai/value-opportunities', 2],
  ['/v2/ai/featured-picks', 1],
];

async function shot(page: Page, name: string): Promise<void> {
  // Fonts and the chart settle after the view's requests; wait for them rather than for time.
  await page.waitForLoadState('networkidle');
  await page.evaluate('document.fonts.ready');
  // The passing notice ("Welcome!", "Key revoked") would sit over the page in a full-page shot.
  await page.evaluate("document.getElementById('toast').hidden = true; window.scrollTo(0, 0)");
  const file = join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  say(`wrote ${file}`);
}

async function desktop(url: string, email: string, password: string, ledgerWritten: () => Promise<void>): Promise<void> {
  const browser = await launchBrowser(DESKTOP);
  try {
    const { page } = browser;
    await page.goto(`${url}/dashboard#/signup`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await shot(page, 'signup');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();

    for (const [name, mode] of [
      ['staging', 'test'],
      ['production server', 'live'],
    ]) {
      await page.getByLabel('Name').fill(name);
      await page
        .locator('#main')
        .getByText(mode === 'test' ? 'Test' : 'Live', { exact: true })
        .click();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('.keys-table tbody tr', { hasText: name }).waitFor();
    }
    const key = (await page.locator('#new-key').textContent()) ?? '';
    await shot(page, 'keys');

    for (const [path, times] of CALLS) {
      for (let i = 0; i < times; i++) {
        const res = await fetch(url + path, { headers: { Authorization: `Bearer ${key}` } });
        if (res.status !== 200) say(`${path} answered ${res.status}`);
        await res.arrayBuffer();
      }
    }

    // Usage is read from the ledger, which the consumer writes (the settlement process in the service).
    await ledgerWritten();
    await page.goto(`${url}/dashboard#/overview`);
    await page.locator('#balance').waitFor();
    await shot(page, 'overview');
    await page.goto(`${url}/dashboard#/usage`);
    await page.locator('#usage-chart svg').waitFor();
    // A new account's usage is one day: a week shows it better than a month of empty days.
    await page.getByRole('button', { name: '7 days' }).click();
    await page.locator('#usage-chart svg').waitFor();
    await page.getByText('Show as a table').click();
    await shot(page, 'usage');
    await page.goto(`${url}/dashboard#/billing`);
    await page.getByRole('heading', { name: 'Buy credits' }).waitFor();
    // A card first: purchases and auto-recharge charge only the card saved on the account.
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByText('Saved: pm_card_visa').waitFor();
    await page.locator('button[data-package="100000"]').click();
    await page.locator('#buy-status .alert').waitFor();
    await page.getByLabel('When the balance falls below').fill('2000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'Turn off' }).waitFor();
    await shot(page, 'billing');
    await live(page);
  } finally {
    await browser.close();
  }
}

/** Changes as the ingest, AI and settlement workers store them, for the Live page to show. */
function liveChanges(step: number): Change[] {
  const at = new Date(Date.UTC(2026, 10, 27, 15, 20, step));
  const item = (eventId: string, code: string) => `${eventId}-SOCCER_MATCH_RESULT-${code}`;
  const prices: [string, string, number][] = [
    ['7100001', '1', 2.1 - step * 0.05],
    ['7100001', '2', 3.6 + step * 0.1],
    ['7100002', 'X', 3.25 + (step % 2 ? 0.05 : -0.05)],
  ];
  return [
    ...prices.map(([eventId, code, price]): Change => ({
      eventId,
      kind: 'price',
      at,
      data: { items: [{ id: item(eventId, code), price: Math.round(price * 100) / 100, isAvailable: true }] },
      provider: 'simulated',
    })),
    { eventId: '7100002', kind: 'score', at, data: { homeGoals: Math.floor(step / 2), awayGoals: step > 2 ? 1 : 0, phase: 'SECOND_HALF', elapsedSeconds: 3000 + step * 240 }, provider: 'simulated' },
  ];
}

async function live(page: Page): Promise<void> {
  await page.goto(`${page.url().split('#')[0]}#/live`);
  await page.locator('#live-status[data-state="connected"]').waitFor();
  for (let step = 0; step < 4; step++) await appendChanges('screenshots', `live-${step}`, liveChanges(step));
  await appendChanges('screenshots', 'live-ai', [
    {
      eventId: '7100003',
      kind: 'recommendation',
      at: new Date(Date.UTC(2026, 10, 27, 15, 21)),
      data: { recommendationId: 'shot-1', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', outcome: 'Home', bookmaker: 'pinnacle', odds: 2.05, edgePercentage: 3.8, confidence: 'medium' },
    },
    { eventId: '7100005', kind: 'status', at: new Date(Date.UTC(2026, 10, 27, 15, 21, 30)), data: { status: 'live', previous: 'upcoming', voided: false }, provider: 'simulated' },
    {
      eventId: '7100004',
      kind: 'settled',
      at: new Date(Date.UTC(2026, 10, 27, 15, 22)),
      data: { resultVersion: 1, recommendations: { settled: 4, corrected: 0, confirmed: 0, errors: 0 }, picks: { settled: 1, corrected: 0, legs: 2, errors: 0 } },
    },
  ]);
  await page.locator('#live-list-settlements > li').waitFor();
  await page.locator('#live-list-scores > li').nth(3).waitFor();
  await shot(page, 'live');
}

async function phone(url: string, email: string, password: string): Promise<void> {
  const browser = await launchBrowser(PHONE, { mobile: true });
  try {
    const { page } = browser;
    await page.goto(`${url}/dashboard#/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await shot(page, 'phone-overview');
    await page.goto(`${url}/dashboard#/usage`);
    await page.locator('#usage-chart svg').waitFor();
    await page.getByRole('button', { name: '7 days' }).click();
    await page.locator('#usage-chart svg').waitFor();
    await shot(page, 'phone-usage');
    await page.goto(`${url}/dashboard#/keys`);
    await page.locator('.keys-table').waitFor();
    await shot(page, 'phone-keys');
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const missing = ensureChromium();
  if (missing) throw new Error(missing);
  mkdirSync(OUT, { recursive: true });
  const local = await startLocalServices();
  const runId = randomBytes(4).toString('hex');
  setEnvForChildren({ ...local.env, MONGODB_DB: `odds_screenshots_${runId}`, REDIS_PREFIX: `screenshots-${runId}`, LOG_LEVEL: 'warn' });
  try {
    await connectMongo();
    const ledger = startLedgerConsumer({ blockMs: 200 });
    const server = await listen(createApp(), 0, '127.0.0.1');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const email = 'ada@example.com';
      const password = 'correct horse battery staple';
      await desktop(url, email, password, async () => {
        await drainMetering();
        await ledger.drained();
      });
      await phone(url, email, password);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ledger.stop();
      await mongoose.connection.db?.dropDatabase();
      await deleteKeysOfThisRun();
      await closeQueues();
      await closeAllRedis();
      await disconnectMongo();
    }
  } finally {
    await local.stop();
  }
}

main()
  .then(() => process.exit(0))
  .catch((err) => failEntry('screenshots failed', err));
