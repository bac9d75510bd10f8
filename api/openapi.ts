import type { ErrorStatuses, RouteDescription } from './routes/spec';
import { costOf } from '../shared/domain/billing/costs';
import { accountComponents } from './schemas/account';
import { aiComponents } from './schemas/ai';
import { components as readComponents } from './schemas/responses';
import { webhooksDocument } from './schemas/webhooks';
import { choicesOf, CONTRACT_CHOICES } from './contractChoices';

/** Every named schema, whichever feature's file defines it. */
const components = { ...readComponents, ...aiComponents, ...accountComponents };

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request parameters: the message names the parameter and the rule.',
  401: 'Missing or invalid API key.',
  402: 'Balance is 0.',
  403: 'Not enough credits for this endpoint.',
  429: 'Rate limit of the key exceeded; Retry-After says when to try again. Never charged.',
  404: 'Not found.',
  503: 'A backing service is unreachable.',
};

/** The 503 of a metered route a test key reads delayed. */
const TEST_KEY_503 =
  "A backing service is unreachable (`service_unavailable`), or, for a test key, no data of this answer is as old as the test keys' delay yet (`test_data_pending`); Retry-After says when to ask again.";

/** The statuses of a session route (the account API) unless it describes them otherwise. */
const SESSION_TEXT: Record<number, string> = {
  401: 'Not signed in (no or expired session cookie).',
  403: 'Missing or wrong X-CSRF-Token.',
};

/** The 400 of a route outside the cost table whose query is read (account routes without their own wording). */
const QUERY_400 = 'An unknown query parameter or a bad value: the message names it.';

/** The account API's per-address limit (ACCOUNT_API_PER_ADDRESS_PER_MINUTE). */
const ADDRESS_429 = 'Too many requests from this address; Retry-After says when to try again.';

const errorResponse = (description: string | undefined) => ({
  description: description ?? 'Error.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const isStatusList = (errors: ErrorStatuses): errors is readonly number[] => Array.isArray(errors);

/** A route's own error statuses, each with its description (the document's default when it gives none). */
function ownErrors(errors: ErrorStatuses | undefined): Map<number, string | undefined> {
  if (!errors) return new Map();
  if (isStatusList(errors)) return new Map(errors.map((s) => [s, STATUS_TEXT[s]]));
  return new Map(Object.entries(errors).map(([s, text]) => [Number(s), text]));
}

const changes = (route: RouteDescription) => route.method !== 'GET';

/** The CSRF header a state-changing request of a session sends (api/account/session.ts). */
const CSRF_HEADER = { name: 'X-CSRF-Token', in: 'header', required: true, description: 'The csrfToken of the session.', schema: { type: 'string' } };

function parameters(route: RouteDescription): object[] {
  const out: object[] = [];
  if (route.auth === 'session' && changes(route)) out.push(CSRF_HEADER);
  for (const [name, schema] of Object.entries(route.params.properties)) {
    out.push({ name, in: 'path', required: true, description: schema.description, schema });
  }
  for (const [name, schema] of Object.entries(route.query?.properties ?? {})) {
    out.push({
      name,
      in: 'query',
      required: route.query?.required?.includes(name) ?? false,
      description: schema.description,
      schema,
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    });
  }
  for (const [name, schema] of Object.entries(route.headers?.properties ?? {})) {
    out.push({ name, in: 'header', required: route.headers?.required?.includes(name) ?? false, description: schema.description, schema });
  }
  return out;
}

/**
 * Who may call it, what it costs and which errors it answers. A route of the cost table: its
 * row's price and key, 400 and 503 always, the key's statuses when one is needed, and its own. A
 * route outside it (the account API): free, a session's cookie when it needs one, exactly its own
 * statuses and the session's (401, and 403 for a change without the CSRF token).
 */
function access(route: RouteDescription): { credits: number; per?: 'minute'; cost: string; security: object[]; errors: Map<number, string | undefined> } {
  const own = ownErrors(route.errors);
  if (route.price === null) {
    const implied: [number, string][] = [];
    // A query that is read is validated: an unknown parameter or a bad value is a 400 naming it.
    if (route.query) implied.push([400, QUERY_400]);
    if (route.auth === 'session') implied.push([401, SESSION_TEXT[401]]);
    if (route.auth === 'session' && changes(route)) implied.push([403, SESSION_TEXT[403]]);
    // The account API's router limits every request per address before any route (api/account/router.ts).
    if (route.mount === '/v2/account') implied.push([429, ADDRESS_429]);
    return {
      credits: 0,
      cost: 'Free: no credits, not metered.',
      security: route.auth === 'session' ? [{ sessionCookie: [] }] : [],
      errors: new Map([...implied, ...own]),
    };
  }
  // The route's cost table row is the authority on price and on whether a key is needed.
  const row = costOf(route.price);
  const keyed = !row.public;
  const credits = row.credits;
  const statuses = [400, ...(keyed ? [401, 402, 403, 429] : []), ...own.keys(), 503];
  // A test key's answer is delayed data (api/cache/testSnapshots.ts): its own 503 while none is old enough.
  const delayed = keyed && route.snapshots !== false;
  return {
    credits,
    ...(row.per ? { per: row.per } : {}),
    cost: `Costs ${credits} credit${credits === 1 ? '' : 's'} per ${row.per ?? 'request'}${keyed ? '' : '; no key needed'}.`,
    security: keyed ? [{ bearerAuth: [] }] : [],
    errors: new Map(statuses.map((s) => [s, own.get(s) ?? (s === 503 && delayed ? TEST_KEY_503 : STATUS_TEXT[s])])),
  };
}

function operation(route: RouteDescription): object {
  const { credits, per, cost, security, errors } = access(route);
  const status = route.status ?? 200;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [`${route.description} ${cost}`, ...choicesOf(route.operationId).map((c) => `Contract choice: ${c.reading}`)].join('\n\n'),
    tags: [route.tag],
    'x-credits': credits,
    ...(per ? { 'x-credits-per': per } : {}),
    ...route.extensions,
    security,
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [status]: status === 204 ? { description: 'Done.' } : { description: 'OK', content: { [route.mediaType ?? 'application/json']: { schema: route.response } } },
      ...Object.fromEntries([...errors.keys()].sort((a, b) => a - b).map((s) => [String(s), errorResponse(errors.get(s))])),
    },
  };
}

