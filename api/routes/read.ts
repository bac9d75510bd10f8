import type { Router } from 'express';
import { catalogRoutes } from './catalog';
import { matchRoutes } from './matches';
import { mountRoutes, type RouteSpec } from './spec';

/** Every read endpoint of the API contract served from stored documents. */
export function readRoutes(): RouteSpec[] {
  return [...matchRoutes(), ...catalogRoutes()];
}

export function readRouter(routes: readonly RouteSpec[] = readRoutes()): Router {
  return mountRoutes(routes);
}
