/**
 * `npm run screenshots`: starts the local services and the web app on a database and Redis prefix
 * of its own, drives the dashboard in headless Chromium as a new developer would (sign up, create
 * a key, call the API with it, look at usage, billing), and writes a PNG of each page to
 * docs/screenshots/ (desktop 1280x800, and the phone pages at 390x844). Removes its data after.
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
import { closeQueues } from '../jobs/client';
import { setEnvForChildren } from '../shared/platform/config';
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
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

async function desktop(url: string, email: string, password: string): Promise<void> {
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
      await page.getByText(mode === 'test' ? 'Test' : 'Live', { exact: true }).click();
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
  } finally {
    await browser.close();
  }
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
    const server = await listen(createApp(), 0, '127.0.0.1');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const email = 'ada@example.com';
      const password = 'correct horse battery staple';
      await desktop(url, email, password);
      await phone(url, email, password);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
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
