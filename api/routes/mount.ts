import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import mongoose from 'mongoose';
import { renderBody, sendCached } from '../cache/pageCache';
import { findSnapshot, keepSnapshot, sendSnapshot, snapshotKey, type Snapshot } from '../cache/testSnapshots';
import { ApiError } from '../errors';
import { getConfig } from '../../shared/platform/config';
import { meterDebit } from '../middleware/metering';
import { ignoredQuery, paramsValidator, queryValidator } from '../middleware/validate';
import { noParams, type Infer, type ParametersSchema, type Route, type RouteContext, type RouteSpec, type Sent } from './spec';

const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

/**
 * A database that cannot answer is the service being unavailable (503), not a fault of the
 * request or a bug (500).
 */
function databaseDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /^Mongo(ose)?(Network|ServerSelection|NotConnected|Topology)/.test(err.name) || (err instanceof mongoose.Error && /buffering timed out/.test(err.message));
}

const SENT: Sent = { sent: true };

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What a handler is given to answer with. With `capture` (a test key: testSnapshots.ts) the answer
 * is kept there instead of being sent, and the page cache is bypassed (a snapshot is its own
 * cache); a redirect is sent as is either way.
 */
function context<Q, P, B>(req: Request, res: Response, query: Q, params: P, capture?: { snap?: Snapshot }): RouteContext<Q, P, B> {
  const at = Date.now();
  const keep = (status: number, contentType: string, body: Buffer): Sent => {
    capture!.snap = { status, contentType, body, at };
    return SENT;
  };
  return {
    query,
    params,
    req,
    res,
    json: (body, status = 200) => {
      if (capture) return keep(status, JSON_TYPE, Buffer.from(JSON.stringify(body)));
      res.status(status).json(body);
      return SENT;
    },
    cached: async (endpoint, key, scopes, render) => {
      if (capture) {
        const page = await renderBody(render);
        return keep(page.status, JSON_TYPE, page.body);
      }
      await sendCached(req, res, endpoint, key, scopes, render);
      return SENT;
    },
    text: (contentType, body, headers = {}) => {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (capture) return keep(res.statusCode, contentType, Buffer.isBuffer(body) ? body : Buffer.from(body));
      if (Buffer.isBuffer(body)) {
        res.setHeader('Content-Type', contentType);
        res.setHeader('Content-Length', body.length);
        res.end(body);
      } else res.type(contentType).send(body);
      return SENT;
    },
    redirect: (status, url) => {
      res.redirect(status, url);
      return SENT;
    },
  };
}

/** A metered request of a test key: the snapshot of its answer, rendered when there is none. */
async function answerTestKey<Q, P, B>(spec: { path: string; handler: (ctx: RouteContext<Q, P, B>) => Sent | Promise<Sent> }, req: Request, res: Response, query: Q, params: P): Promise<void> {
  const k = snapshotKey(spec.path, query, params);
  const hit = await findSnapshot(k);
  if (hit) return sendSnapshot(res, hit);
  const captured: { snap?: Snapshot } = {};
  await spec.handler(context<Q, P, B>(req, res, query, params, captured));
  if (captured.snap) sendSnapshot(res, await keepSnapshot(k, captured.snap));
}

/** The Express chain of one route: its path and query validated first, then its debit, then its handler. */
export function mountRoute<Q extends ParametersSchema, P extends ParametersSchema, R extends object>(router: Router, spec: RouteSpec<Q, P, R>): void {
  const path = expressPath(spec.path);
  if (spec.files) {
    // The files named, under the path's last segment, served as express.static serves them (Range,
    // ETag); any other name falls through to the 404, so a package's other files are never served.
    const only = new Set(spec.files.only);
    const serve = express.static(spec.files.dir, { index: false, maxAge: spec.files.maxAge, fallthrough: true });
    const serveStatic: RequestHandler = (req, res, next) => (only.has(req.path.replace(/^\//, '')) ? serve(req, res, next) : next());
    router.use(path.replace(/\/:\w+$/, ''), serveStatic);
    return;
  }
  const validParams = paramsValidator<Infer<P>>(spec.params ?? noParams);
  const validQuery = spec.query ? queryValidator<Infer<Q>>(spec.query, { lists: spec.lists, check: spec.check }) : ignoredQuery<Infer<Q>>();
  const validate: RequestHandler = (req, res, next) => {
    const params = validParams(req.params);
    if (!params.ok) return next(params.error);
    const query = validQuery(req.query);
    if (!query.ok) return next(query.error);
    validated.set(req, { query: query.value, params: params.value });
    next();
  };
  const validated = new WeakMap<Request, { query: Infer<Q>; params: Infer<P> }>();
  const handle = async (req: Request, res: Response, next: NextFunction) => {
    const valid = validated.get(req);
    if (!valid) return next(new Error(`route ${spec.path}: handler reached without validation`));
    try {
      if (spec.price && res.locals.metered?.key?.mode === 'test' && getConfig().TEST_KEY_SNAPSHOT_S > 0) await answerTestKey(spec, req, res, valid.query, valid.params);
      else await spec.handler(context<Infer<Q>, Infer<P>, Infer<R>>(req, res, valid.query, valid.params));
    } catch (err) {
      next(databaseDown(err) ? new ApiError('UNAVAILABLE', 'Service temporarily unavailable: database not reachable') : err);
    }
  };
  // After validation: a refused request is never debited (api/middleware/metering.ts).
  const chain: RequestHandler[] = [...(spec.guards ?? []), validate, ...(spec.price ? [meterDebit()] : []), handle];
  router.get(path, ...chain);
}

/** One router of the given routes, in their order. */
export function mountRoutes(routes: readonly Route[]): Router {
  const router = Router();
  for (const r of routes) r.mountOn(router);
  return router;
}
