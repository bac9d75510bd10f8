import express, { Router } from 'express';
import { perAddress } from '../middleware/perAddress';
import { refuseOtherMethods } from '../routes/mount';
import type { Route } from '../routes/spec';
import type { AppContext } from '../../shared/app/context';

/**
 * The router of the account API (/v2/account; its routes are RouteSpecs: api/routes/account/):
 * every answer no-store, a per-address limit on every request, JSON bodies parsed here alone (10 KB
 * at most), and a known path asked with another method a 405 naming the methods it has.
 */
export function accountRouter(routes: readonly Route[], app: AppContext): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(perAddress('account-addr', () => app.config.ACCOUNT_API_PER_ADDRESS_PER_MINUTE, 60, 'account requests'));
  router.use(express.json({ limit: '10kb', strict: true, type: 'application/json' }));
  for (const r of routes) r.mountOn(router, app);
  refuseOtherMethods(router, routes);
  return router;
}
