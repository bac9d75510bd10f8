import type { AppContext } from '../../shared/app/context';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { renderBody, sendCached } from '../cache/pageCache';
import { findSnapshot, keepSnapshot, sendSnapshot, snapshotKey, type Snapshot } from '../cache/testSnapshots';
import { ApiError } from '../errors';
import { getConfig } from '../../shared/platform/config';
import { storeUnavailable } from '../middleware/errors';
import { meterDebit } from '../middleware/metering';
import { bodyValidator, ignoredBody, ignoredQuery, paramsValidator, queryNamesValidator, queryValidator } from '../middleware/validate';
import { requireSession } from '../account/session';
import { noParams, type BodySchema, type HttpMethod, type Infer, type ParametersSchema, type Route, type RouteContext, type RouteSpec, type Sent, type Shape } from './spec';

const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

const SENT: Sent = { sent: true };

const JSON_TYPE = 'application/json; charset=utf-8';

/** The parts of a request its validators let through. */
interface Valid<Q, P, D> {
  query: Q;
  params: P;
  body: D;
}

/**
 * What a handler is given to answer with. With `capture` (a test key: testSnapshots.ts) the answer
 * is kept there instead of being sent, and the page cache is bypassed (a snapshot is its own
 * cache); a redirect is sent as is either way.
 */
function context<Q, P, B, D>(app: AppContext, req: Request, res: Response, valid: Valid<Q, P, D>, status: number, capture?: { snap?: Snapshot }): RouteContext<Q, P, B, D> {
  const at = Date.now();
  const keep = (into: { snap?: Snapshot }, status: number, contentType: string, body: Buffer): Sent => {
    into.snap = { status, contentType, body, at };
    return SENT;
  };
  return {
    ...valid,
    req,
    res,
    app,
    json: (body, answered = status) => {
      if (capture) return keep(capture, answered, JSON_TYPE, Buffer.from(JSON.stringify(body)));
      res.status(answered).json(body);
      return SENT;
    },
    noContent: () => {
      if (capture) return keep(capture, 204, JSON_TYPE, Buffer.alloc(0));
      res.status(204).end();
      return SENT;
    },
    cached: async (endpoint, key, scopes, render) => {
      if (capture) {
        const page = await renderBody(render);
        return keep(capture, page.status, JSON_TYPE, page.body);
      }
      await sendCached(req, res, endpoint, key, scopes, render);
      return SENT;
    },
    text: (contentType, body, headers = {}) => {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (capture) return keep(capture, res.statusCode, contentType, Buffer.isBuffer(body) ? body : Buffer.from(body));
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
    stream: async (contentType, headers, run) => {
      if (capture) throw new Error('a streamed answer cannot be kept as a snapshot');
      res.status(status);
      res.setHeader('Content-Type', contentType);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.flushHeaders();
      await run(res);
      return SENT;
    },
  };
}

/** A metered request of a test key: the snapshot of its answer, rendered when there is none. */
async function answerTestKey<Q, P, B, D>(
  spec: { path: string; handler: (ctx: RouteContext<Q, P, B, D>) => Sent | Promise<Sent> },
  app: AppContext,
  req: Request,
  res: Response,
  valid: Valid<Q, P, D>,
  status: number,
): Promise<void> {
  const k = snapshotKey(spec.path, valid.query, valid.params);
  const hit = await findSnapshot(k);
  if (hit) return sendSnapshot(res, hit);
  const captured: { snap?: Snapshot } = {};
  await spec.handler(context<Q, P, B, D>(app, req, res, valid, status, captured));
  if (captured.snap) sendSnapshot(res, await keepSnapshot(k, captured.snap));
}

const ROUTER_METHOD = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/**
 * The Express chain of one route: its guards, the session of a signed-in route, its path, query
 * and body validated, then its debit, then its handler.
 */
export function mountRoute<Q extends ParametersSchema, P extends ParametersSchema, R extends object, D extends BodySchema>(router: Router, spec: RouteSpec<Q, P, R, D>, app: AppContext): void {
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
  type Body = Infer<Shape<D>>;
  const validParams = paramsValidator<Infer<P>>(spec.params ?? noParams);
  const validQuery = spec.query ? queryValidator<Infer<Q>>(spec.query, { lists: spec.lists, check: spec.check, messages: spec.messages }) : ignoredQuery<Infer<Q>>();
  const validBody = spec.body ? bodyValidator<Body>(spec.body) : ignoredBody<Body>();
  const validate: RequestHandler = (req, res, next) => {
    const params = validParams(req.params);
    if (!params.ok) return next(params.error);
    const query = validQuery(req.query);
    if (!query.ok) return next(query.error);
    const body = validBody(req);
    if (!body.ok) return next(body.error);
    validated.set(req, { query: query.value, params: params.value, body: body.value });
    next();
  };
  const validated = new WeakMap<Request, Valid<Infer<Q>, Infer<P>, Body>>();
  const status = spec.status ?? 200;
  const handle = async (req: Request, res: Response, next: NextFunction) => {
    const valid = validated.get(req);
    if (!valid) return next(new Error(`route ${spec.path}: handler reached without validation`));
    try {
      if (spec.price && spec.snapshots !== false && res.locals.metered?.key?.mode === 'test' && getConfig().TEST_KEY_SNAPSHOT_S > 0) await answerTestKey(spec, app, req, res, valid, status);
      else await spec.handler(context<Infer<Q>, Infer<P>, Infer<R>, Body>(app, req, res, valid, status));
    } catch (err) {
      next(spec.refusals ? spec.refusals(err) : (storeUnavailable(err) ?? err));
    }
  };
  // A signed-in route: its query's names checked first (an unknown parameter is a 400 even signed
  // out), then the session (401, or 403 without the CSRF token of a change), then the values and
  // the body. After validation: a refused request is never debited (api/middleware/metering.ts).
  const session: RequestHandler[] = [];
  if (spec.auth === 'session') {
    if (spec.query) {
      const knownNames = queryNamesValidator(spec.query, spec.lists);
      session.push((req, _res, next) => next(knownNames(req.query)));
    }
    session.push(requireSession());
  }
  const chain: RequestHandler[] = [...(spec.guards ?? []), ...session, validate, ...(spec.price ? [meterDebit()] : []), handle];
  router[ROUTER_METHOD[spec.method ?? 'GET']](path, ...chain);
}

/**
 * A path of the given routes asked with another method: a 405 naming the methods it has (HEAD
 * goes with GET). Mounted after the routes.
 */
export function refuseOtherMethods(router: Router, routes: readonly Route[]): void {
  const methods = new Map<string, HttpMethod[]>();
  for (const r of routes) methods.set(expressPath(r.path), [...(methods.get(expressPath(r.path)) ?? []), r.method]);
  for (const [path, has] of methods) {
    const allow = has.includes('GET') ? [...has, 'HEAD'] : has;
    router.all(path, (req, _res, next) => next(new ApiError('METHOD_NOT_ALLOWED', `Method ${req.method} not allowed on ${req.baseUrl}${req.path}`, {}, { Allow: allow.join(', ') })));
  }
}

/** One router of the given routes, in their order. */
export function mountRoutes(routes: readonly Route[], app: AppContext): Router {
  const router = Router();
  for (const r of routes) r.mountOn(router, app);
  return router;
}
