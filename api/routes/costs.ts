import { costTableDocument } from '../../shared/domain/billing/costs';
import { emptyQuery } from '../schemas/queries';
import { costsResponse } from '../schemas/responses';
import { route } from './route';
import type { Route } from './spec';

/** Free and keyless: the credits each endpoint costs, straight from the one cost table. */
export function costsRoute(): Route {
  const body = costTableDocument();
  return route({
    path: '/costs',
    price: '/v2/costs',
    operationId: 'costs',
    summary: 'Cost table',
    description: 'The credits each endpoint costs and whether it needs a key.',
    tag: 'System',
    auth: 'none',
    documented: false,
    query: emptyQuery,
    response: costsResponse,
    handler: ({ json }) => json(body),
  });
}
