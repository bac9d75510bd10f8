import { timingSafeEqual, createHash } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { RequestHandler, Router } from 'express';
import { ALL_QUEUES } from '../jobs';
import { queueFor } from '../jobs/client';
import { ApiError } from './errors';

export const ADMIN_BASE_PATH = '/admin/queues';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** HTTP Basic auth compared in constant time (on digests, so lengths leak nothing either). */
export function basicAuth(user: string, password: string, realm = 'queues'): RequestHandler {
  const expected = digest(`${user}:${password}`);
  return (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    const given = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    if (m && timingSafeEqual(digest(given), expected)) return next();
    next(new ApiError('INVALID_API_KEY', 'Admin credentials required', {}, { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` }));
  };
}

/** The Bull Board dashboard over every queue of the service. */
export function bullBoardRouter(): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_BASE_PATH);
  createBullBoard({ queues: ALL_QUEUES.map((q) => new BullMQAdapter(queueFor(q))), serverAdapter });
  return serverAdapter.getRouter() as Router;
}
