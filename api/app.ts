import express, { type Express, type Router } from 'express';
import { getConfig } from '../shared/config';
import { accountRouter } from './account/router';
import { ADMIN_BASE_PATH, basicAuth, bullBoardRouter } from './admin';
import { dashboardRouter } from './dashboard';
import { errorHandler, notFoundRoute } from './middleware/errors';
import { httpMetrics } from './middleware/httpMetrics';
import { meterAccess } from './middleware/metering';
import { requestLog } from './middleware/requestLog';
import { betsRoutes } from './routes/bets';
import { costsRouter } from './routes/costs';
import { healthRouter } from './routes/health';
import { metricsRouter } from './routes/metrics';
import { aiRoutes } from './routes/ai';
import { docsRouter, healthDoc } from './routes/docs';
import { performanceRoutes } from './routes/performance';
import { readRoutes } from './routes/read';
import { trackRecordRoutes } from './routes/trackRecord';
import { mountRoutes } from './routes/spec';

/** Every /v2 endpoint with a RouteSpec. Each feature adds its routes here. */
export const v2Routes = () => [...readRoutes(), ...aiRoutes(), ...performanceRoutes(), ...trackRecordRoutes(), ...betsRoutes()];

/** Routers mounted under /v2, in order. */
export function v2Routers(): Router[] {
  const routes = v2Routes();
  return [healthRouter(), costsRouter(), mountRoutes(routes), docsRouter([healthDoc, ...routes])];
}

export function createApp(): Express {
  const cfg = getConfig();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(httpMetrics());
  app.use(requestLog());

  // Operators' endpoints exist only with the admin credentials (404 otherwise, like any unknown path).
  if (cfg.ADMIN_USER && cfg.ADMIN_PASSWORD) {
    app.use(ADMIN_BASE_PATH, basicAuth(cfg.ADMIN_USER, cfg.ADMIN_PASSWORD), bullBoardRouter());
    app.use(metricsRouter(cfg.ADMIN_USER, cfg.ADMIN_PASSWORD));
  }
  app.use('/dashboard', dashboardRouter());
  // Before every /v2 router: key check and rate limit of a priced path; each route debits after
  // its validation (docs/metering.md).
  app.use('/v2', meterAccess());
  // The account API (free, sessions, JSON bodies): the one /v2 router with other methods than GET.
  app.use('/v2/account', accountRouter());
  for (const router of v2Routers()) app.use('/v2', router);
  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}