/** Where a route is published: its mount and path (the mount itself for its root). */
const publishedPath = (route: RouteDescription) => (route.path === '/' && route.mount ? route.mount : `${route.mount}${route.path}`);

const OPERATION_KEY = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/**
 * The OpenAPI 3.1 document of the given routes, built from the very schemas the validator
 * compiles (query and path) and the response schemas the tests validate served bodies against.
 */
export function openApiDocument(routes: readonly RouteDescription[], publicUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    if (route.documented) (paths[publishedPath(route)] ??= {})[OPERATION_KEY[route.method]] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sports Odds and AI Recommendations API',
      version: '1.0.0',
      // All rights reserved (package.json: UNLICENSED); SPDX names a license off its list with a LicenseRef-.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
      description:
        'Events of eight sports with betting markets and decimal odds, live statistics and odds, competitions and regions. ' +
        'Every parameter is validated: unknown parameters, bad values and nested or repeated single-valued parameters are 400s naming the parameter. ' +
        'Names are localized with `locale` (en, es, pt).\n\n' +
        'Where the contract is ambiguous, this API serves one reading (also under `x-contract-choices`):\n' +
        CONTRACT_CHOICES.map((c) => `- ${c.reading}`).join('\n'),
    },
    'x-contract-choices': CONTRACT_CHOICES.map(({ id, question, reading }) => ({ id, question, reading })),
    servers: [{ url: publicUrl.replace(/\/+$/, '') || '/' }], // served with the request's origin instead (api/routes/docs.ts)
    tags: [
      { name: 'Events', description: 'Event lists, details, trending, live events and live odds.' },
      { name: 'Reference', description: 'Competitions, regions and teams.' },
      { name: 'AI', description: 'Recommendations, featured picks, processed insights, value opportunities and performance.' },
      { name: 'Settlement', description: "How an event's bets were graded, and a bet item's price history." },
      { name: 'System', description: 'Health and statistics.' },
      {
        name: 'Account',
        description: 'Self-serve accounts: sign-up, sessions, API keys, usage, credit packages, auto-recharge and the track record of the model (what the dashboard shows). Free, never metered.',
      },
      {
        name: 'Webhooks',
        description:
          'Events the service POSTs to an endpoint of the account (Standard Webhooks signatures, retried with backoff for 27 hours, at least once, in no promised order): manage endpoints under /v2/account/webhooks.',
      },
    ],
    paths,
    // OpenAPI 3.1: what the service POSTs to a customer's endpoint (docs/webhooks.md), one per event.
    webhooks: webhooksDocument(),
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key (sk_live_... or sk_test_...)',
          description:
            'A live key (sk_live_...) is charged per request and reads live data. A test key (sk_test_...) is never charged, is limited per day, and reads delayed data: ' +
            "every answer it gets shows data at least the deployment's delay old (300 seconds by default), per data version, not per URL, with `Age` (how old, in seconds) and `X-Data-Delayed: true`; " +
            'an answer with no data that old yet (asked for the first time just after the data changed) is a 503 `test_data_pending` whose Retry-After says when it will be.',
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'odds_session', description: 'The session of the account API (set by signup and login).' },
      },
    },
  };
}
