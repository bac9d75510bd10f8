import { WEBHOOK_EVENTS } from '../webhooks/events';

/**
 * The one cost table: credits per request for every endpoint of the API contract's "Limits". Where the
 * contract documents two values (docs/contract-choices.md), the cost table wins (trending 2, value-opportunities 5). Paths are
 * written the OpenAPI way ({param}); `public` endpoints need no key and cost nothing.
 *
 * The metering middleware prices a request by matching its path here, the way Express matches
 * routes (case-insensitive, one optional trailing slash, a parameter is one non-empty segment),
 * so a route is metered whichever branch or router serves it. A path that is in no row is not
 * metered: it is either free by design or unknown (404).
 */
export interface CostRow {
  readonly path: string;
  readonly credits: number;
  readonly public: boolean;
  readonly note?: string;
  /** What one charge of `credits` buys when it is not one request: a stream's connected minute. */
  readonly per?: 'minute';
}

const row = (path: string, credits: number, note?: string): CostRow => ({ path, credits, public: credits === 0, ...(note ? { note } : {}) });

/** Rows of the same price without a note, in table order. */
const rows = (credits: number, ...paths: string[]) => paths.map((path) => row(path, credits));

export const COST_TABLE = [
  ...rows(0, '/v2/health', '/v2/regions', '/v2/competitions', '/v2/stats', '/v2/openapi.json'),
  row('/v2/docs', 0, 'browsable API documentation'),
  row('/v2/docs/{asset}', 0, "the documentation page's own files"),
  row('/v2/costs', 0, 'this table'),
  ...rows(1, '/v2/matches', '/v2/matches/{eventId}', '/v2/teams', '/v2/bets/events/{eventId}/settle-bet', '/v2/bets/bet-items/{betItemId}/odds-movement', '/v2/ai/performance'),
  row('/v2/matches/{eventId}/odds', 1, 'odds at a past instant, from the stored price history: priced as the event detail'),
  row('/v2/ai/performance/daily', 1, 'daily breakdown with cumulative profit and loss'),
  row('/v2/ai/track-record/chain', 1, 'a page of the commitments chain'),
  row('/v2/ai/track-record/heads', 1, 'the hourly published chain heads'),
  row('/v2/ai/track-record/{recommendationId}/proof', 1, 'a committed record and its links to the head'),
  ...rows(2, '/v2/matches/live', '/v2/matches/{eventId}/live-odds', '/v2/ai/betting-recommendations', '/v2/ai/processed-insights'),
  row('/v2/matches/trending', 2, 'the API contract lists 1 on the endpoint page and 2 in the cost table; the cost table wins'),
  row('/v2/ai/track-record', 2, 'computed from the settled bets of the window'),
  row('/v2/ai/track-record/chart.svg', 2, 'a server-rendered SVG chart'),
  row('/v2/ai/value-opportunities', 5, 'the API contract lists 2 on the endpoint page and 5 in the cost table; the cost table wins'),
  row('/v2/ai/featured-picks', 10),
  {
    ...row(
      '/v2/stream',
      1,
      "Server-Sent Events: 1 credit per started minute of connection, debited at open and at the start of each further minute; a resume (Last-Event-ID) also pays 1 credit per started minute it replays, less the open's",
    ),
    per: 'minute',
  },
] as const satisfies readonly CostRow[];

export type MeteredPath = (typeof COST_TABLE)[number]['path'];

/** The cost table row of a path (a route's `price`). */
export function costOf(path: MeteredPath): CostRow {
  return COST_TABLE.find((r) => r.path === path) ?? row(path, 0);
}

/** A priced endpoint as the middleware uses it: `id` is "GET <path>" (ledger `endpoint`, headers, logs). */
export interface Priced {
  readonly id: string;
  readonly path: string;
  readonly credits: number;
  readonly public: boolean;
}

interface Compiled extends Priced {
  readonly segments: readonly (string | null)[]; // null = parameter
}

const compiled: Compiled[] = COST_TABLE.map((r) => ({
  id: `GET ${r.path}`,
  path: r.path,
  credits: r.credits,
  public: r.public,
  segments: r.path
    .split('/')
    .slice(1)
    .map((s) => (/^\{[A-Za-z]+\}$/.test(s) ? null : s.toLowerCase())),
}))
  // Static rows before parameterized ones, so /matches/trending is never priced as /matches/{eventId}.
  .sort((a, b) => a.segments.filter((s) => s === null).length - b.segments.filter((s) => s === null).length);

/**
 * The priced row for a request, or undefined when the path is in no row. Only GET and HEAD are
 * priced (Express serves HEAD with the GET handler; other methods reach no read route).
 * `path` is the raw path (no query string), as Express matches it.
 */
export function priceOf(method: string, path: string): Priced | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const lower = path.toLowerCase();
  const trimmed = lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
  const parts = trimmed.split('/').slice(1);
  for (const c of compiled) {
    if (c.segments.length !== parts.length) continue;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const want = c.segments[i];
      ok = want === null ? parts[i].length > 0 : parts[i] === want;
    }
    if (ok) return c;
  }
  return undefined;
}

/**
 * What a webhook delivery costs, per event type (shared/domain/webhooks/events.ts): live data costs
 * what one request costs, charged once per delivered event; news of the account's own money is free.
 */
export const WEBHOOK_COSTS = WEBHOOK_EVENTS.map((e) => ({
  event: e.type,
  credits: e.credits,
  note: e.credits ? 'per event delivered to an endpoint (its first 2xx); retries and resends are free; refused without the credits, and retried' : "the account's own money: free",
}));

/** The table as served by GET /v2/costs: the requests, and the webhook deliveries apart. */
export function costTableDocument(): { data: { method: 'GET'; path: string; credits: number; keyRequired: boolean; note?: string }[]; webhooks: { event: string; credits: number; note: string }[] } {
  return {
    data: COST_TABLE.map((r: CostRow) => ({ method: 'GET' as const, path: r.path, credits: r.credits, keyRequired: !r.public, ...(r.note ? { note: r.note } : {}) })),
    webhooks: WEBHOOK_COSTS,
  };
}

/**
 * For the OpenAPI document: per path, the `x-credits` extension and the security requirement of
 * its GET operation, plus the bearer scheme. The document's builder merges these into its paths.
 */
export function openApiCosts(): {
  securitySchemes: Record<string, object>;
  operations: Record<string, { 'x-credits': number; security: object[] }>;
} {
  return {
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'API key: sk_live_... or sk_test_... (test keys consume no credits)' } },
    operations: Object.fromEntries(COST_TABLE.map((r: CostRow) => [r.path, { 'x-credits': r.credits, security: r.public ? [] : [{ apiKey: [] }] }])),
  };
}
