import type { AppContext } from '../../shared/app/context';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { cachedPage, sendCached } from '../cache/pageCache';
import { rememberHotRoute } from '../cache/hotReads';
import { pendingError, renderingsKey, sendRendering, testKeyAnswer, type Rendering } from '../cache/testSnapshots';
import { cacheVersionsSince } from '../../shared/platform/cache/versions';
import { ApiError } from '../errors';
import { storeUnavailable } from '../middleware/errors';
import { meterDebit } from '../middleware/metering';
import { bodyValidator, ignoredBody, ignoredQuery, paramsValidator, queryNamesValidator, queryValidator } from '../middleware/validate';
import { requireSession } from '../account/session';
import { noParams, type BodySchema, type HttpMethod, type Infer, type ParametersSchema, type Route, type RouteContext, type RouteSpec, type Answer, type Shape } from './spec';

const expressPath = (p: string) => p.replace(/\{(\w+)\}/g, ':$1');

const JSON_TYPE = 'application/json; charset=utf-8';

/** The parts of a request its validators let through. */
interface Valid<Q, P, D> {
  query: Q;
  params: P;
  body: D;
}

/** What a handler is given: the validated request and the answers it may return (pure: nothing is written until it returns). */
function context<Q, P, B, D>(app: AppContext, req: Request, res: Response, valid: Valid<Q, P, D>, status: number): RouteContext<Q, P, B, D> {
  return {
    ...valid,
    req,
    res,
    app,
    json: (body, answered = status, headers) => ({ kind: 'json', status: answered, body, headers }),
    noContent: () => ({ kind: 'noContent' }),
    cached: (endpoint, key, scopes, render, opts) => ({ kind: 'cached', endpoint, key, scopes, render, urlDecides: !opts?.clockInKey }),
    text: (contentType, body, headers = {}) => ({ kind: 'text', status, contentType, body, headers }),
    redirect: (answered, url) => ({ kind: 'redirect', status: answered, url }),
    stream: (contentType, headers, run) => ({ kind: 'stream', status, contentType, headers, run }),
  };
}

/** Writes a handler's answer (a cached one kept CACHE_TTL_S, `cacheTtlS`). */
async function write<B>(req: Request, res: Response, answer: Answer<B>, cacheTtlS: number): Promise<void> {
  switch (answer.kind) {
    case 'json':
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      res.status(answer.status).json(answer.body);
      return;
    case 'noContent':
      res.status(204).end();
      return;
    case 'cached':
      await sendCached(req, res, answer.endpoint, answer.key, answer.scopes, answer.render, cacheTtlS);
      if (answer.urlDecides) rememberHotRoute(req, answer.endpoint, answer.key, answer.scopes);
      return;
    case 'text':
      res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      if (Buffer.isBuffer(answer.body)) {
        res.setHeader('Content-Type', answer.contentType);
        res.setHeader('Content-Length', answer.body.length);
        res.end(answer.body);
      } else res.type(answer.contentType).send(answer.body);
      return;
    case 'redirect':
      res.redirect(answer.status, answer.url);
      return;
    case 'stream':
      res.status(answer.status);
      res.setHeader('Content-Type', answer.contentType);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.flushHeaders();
      await answer.run(res);
      return;
  }
}

/**
 * A test key's answer kept as a rendering (testSnapshots.ts) instead of being written, with the
 * time its data became current: for a page of the page cache, when the data versions it was
 * rendered from became current (unchanged before and after it was read), else when it was
 * rendered. A redirect is written as is, unless `detached` (rendered after the request was
 * answered: the chain's next rendering touches nothing of the response).
 */
async function keep<B>(res: Response, answer: Answer<B>, detached: boolean, cacheTtlS: number): Promise<Rendering | undefined> {
  const at = Date.now();
  const rendering = (status: number, contentType: string, body: Buffer, dataFrom = at, headers?: Record<string, string>): Rendering => ({
    status,
    contentType,
    body,
    at,
    dataFrom: Math.min(at, dataFrom),
    headers,
  });
  switch (answer.kind) {
    case 'json':
      return rendering(answer.status, JSON_TYPE, Buffer.from(JSON.stringify(answer.body)), at, answer.headers);
    case 'noContent':
      return rendering(204, JSON_TYPE, Buffer.alloc(0));
    case 'cached': {
      const before = await cacheVersionsSince(answer.scopes);
      const { page } = await cachedPage(answer.endpoint, answer.key, answer.scopes, answer.render, cacheTtlS);
      const after = await cacheVersionsSince(answer.scopes);
      const unchanged = page.versions === before.versions && after.versions === before.versions;
      return rendering(page.status, JSON_TYPE, page.body, unchanged ? before.since : at);
    }
    case 'text':
      return rendering(
        answer.status,
        answer.contentType,
        Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(answer.body),
        at,
        Object.fromEntries(Object.entries(answer.headers).map(([n, v]) => [n, String(v)])),
      );
    case 'redirect':
      if (!detached) res.redirect(answer.status, answer.url);
      return undefined;
    case 'stream':
      throw new Error('a streamed answer cannot be kept as a snapshot');
  }
}

/**
 * A metered request of a test key: the newest rendering of its answer whose data is at least
 * TEST_KEY_SNAPSHOT_S old, or a 503 test_data_pending saying when one will be (testSnapshots.ts).
 */
async function answerTestKey<Q, P, B, D>(
  spec: { path: string; handler: (ctx: RouteContext<Q, P, B, D>) => Answer<B> | Promise<Answer<B>> },
  app: AppContext,
  req: Request,
  res: Response,
  valid: Valid<Q, P, D>,
  status: number,
  delayS: number,
): Promise<void> {
  const answer = await testKeyAnswer(renderingsKey(spec.path, valid.query, valid.params), delayS, async (mode) =>
    keep(res, await spec.handler(context<Q, P, B, D>(app, req, res, valid, status)), mode === 'background', app.config.CACHE_TTL_S),
  );
  if (answer.kind === 'pending') throw pendingError(delayS, answer.retryAfterS);
  if (answer.kind !== 'sent') sendRendering(res, answer.rendering, answer.kind === 'rendering');
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
      const delayS = app.config.TEST_KEY_SNAPSHOT_S;
      if (spec.price && spec.snapshots !== false && res.locals.metered?.key?.mode === 'test' && delayS > 0) await answerTestKey(spec, app, req, res, valid, status, delayS);
      else await write(req, res, await spec.handler(context<Infer<Q>, Infer<P>, Infer<R>, Body>(app, req, res, valid, status)), app.config.CACHE_TTL_S);
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
    session.push(requireSession(app));
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
