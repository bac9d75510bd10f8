import { Router, type RequestHandler } from 'express';
import mongoose from 'mongoose';
import { ApiError } from '../errors';
import { meterDebit } from '../middleware/metering';
import { validateParams, validateQuery } from '../middleware/validate';

/**
 * One description per read endpoint, used twice: to mount the Express route (validation first,
 * then a small handler) and to write its OpenAPI operation. Metering can be put in front of the
 * /v2 routes without touching these.
 */
export interface RouteSpec {
  /** OpenAPI-style path under /v2, e.g. /matches/{eventId}. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** key: the API contract says a key is needed; none: public (see shared/billing/costs.ts). */
  auth: 'key' | 'none';
  query: { type: 'object'; properties: Record<string, object> };
  /** Query parameters that take comma-separated or repeated values. */
  lists?: readonly string[];
  /** Rules across parameters (returns the message of the 400). */
  check?(this: void, q: Record<string, unknown>): string | undefined;
  params?: { type: 'object'; required: readonly string[]; properties: Record<string, object> };
  /** Name of the 200 body schema in api/schemas/responses.ts. */
  response: string;
  /** Media type of the 200 body when it is not JSON (an SVG chart). */
  mediaType?: string;
  /** Documented non-2xx statuses besides 400. */
  errors?: number[];
  handler: RequestHandler;
}

const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/**
 * A database that cannot answer is the service being unavailable (503), not a fault of the
 * request or a bug (500).
 */
function databaseDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /^Mongo(ose)?(Network|ServerSelection|NotConnected|Topology)/.test(err.name) || (err instanceof mongoose.Error && /buffering timed out/.test(err.message));
}

const guarded =
  (handler: RequestHandler): RequestHandler =>
  async (req, res, next) => {
    try {
      await handler(req, res, next);
    } catch (err) {
      next(databaseDown(err) ? new ApiError('UNAVAILABLE', 'Service temporarily unavailable: database not reachable') : err);
    }
  };

export function mountRoutes(specs: readonly RouteSpec[]): Router {
  const router = Router();
  for (const spec of specs) {
    const chain: RequestHandler[] = [];
    if (spec.params) chain.push(validateParams(spec.params));
    chain.push(validateQuery(spec.query, { lists: spec.lists, check: spec.check }));
    // After validation: a refused request is never debited (api/middleware/metering.ts).
    chain.push(meterDebit());
    router.get(expressPath(spec.path), ...chain, guarded(spec.handler));
  }
  return router;
}
