import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing } from '../../scripts/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed requests the page produced (a CSP refusal shows here). */
  problems: string[];
  close(): Promise<void>;
}

/**
 * Debian's headless Chromium with a fresh profile (no cookie or cache of another run). Throws the
 * reason when Chromium is not installed: a browser test must fail, never skip, without one.
 */
export async function launchBrowser(viewport = DESKTOP, opts: { mobile?: boolean } = {}): Promise<Browser> {
  const missing = chromiumMissing();
  if (missing) throw new Error(`Cannot run the browser tests: ${missing}`);
  const profile = mkdtempSync(join(tmpdir(), 'odds-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    deviceScaleFactor: opts.mobile ? 2 : 1,
    isMobile: opts.mobile ?? false,
    hasTouch: opts.mobile ?? false,
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until `expression` is true in the page, evaluating it from here every 100 ms. Playwright's
 * waitForFunction re-evaluates a string predicate inside the page with eval once it has to poll,
 * which the dashboard's CSP (script-src 'self') refuses: it passed only when the first check held.
 */
export async function pageUntil(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting in the page for: ${expression}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
