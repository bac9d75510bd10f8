import { catalogRoutes } from './catalog';
import { oddsAtRoute } from './history';
import { matchRoutes } from './matches';
import type { Route } from './spec';

/** Every read endpoint of the API contract served from stored documents. */
export function readRoutes(): Route[] {
  return [...matchRoutes(), oddsAtRoute(), ...catalogRoutes()];
}
