import type { ErrorRequestHandler, RequestHandler } from 'express';
import { priceOf } from '../../shared/domain/billing/costs';
import { ApiError, badRequest, ERROR_CODES, ERRORS, malformedRequest } from '../errors';

/** An unknown path is a 404; a known one asked with another method than GET or HEAD, a 405. */
export const notFoundRoute: RequestHandler = (req, _res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD' && priceOf('GET', req.path)) {
    return next(new ApiError('METHOD_NOT_ALLOWED', `Method ${req.method} not allowed on ${req.path}: this API is read-only (GET, HEAD)`, {}, { Allow: 'GET, HEAD' }));
  }
  next(new ApiError('NOT_FOUND', `Cannot ${req.method} ${req.path}`));
};

/** Renders every error as the spec's error shape; a 500 never carries a stack or an internal message. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  const apiError = err instanceof ApiError ? err : (clientFault(err) ?? storeUnavailable(err) ?? internal(err, req));
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
  res.status(apiError.status).json(apiError.toBody(req.id));
};

/** What Express, body-parser and http-errors put on a client's fault (any of it may be missing). */
const textOf = (v: unknown) => (typeof v === 'string' ? v : '');
const field = (err: unknown, name: string): unknown => (typeof err === 'object' && err !== null && name in err ? Reflect.get(err, name) : undefined);

/**
 * A 4xx raised by Express or a library (a path's percent-encoding that does not decode, a static
 * file refused): answered with its status in the error shape, never with the library's text.
 */
function clientFault(err: unknown): ApiError | undefined {
  const status = Number(field(err, 'status') ?? field(err, 'statusCode'));
  if (!(status >= 400 && status < 500)) return undefined;
  if (status === 400) {
    if (field(err, 'type') === 'entity.parse.failed') return badRequest('malformed body');
    return malformedRequest(`Invalid request parameters: ${/decode/i.test(textOf(field(err, 'message'))) ? 'malformed percent-encoding in the path' : 'malformed request'}`);
  }
  const code = ERROR_CODES.find((c) => ERRORS[c].status === status);
  return code ? new ApiError(code, code === 'NOT_FOUND' ? 'Not found' : ERRORS[code].error) : new ApiError('NOT_FOUND', 'Not found');
}

/**
 * A store the request needed is unreachable (MongoDB's driver or mongoose gave up, or ioredis ran
 * out of retries or lost its connection): a 503 the client may retry, as the spec promises while a
 * server is down, never a 500.
 */
export function storeUnavailable(err: unknown): ApiError | undefined {
  if (!(err instanceof Error)) return undefined;
  const mongo = /^Mongo(ose)?(Network|ServerSelection|NotConnected|Topology)/.test(err.name) || /buffering timed out/.test(err.message);
  const redis = err.name === 'MaxRetriesPerRequestError' || /^(Connection is closed|Stream isn't writeable)/.test(err.message) || /^connect ECONNREFUSED|^read ECONNRESET/.test(err.message);
  if (mongo) return new ApiError('UNAVAILABLE', 'Service temporarily unavailable: database not reachable', {}, { 'Retry-After': '5' });
  if (redis) return new ApiError('UNAVAILABLE', 'Service temporarily unavailable. Please retry.', {}, { 'Retry-After': '5' });
  return undefined;
}

function internal(err: unknown, req: Parameters<ErrorRequestHandler>[1]): ApiError {
  req.log?.error({ err }, 'unhandled error');
  return new ApiError('INTERNAL', 'Internal server error');
}
