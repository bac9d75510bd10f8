import { Router } from 'express';
import { costTableDocument } from '../../shared/billing/costs';
import { validateQuery } from '../middleware/validate';

/** Free and keyless: the credits each endpoint costs, straight from the one cost table. */
export function costsRouter(): Router {
  const router = Router();
  const body = costTableDocument();
  router.get('/costs', validateQuery({ type: 'object', properties: {} }), (_req, res) => {
    res.json(body);
  });
  return router;
}
