import { mountRoute } from './mount';
import { noParams, type ParametersSchema, type Route, type RouteSpec } from './spec';

/**
 * A route whose handler types are inferred from its schemas. The typed spec stays inside the
 * mount closure, so a list of routes needs no common handler type.
 */
export function route<Q extends ParametersSchema, R extends object, P extends ParametersSchema = typeof noParams>(spec: RouteSpec<Q, P, R>): Route {
  const { handler: _handler, check: _check, mount = '/v2', documented = true, params = noParams, ...rest } = spec;
  return { ...rest, mount, documented, params, mountOn: (router) => mountRoute(router, spec) };
}
