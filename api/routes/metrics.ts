import { Router } from 'express';
import { ALL_QUEUES } from '../../jobs';
import { queueFor } from '../../jobs/client';
import { collectMetrics } from '../../shared/metrics/collect';
import { basicAuth } from '../admin';

/** Every queue of the service, read at scrape time for its depth and age. */
const allQueues = () => ALL_QUEUES.map(queueFor);

export const METRICS_PATH = '/metrics';

/**
 * Prometheus scrape target for the whole deployment (every process's published metrics plus the
 * state read at scrape time), behind the same admin Basic auth as the queue dashboard. Not under
 * /v2: it is operators', not the API's, so it is neither metered nor in the OpenAPI document.
 */
export function metricsRouter(user: string, password: string): Router {
  const router = Router();
  router.get(METRICS_PATH, basicAuth(user, password, 'metrics'), async (_req, res) => {
    const { contentType, body } = await collectMetrics(allQueues);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  });
  return router;
}
