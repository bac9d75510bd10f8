import { mountRoute } from './mount';
import { noParams, type BodySchema, type noBody, type ParametersSchema, type Route, type RouteSpec } from './spec';

/**
 * A route whose handler types are inferred from its schemas. The typed spec stays inside the
 * mount closure, so a list of routes needs no common handler type.
 */
export function route<Q extends ParametersSchema, R extends object, P extends ParametersSchema = typeof noParams, D extends BodySchema = typeof noBody>(spec: RouteSpec<Q, P, R, D>): Route {
  const { handler: _handler, check: _check, refusals: _refusals, method = 'GET', mount = '/v2', documented = true, params = noParams, ...rest } = spec;
  return { ...rest, method, mount, documented, params, mountOn: (router, app) => mountRoute(router, spec, app) };
}
