import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { maskKeys } from '../../shared/billing/keys';
import { logger } from '../../shared/logger';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Every API log line carries the request id; a client's X-Request-Id is kept when well-formed. */
export function requestLog() {
  return pinoHttp({
    logger: logger(),
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && CLIENT_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    serializers: {
      // A key pasted into a URL is masked too: keys never reach a log line.
      req: (req: { id: unknown; method: string; url: string; headers?: { authorization?: string } }) => ({
        id: req.id,
        method: req.method,
        url: maskKeys(req.url),
        headers: { authorization: req.headers?.authorization },
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
