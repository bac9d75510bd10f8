import { timingSafeEqual, createHash } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { RequestHandler, Router } from 'express';
import { ALL_QUEUES } from '../jobs';
import { queueFor } from '../jobs/client';
import { ApiError } from './errors';
import { release, take } from '../shared/accounts/limits';

export const ADMIN_BASE_PATH = '/admin/queues';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** HTTP Basic auth compared in constant time (on digests, so lengths leak nothing either). */
export function basicAuth(user: string, password: string, realm = 'queues'): RequestHandler {
  const expected = digest(`${user}:${password}`);
  return (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    const given = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    if (m && timingSafeEqual(digest(given), expected)) {
      if (typeof _res.locals.adminAttempt === 'string') return void release('admin-auth', _res.locals.adminAttempt).then(() => next(), next);
      return next();
    }
    next(new ApiError('INVALID_API_KEY', 'Admin credentials required', {}, { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` }));
  };
}

/**
 * The Bull Board dashboard over every queue of the service: read-only (bull-board answers 405 to
 * every action on a read-only queue) unless ADMIN_QUEUE_ACTIONS allows retry, clean, add and the rest.
 */
export function bullBoardRouter(actions: boolean): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_BASE_PATH);
  createBullBoard({ queues: ALL_QUEUES.map((q) => new BullMQAdapter(queueFor(q), { readOnlyMode: !actions })), serverAdapter });
  return serverAdapter.getRouter() as Router;
}

/**
 * Bull Board's changes must be JSON requests (its own page sends them so): a cross-site form or a
 * text/plain POST, which a browser sends without a preflight, is a 415 before it reaches the board.
 */
export function jsonActionsOnly(): RequestHandler {
  return (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.is('application/json')) return next();
    next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Queue actions take a JSON request (Content-Type: application/json)'));
  };
}

export const ADMIN_FAILURES_PER_ADDRESS = 20;
const ADMIN_WINDOW_S = 15 * 60;

/**
 * Admin credentials guessed from one address: after ADMIN_FAILURES_PER_ADDRESS failed attempts in
 * 15 minutes it gets 429s until the window ends. Every attempt is counted first and given back when
 * the credentials were right (limits.ts), so a burst cannot slip past the limit.
 */
export function throttledAdminAuth(): RequestHandler {
  return (req, res, next) => {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    take('admin-auth', address, ADMIN_FAILURES_PER_ADDRESS, ADMIN_WINDOW_S)
      .then((t) => {
        if (!t.allowed)
          return next(new ApiError('RATE_LIMITED', `Too many admin sign-in attempts from this address. Retry after ${t.retryAfterS} seconds.`, {}, { 'Retry-After': String(t.retryAfterS) }));
        // Given back once the credentials passed (the request reached the board).
        res.locals.adminAttempt = address;
        next();
      })
      // The limit cannot be counted (Redis down): refused as unavailable, never let through uncounted.
      .catch(() => next(new ApiError('UNAVAILABLE', 'Service temporarily unavailable. Please retry.', {}, { 'Retry-After': '5' })));
  };
}
