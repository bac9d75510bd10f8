import { ALL_QUEUES } from '../../jobs';
import { queueFor } from '../../shared/platform/queues/client';
import { collectMetrics } from '../../shared/platform/metrics/collect';
import { basicAuth, throttledAdminAuth } from '../admin';
import { route } from './route';
import type { Route } from './spec';

/** Every queue of the service, read at scrape time for its depth and age. */
const allQueues = () => ALL_QUEUES.map(queueFor);

export const METRICS_PATH = '/metrics';

/**
 * Prometheus scrape target for the whole deployment (every process's published metrics plus the
 * state read at scrape time), behind the same admin Basic auth as the queue dashboard. Not under
 * /v2: it is operators', not the API's, so it is neither metered nor in the OpenAPI document.
 */
export function metricsRoute(user: string, password: string): Route {
  return route({
    path: METRICS_PATH,
    mount: '',
    price: null,
    auth: 'admin',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'The Prometheus exposition of every process of the deployment.',
    tag: 'System',
    documented: false,
    guards: [throttledAdminAuth(), basicAuth(user, password, 'metrics')],
    query: null,
    response: { type: 'string' },
    handler: async ({ text }) => {
      const { contentType, body } = await collectMetrics(allQueues);
      return text(contentType, body, { 'Cache-Control': 'no-store' });
    },
  });
}
