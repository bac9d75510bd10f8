import express, { type Express, type Router } from 'express';
import { getConfig } from '../shared/config';
import { ADMIN_BASE_PATH, basicAuth, bullBoardRouter } from './admin';
import { errorHandler, notFoundRoute } from './middleware/errors';
import { requestLog } from './middleware/requestLog';
import { betsRouter } from './routes/bets';
import { healthRouter } from './routes/health';
import { performanceRouter } from './routes/performance';

/** Routers mounted under /v2, in order. Each feature adds its router here. */
function v2Routers(): Router[] {
  return [healthRouter(), betsRouter(), performanceRouter()];
}

export function createApp(): Express {
  const cfg = getConfig();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestLog());

  if (cfg.ADMIN_USER && cfg.ADMIN_PASSWORD) {
    app.use(ADMIN_BASE_PATH, basicAuth(cfg.ADMIN_USER, cfg.ADMIN_PASSWORD), bullBoardRouter());
  }
  for (const router of v2Routers()) app.use('/v2', router);
  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}
