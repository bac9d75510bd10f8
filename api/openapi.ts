import { getConfig } from '../shared/platform/config';
import type { RouteDescription } from './routes/spec';
import { costOf } from '../shared/domain/billing/costs';
import { aiComponents } from './schemas/ai';
import { components as readComponents } from './schemas/responses';
import { choicesOf, CONTRACT_CHOICES } from './contractChoices';
import { ACCOUNT_SCHEMAS, ACCOUNT_TAG, accountPaths } from './account/openapi';

/** Every named schema, whichever feature's file defines it. */
const components = { ...readComponents, ...aiComponents, ...ACCOUNT_SCHEMAS };

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request parameters: the message names the parameter and the rule.',
  401: 'Missing or invalid API key.',
  402: 'Balance is 0.',
  403: 'Not enough credits for this endpoint.',
  429: 'Rate limit of the key exceeded; Retry-After says when to try again. Never charged.',
  404: 'Not found.',
  503: 'A backing service is unreachable.',
};

const errorResponse = (status: number) => ({
  description: STATUS_TEXT[status] ?? 'Error.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function parameters(route: RouteDescription): object[] {
  const out: object[] = [];
  for (const [name, schema] of Object.entries(route.params.properties)) {
    out.push({ name, in: 'path', required: true, description: schema.description, schema });
  }
  for (const [name, schema] of Object.entries(route.query?.properties ?? {})) {
    out.push({
      name,
      in: 'query',
      required: false,
      description: schema.description,
      schema,
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    });
  }
  return out;
}

function operation(route: RouteDescription): object {
  // The route's cost table row is the authority on price and on whether a key is needed.
  const row = route.price ? costOf(route.price) : undefined;
  const keyed = row ? !row.public : route.auth === 'key';
  const credits = row?.credits ?? 0;
  const statuses = [400, ...(keyed ? [401, 402, 403, 429] : []), ...(route.errors ?? []), 503];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      `${route.description} Costs ${credits} credit${credits === 1 ? '' : 's'} per request${keyed ? '' : '; no key needed'}.`,
      ...choicesOf(route.operationId).map((c) => `Contract choice: ${c.reading}`),
    ].join('\n\n'),
    tags: [route.tag],
    'x-credits': credits,
    security: keyed ? [{ bearerAuth: [] }] : [],
    parameters: parameters(route),
    responses: {
      200: {
        description: 'OK',
        content: { [route.mediaType ?? 'application/json']: { schema: route.response } },
      },
      ...Object.fromEntries([...new Set(statuses)].sort().map((s) => [String(s), errorResponse(s)])),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the given routes, built from the very schemas the validator
 * compiles (query and path) and the response schemas the tests validate served bodies against.
 */
export function openApiDocument(routes: readonly RouteDescription[]): Record<string, unknown> {
  const cfg = getConfig();
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    if (route.documented) (paths[`${route.mount}${route.path}`] ??= {}).get = operation(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Sports Odds and AI Recommendations API',
      version: '1.0.0',
      description:
        'Events of eight sports with betting markets and decimal odds, live statistics and odds, competitions and regions. ' +
        'Every parameter is validated: unknown parameters, bad values and nested or repeated single-valued parameters are 400s naming the parameter. ' +
        'Names are localized with `locale` (en, es, pt).\n\n' +
        'Where the contract is ambiguous, this API serves one reading (also under `x-contract-choices`):\n' +
        CONTRACT_CHOICES.map((c) => `- ${c.reading}`).join('\n'),
    },
    'x-contract-choices': CONTRACT_CHOICES.map(({ id, question, reading }) => ({ id, question, reading })),
    servers: [{ url: cfg.PUBLIC_URL.replace(/\/+$/, '') || '/' }], // served with the request's origin instead (api/routes/docs.ts)
    tags: [
      { name: 'Events', description: 'Event lists, details, trending, live events and live odds.' },
      { name: 'Reference', description: 'Competitions, regions and teams.' },
      { name: 'AI', description: 'Recommendations, featured picks, processed insights, value opportunities and performance.' },
      { name: 'Settlement', description: "How an event's bets were graded, and a bet item's price history." },
      { name: 'System', description: 'Health and statistics.' },
      ACCOUNT_TAG,
    ],
    paths: { ...paths, ...accountPaths() },
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'API key (sk_live_... or sk_test_...)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'odds_session', description: 'The session of the account API (set by signup and login).' },
      },
    },
  };
}
