import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/app/context';
import { nextRef } from '../../shared/app/billing/metering';
import type { Priced } from '../../shared/domain/billing/costs';
import { bearerKey } from '../../shared/domain/billing/keys';
import { checkAccess } from '../../shared/platform/billing/access';
import type { CacheScope } from '../../shared/platform/cache/versions';
import { processMemo } from '../../shared/platform/processScope';
import { admit, setCredits } from '../middleware/metering';
import { currentVersions, normalizeQuery, pageInMemory, pageKey, readVersions, sendPage } from './pageCache';

/**
 * The hot path: a metered GET of a page this process holds, answered ahead of the router.
 *
 * Most of a cached read's CPU was the router, the validators and the per-route middleware, not
 * the bytes: a URL the router once answered from the page cache (a live key's request, a key the
 * URL alone decides) is remembered with its page's cache key, and the next request for that exact
 * URL skips the routing and validation it went through then (the same URL validates the same
 * way). Everything else is as on the routed path, through the same functions: the key check and
 * debit (one Redis step with the turn's others), the page's versions read as the request arrived,
 * the same headers, the charge decided by the status and settled when the response closes.
 * Whatever the hot path cannot answer from memory (another key mode, a refusal, a page not held at
 * the current versions, an If-None-Match) goes on to the router with the key check it made
 * (`res.locals.prechecked`), so a request is checked and debited once whichever path answers it.
 * `HOT_READS=false` turns it off.
 */

export interface HotRoute {
  pageKey: string;
  scopes: readonly CacheScope[];
  priced: Priced;
}

/** Requests this process answered on the hot path (tests, benches). */
export const hotStats = { served: 0, fromBlocks: 0 };

/** A URL list is bounded: a client walking pages or ids makes many. Past the bound it starts over. */
const MAX_ROUTES = 20_000;
const routes = processMemo(() => new Map<string, HotRoute>());

/** After the router answered `req` from the page cache: its URL is remembered with the page's key, for a live key's metered GET. */
export function rememberHotRoute(req: Request, endpoint: string, key: Record<string, unknown>, scopes: readonly CacheScope[]): void {
  const known = routes();
  if (req.method !== 'GET' || known.has(req.originalUrl)) return;
  // The price metering found for this request (meterAccess): a free or public path has none.
  const metered = req.res?.locals.metered;
  if (!metered || metered.key.mode !== 'live') return;
  if (known.size >= MAX_ROUTES) known.clear();
  known.set(req.originalUrl, { pageKey: pageKey(endpoint, normalizeQuery(key)), scopes, priced: metered.priced });
}

/** The remembered route of a URL (api/hot/frontDoor.ts answers it from memory when it can). */
export function hotRouteOf(url: string): HotRoute | undefined {
  return routes().get(url);
}

export function hotReads(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || req.headers['if-none-match'] !== undefined) return next();
    const route = routes().get(req.url);
    if (!route) return next();
    const plaintext = bearerKey(req.headers.authorization);
    if (!plaintext?.startsWith('sk_live_')) return next();
    serveHot(ctx, req, res, route, plaintext).then((served) => {
      if (!served) next();
    }, next);
  };
}

/** Answers from memory and says true, or hands the request on (false) with what it checked. */
async function serveHot(ctx: AppContext, req: Request, res: Response, route: HotRoute, plaintext: string): Promise<boolean> {
  const versionsRead = readVersions();
  versionsRead.catch(() => undefined); // a request handed on may never read them
  res.locals.versionsRead = versionsRead;
  const ref = nextRef();
  try {
    res.locals.prechecked = { plaintext, ref, access: await checkAccess(plaintext, { cost: route.priced.credits, ref }) };
  } catch (error) {
    res.locals.prechecked = { plaintext, ref, error };
    return false;
  }
  const { access } = res.locals.prechecked;
  if (access?.outcome !== 'allowed' || access.key.mode !== 'live' || access.admission?.outcome !== 'debited') return false;
  let versions: string;
  try {
    versions = await currentVersions(route.scopes, versionsRead);
  } catch {
    return false;
  }
  const page = pageInMemory(route.pageKey, versions);
  if (!page) return false;
  // A debited admission is a debit made: from here the request is this path's to answer.
  const debit = await admit(ctx, res, route.priced, access, ref);
  if (debit?.ok) setCredits(res, debit.balance, route.priced.credits);
  await sendPage(req, res, page, 'HIT');
  hotStats.served++;
  return true;
}
