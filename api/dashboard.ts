import { join, resolve } from 'node:path';
import express, { Router } from 'express';

/** The dashboard's files: plain HTML, CSS and ES modules, served as they are (no build step, no CDN). */
export const DASHBOARD_DIR = resolve(__dirname, '..', 'dashboard');

/**
 * Only the page's own files may run or load: no inline script or style, no other origin, no
 * framing. The page talks to /v2/account on the same origin with its session cookie, so a script
 * injected from elsewhere is the one thing that could act as the user; this policy refuses it.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /dashboard: the developer dashboard (sign up, keys, usage, billing) over the account API. */
export function dashboardRouter(): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    // Small files that change with each deploy: revalidate rather than serve a stale module graph.
    res.setHeader('Cache-Control', 'no-cache');
    next();
  });
  // The page's own URLs are absolute, so /dashboard is served as it is (no redirect to /dashboard/).
  router.get('/', (_req, res) => res.sendFile(join(DASHBOARD_DIR, 'index.html')));
  router.use(express.static(DASHBOARD_DIR, { index: false, redirect: false, dotfiles: 'ignore' }));
  return router;
}
