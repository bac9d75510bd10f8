import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, badRequest } from '../errors';

export const notFoundRoute: RequestHandler = (req, _res, next) => next(new ApiError('NOT_FOUND', `Cannot ${req.method} ${req.path}`));

/** Renders every error as the spec's error shape; a 500 never carries a stack or an internal message. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let apiError: ApiError;
  if (err instanceof ApiError) apiError = err;
  else if (err?.type === 'entity.parse.failed' || err?.status === 400) apiError = badRequest('malformed request');
  else {
    req.log?.error({ err }, 'unhandled error');
    apiError = new ApiError('INTERNAL', 'Internal server error');
  }
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
  res.status(apiError.status).json(apiError.toBody());
};
