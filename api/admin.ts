import { timingSafeEqual, createHash } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { RequestHandler } from 'express';
import { ALL_QUEUES } from '../jobs';
import { queueFor } from '../shared/platform/queues/client';
import { ApiError } from './errors';
import { release } from '../shared/platform/accounts/limits';
import { limitTaken, perAddress } from './middleware/perAddress';

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
      const taken = limitTaken(_res);
      if (taken) return void release(taken.name, taken.identity).then(() => next(), next);
      return next();
    }
    next(new ApiError('ADMIN_CREDENTIALS_REQUIRED', 'Admin credentials required', {}, { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` }));
  };
}

/**
 * The Bull Board dashboard over every queue of the service: read-only (bull-board answers 405 to
 * every action on a read-only queue) unless ADMIN_QUEUE_ACTIONS allows retry, clean, add and the rest.
 */
export function bullBoardRouter(actions: boolean): RequestHandler {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_BASE_PATH);
  createBullBoard({ queues: ALL_QUEUES.map((q) => new BullMQAdapter(queueFor(q), { readOnlyMode: !actions })), serverAdapter });
  const router: unknown = serverAdapter.getRouter();
  if (!isRequestHandler(router)) throw new Error('bull-board gave no Express request handler');
  return router;
}

/** bull-board types its router `any`; it is an Express app, which is a request handler: a function of (req, res, next). */
function isRequestHandler(x: unknown): x is RequestHandler {
  return typeof x === 'function' && x.length === 3;
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

/**
 * Admin credentials guessed from one address: after ADMIN_FAILURES_PER_ADDRESS failed attempts in
 * 15 minutes it gets 429s until the window ends. Every attempt is counted first (perAddress) and
 * given back by basicAuth when the credentials were right, so a burst cannot slip past the limit.
 */
export const throttledAdminAuth = (): RequestHandler => perAddress('admin-auth', () => ADMIN_FAILURES_PER_ADDRESS, 15 * 60, 'admin sign-in attempts');
