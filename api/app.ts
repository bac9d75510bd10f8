import express, { type Express, type Router } from 'express';
import type { Config } from '../shared/platform/config';
import { ADMIN_BASE_PATH, basicAuth, bullBoardRouter, jsonActionsOnly, throttledAdminAuth } from './admin';
import { errorHandler, notFoundRoute } from './middleware/errors';
import { httpMetrics } from './middleware/httpMetrics';
import { versionsAtArrival } from './cache/pageCache';
import { meterAccess } from './middleware/metering';
import { requestLog } from './middleware/requestLog';
import { hotReads } from './cache/hotReads';
import { betsRoutes } from './routes/bets';
import { accountRouter } from './account/router';
import { accountRoutes } from './routes/account';
import { dashboardRouter } from './dashboard';
import { costsRoute } from './routes/costs';
import { healthRoute } from './routes/health';
import { metricsRoute } from './routes/metrics';
import { aiRoutes } from './routes/ai';
import { docsRoutes } from './routes/docs';
import { mountRoutes } from './routes/mount';
import type { AppContext } from '../shared/app/context';
import { processContext } from '../shared/app/processContext';
import { performanceRoutes } from './routes/performance';
import { readRoutes } from './routes/read';
import type { Route } from './routes/spec';
import { streamRoute } from './routes/stream';
import { trackRecordRoutes } from './routes/trackRecord';

/**
 * Every /v2 endpoint of the cost table, in mounting order (a static path before a parameter that
 * would match it). Each feature adds its routes here. The document describes them and the
 * account API's (mounted on their own router: api/account/router.ts).
 */
export function v2Routes(cfg: Config): Route[] {
  const api = [healthRoute(), costsRoute(), ...readRoutes(), ...aiRoutes(), ...performanceRoutes(), ...trackRecordRoutes(), ...betsRoutes(), streamRoute(cfg)];
  return [...api, ...docsRoutes([...api, ...accountRoutes(cfg)], cfg.PUBLIC_URL)];
}

/** Routers mounted under /v2, in order. */
export function v2Routers(app: AppContext): Router[] {
  return [mountRoutes(v2Routes(app.config), app)];
}

const contexts = new WeakMap<Express, AppContext>();

/** The context an app made by createApp runs in (its server's front door answers in it: api/server.ts). */
export function contextOf(app: Express): AppContext | undefined {
  return contexts.get(app);
}

/** The HTTP app, its routes and metering running in `ctx` (the process's context unless a test gives one). */
export function createApp(ctx: AppContext = processContext()): Express {
  const cfg = ctx.config;
  const app = express();
  contexts.set(app, ctx);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Only the proxies named are believed about the client's address and scheme (req.ip, req.secure).
  if (cfg.TRUST_PROXY) app.set('trust proxy', /^[0-9]+$/.test(cfg.TRUST_PROXY) ? Number(cfg.TRUST_PROXY) : cfg.TRUST_PROXY);
  app.use((_req, res, next) => {
    // Every answer, errors and files included: a browser never sniffs one into another type.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(httpMetrics());
  app.use(requestLog());
  // Ahead of everything else: a live key's read of a page this process holds (api/cache/hotReads.ts).
  if (cfg.HOT_READS) app.use(hotReads(ctx));

  // Operators' endpoints exist only with the admin credentials (404 otherwise, like any unknown path).
  if (cfg.ADMIN_USER && cfg.ADMIN_PASSWORD) {
    app.use(ADMIN_BASE_PATH, throttledAdminAuth(), basicAuth(cfg.ADMIN_USER, cfg.ADMIN_PASSWORD), jsonActionsOnly(), bullBoardRouter(cfg.ADMIN_QUEUE_ACTIONS));
    app.use(mountRoutes([metricsRoute(cfg.ADMIN_USER, cfg.ADMIN_PASSWORD)], ctx));
  }
  app.use('/dashboard', dashboardRouter());
  // Before every /v2 router: key check and rate limit of a priced path; each route debits after
  // its validation (docs/metering.md).
  app.use('/v2', versionsAtArrival(), meterAccess(ctx));
  // The account API (free, sessions, JSON bodies): the one /v2 router with other methods than GET.
  app.use('/v2/account', accountRouter(accountRoutes(cfg), ctx));
  for (const router of v2Routers(ctx)) app.use('/v2', router);
  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}
