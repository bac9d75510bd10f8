import type { Request, RequestHandler } from 'express';
import { priceOf } from '../../shared/domain/billing/costs';
import { httpDuration, httpRequests } from '../../shared/platform/metrics/registry';

/**
 * The route label of a request, never its raw URL (ids would make the series unbounded): the
 * cost table's path for every /v2 endpoint (so a request refused by metering before its route
 * ran is labelled like the served ones), else the Express route pattern that answered it, else
 * "unmatched".
 */
export function routeLabel(req: Pick<Request, 'method' | 'originalUrl' | 'baseUrl' | 'route'>): string {
  const path = req.originalUrl.split('?')[0];
  const priced = priceOf(req.method, path);
  if (priced) return priced.path;
  const matched: unknown = req.route;
  const pattern = typeof matched === 'object' && matched !== null && 'path' in matched ? matched.path : undefined;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}` || '/';
  return 'unmatched';
}

/** Counts every answered request by method, route and status, and times it (mounted first). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const route = routeLabel(req);
      httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      httpDuration.observe({ method: req.method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    // 'close' alone covers a client gone before the answer; 'finish' comes first otherwise.
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

const answered = new Map<string, { count: () => void; time: (seconds: number) => void }>();

/** Counts and times one answer of a known route label (the front door's; children cached: no label hashing per request). */
export function countAnswered(method: string, route: string, status: number, seconds: number): void {
  const k = `${method} ${route} ${status}`;
  let m = answered.get(k);
  if (!m) {
    const requests = httpRequests.labels({ method, route, status: String(status) });
    const duration = httpDuration.labels({ method, route });
    m = { count: () => requests.inc(), time: (s) => duration.observe(s) };
    answered.set(k, m);
  }
  m.count();
  m.time(seconds);
}
