import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppContext } from '../../shared/app/context';
import { bearerKey, hashKey } from '../../shared/domain/billing/keys';
import { heardVersions, startVersionFeed } from '../../shared/platform/cache/versionFeed';
import { logger } from '../../shared/platform/logger';
import { hotRouteOf, hotStats } from '../cache/hotReads';
import { pageInMemory, sendPage } from '../cache/pageCache';
import { countAnswered } from '../middleware/httpMetrics';
import { logWhenDone, requestIdOf } from '../middleware/requestLog';
import { spendFromBlock } from './creditBlocks';

/**
 * The front door of the HTTP server: a live key's GET of a URL the router already answered from
 * the page cache (api/cache/hotReads.ts remembers it), answered before Express sees it when this
 * process holds everything the answer needs: the page at the versions it last heard announced
 * (shared/platform/cache/versionFeed.ts) and a block of the key's requests (./creditBlocks.ts).
 * No Redis round trip and no routing: the bytes, the same headers as the routed answer, the
 * request counted and timed. Anything else (another key, a page not held, no block, an
 * If-None-Match, versions not vouched for) goes to Express unchanged.
 */
export function frontDoor(ctx: AppContext, app: RequestListener): RequestListener {
  if (!ctx.config.HOT_READS || !ctx.config.CREDIT_BLOCKS) return app;
  startVersionFeed();
  return (req, res) => {
    if (!answerFromMemory(ctx, req, res)) app(req, res);
  };
}

function answerFromMemory(ctx: AppContext, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' || req.headers['if-none-match'] !== undefined || !req.url) return false;
  const route = hotRouteOf(req.url);
  if (!route) return false;
  const plaintext = bearerKey(req.headers.authorization);
  if (!plaintext?.startsWith('sk_live_')) return false;
  const versions = heardVersions(route.scopes);
  if (versions === undefined) return false;
  const page = pageInMemory(route.pageKey, versions);
  if (!page) return false;
  const start = performance.now();
  const grant = spendFromBlock(ctx, hashKey(plaintext), route.priced);
  if (!grant) return false;
  // From here the request is paid for and this door's to answer; its headers go out in one writeHead.
  const limit = ctx.config.RATE_LIMIT_LIVE_RPS * 2;
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestIdOf(req),
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.min(limit, grant.remaining)),
    'X-Credits-Remaining': String(grant.balance),
    'X-Credits-Consumed': String(route.priced.credits),
  };
  if (logger().isLevelEnabled('debug')) logWhenDone(req, res, start);
  hotStats.served++;
  hotStats.fromBlocks++;
  const sent = sendPage(req, res, page, 'HIT', headers);
  if (!sent) countAnswered('GET', route.priced.path, res.statusCode, (performance.now() - start) / 1000);
  else
    sent.then(
      () => countAnswered('GET', route.priced.path, res.statusCode, (performance.now() - start) / 1000),
      () => res.destroy(),
    );
  return true;
}
