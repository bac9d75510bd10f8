import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { maskKeys } from '../../shared/domain/billing/keys';
import { logger } from '../../shared/platform/logger';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare module 'http' {
  interface IncomingMessage {
    /** This request's logger (its id on every line), made on first use. */
    log: Logger;
    id: string;
  }
}

/**
 * One line per request when it ends ('request completed': 2xx/3xx at debug, 4xx at info, 5xx as
 * 'request errored' at error), with the request id, method, URL (a key pasted into it masked),
 * status and time; the Authorization header is redacted by the logger. Every API log line carries
 * the request id; a client's X-Request-Id is kept when well-formed. Lean by design: pino-http's
 * per-request child logger and serializers were a tenth of the API's CPU on the cached hot path;
 * here the child is made only when a handler logs.
 */
export function requestLog(): RequestHandler {
  return (req, res, next) => {
    trackRequest(req, res);
    next();
  };
}

/** The request's id: a client's well-formed X-Request-Id, else a new one (the caller sets the header). */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  req.id = typeof incoming === 'string' && CLIENT_ID.test(incoming) ? incoming : randomUUID();
  return req.id;
}

/** What requestLog does for a request routed by Express. */
function trackRequest(req: IncomingMessage, res: ServerResponse): void {
  const base = logger();
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  let child: Logger | undefined;
  Object.defineProperty(req, 'log', { configurable: true, enumerable: false, get: () => (child ??= base.child({ reqId: id })) });
  logWhenDone(req, res);
}

/** The request's line when its answer is done (also for one the front door answered: api/hot/frontDoor.ts). */
export function logWhenDone(req: IncomingMessage, res: ServerResponse, start = performance.now()): void {
  const base = logger();
  const id = req.id;
  res.once('finish', () => {
    const status = res.statusCode;
    // A test key's 503 test_data_pending (X-Data-Delayed) is the test feed's answer, not a fault.
    const fault = status >= 500 && res.getHeader('X-Data-Delayed') !== 'true';
    const level = fault ? 'error' : status >= 400 ? 'info' : 'debug';
    if (!base.isLevelEnabled(level)) return;
    base[level]({ reqId: id, req: requestFields(req), res: { statusCode: status }, responseTime: Math.round(performance.now() - start) }, fault ? 'request errored' : 'request completed');
  });
}

function requestFields(req: IncomingMessage & { originalUrl?: string }) {
  return { id: req.id, method: req.method, url: maskKeys(req.originalUrl ?? req.url ?? ''), headers: { authorization: req.headers.authorization } };
}
