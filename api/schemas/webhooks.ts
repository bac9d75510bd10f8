import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, type WebhookEventType } from '../../shared/domain/webhooks/events';
import { MAX_URL_LENGTH } from '../../shared/domain/webhooks/address';
import { MAX_DELIVERIES_LISTED } from '../../shared/app/webhooks/endpoints';

/**
 * The webhooks' schemas: the account API's requests and answers (api/routes/account/webhooks.ts),
 * and each event's body as a receiver gets it, published under the OpenAPI document's `webhooks`
 * (docs/webhooks.md has an example of each).
 */

const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const events = { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] }, description: 'The events the endpoint receives (at least one).' } as const;

export const webhookBody = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      maxLength: MAX_URL_LENGTH,
      description: 'Where events are POSTed: https in production; not an address of the service’s own network (loopback, private, link-local, metadata), checked now and at every attempt.',
    },
    events,
  },
} as const;

export const webhookParams = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;
export const deliveryParams = { type: 'object', required: ['id', 'deliveryId'], properties: { id: { type: 'string' }, deliveryId: { type: 'string' } } } as const;
export const deliveriesQuery = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_DELIVERIES_LISTED, default: 20 } } } as const;

const secret = { type: 'string', pattern: '^whsec_', description: 'The signing secret (Standard Webhooks: `whsec_` and the base64 of its key). Shown in this answer only.' } as const;

export const newWebhookResponse = {
  type: 'object',
  required: ['id', 'url', 'events', 'secret', 'createdAt'],
  properties: { id: { type: 'string' }, url: { type: 'string' }, events, secret, createdAt: dateTime },
} as const;

const endpointView = {
  type: 'object',
  required: ['id', 'url', 'events', 'createdAt', 'enabled', 'disabledAt', 'disabledReason', 'failedAttemptsInARow', 'failingSince', 'lastError'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    events,
    createdAt: nullableDateTime,
    enabled: { type: 'boolean', description: 'False once the service turned it off after a run of failures (turn it back on with POST .../enable).' },
    disabledAt: nullableDateTime,
    disabledReason: { type: ['string', 'null'] },
    failedAttemptsInARow: { type: 'integer', minimum: 0 },
    failingSince: nullableDateTime,
    lastError: { type: ['string', 'null'], description: 'The last failed attempt: `HTTP <status>` or why no answer came (timeout, refused, address_not_allowed: ...).' },
  },
} as const;

export const webhooksResponse = { type: 'object', required: ['data'], properties: { data: { type: 'array', items: endpointView } } } as const;
export const deletedWebhookResponse = { type: 'object', required: ['id', 'deletedAt'], properties: { id: { type: 'string' }, deletedAt: dateTime } } as const;
export const rotatedSecretResponse = {
  type: 'object',
  required: ['id', 'secret', 'previousSecretExpiresAt'],
  properties: { id: { type: 'string' }, secret, previousSecretExpiresAt: { ...dateTime, description: 'Until then each attempt is signed with both secrets (two `v1,` signatures).' } },
} as const;
export const enabledWebhookResponse = { type: 'object', required: ['id', 'enabled'], properties: { id: { type: 'string' }, enabled: { type: 'boolean' } } } as const;
export const testWebhookResponse = {
  type: 'object',
  required: ['deliveryId', 'eventId', 'type'],
  properties: { deliveryId: { type: 'string' }, eventId: { type: 'string', description: 'The webhook-id of the ping.' }, type: { type: 'string', const: 'ping' } },
} as const;

const attempt = {
  type: 'object',
  required: ['n', 'at', 'statusCode', 'error', 'durationMs', 'manual'],
  properties: {
    n: { type: 'integer', minimum: 1 },
    at: dateTime,
    statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when none came back." },
    error: { type: ['string', 'null'], description: 'Why no status came back (timeout, a network error, address_not_allowed: ..., insufficient_credits).' },
    durationMs: { type: 'integer', minimum: 0 },
    manual: { type: 'boolean', description: 'Asked for with redeliver.' },
  },
} as const;

export const deliveriesResponse = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'eventId', 'type', 'status', 'createdAt', 'nextAttemptAt', 'deliveredAt', 'reason', 'attempts'],
        properties: {
          id: { type: 'string' },
          eventId: { type: 'string', description: 'The webhook-id: the same on every attempt.' },
          type: { type: 'string' },
          status: { type: 'string', enum: ['pending', 'delivered', 'failed', 'cancelled'] },
          createdAt: nullableDateTime,
          nextAttemptAt: nullableDateTime,
          deliveredAt: nullableDateTime,
          reason: { type: ['string', 'null'] },
          attempts: { type: 'array', items: attempt },
        },
      },
    },
  },
} as const;

export const redeliveredResponse = { type: 'object', required: ['id', 'attempt'], properties: { id: { type: 'string' }, attempt: { type: 'integer', minimum: 1 } } } as const;

// The events as a receiver gets them.

const num = { type: ['number', 'null'] } as const;
const text = { type: ['string', 'null'] } as const;

const EVENT_DATA: Record<WebhookEventType | 'ping', object> = {
  'recommendation.created': {
    type: 'object',
    required: ['id', 'eventId', 'odds', 'createdAt'],
    properties: {
      id: { type: 'string' },
      eventId: { type: 'string' },
      marketId: text,
      betItemId: text,
      betTypeSysname: text,
      code: text,
      line: num,
      outcome: text,
      bookmaker: text,
      odds: num,
      probability: num,
      fairOdds: num,
      edgePercentage: num,
      confidence: text,
      kellyFraction: num,
      eventStartAt: nullableDateTime,
      createdAt: dateTime,
    },
  },
  'recommendation.settled': {
    type: 'object',
    required: ['id', 'eventId', 'result', 'settledVersion', 'settledAt', 'closingLine'],
    properties: {
      id: { type: 'string' },
      eventId: { type: 'string' },
      betItemId: text,
      code: text,
      outcome: text,
      bookmaker: text,
      odds: num,
      result: { type: ['string', 'null'], enum: ['won', 'lost', 'push', null] },
      resultDetail: text,
      returnPerUnit: num,
      settledVersion: { type: 'integer', description: "The event's result version graded: a corrected result is a new event." },
      settledAt: dateTime,
      closingLine: {
        type: 'object',
        required: ['closingOdds', 'clv'],
        properties: {
          closingOdds: { ...num, description: "The benchmark's closing price of the outcome." },
          clv: { ...num, description: 'Closing-line value: taken odds / de-vigged closing fair odds - 1.' },
        },
      },
    },
  },
  'pick.created': {
    type: 'object',
    required: ['id', 'pickType', 'featuredDate', 'startsAt', 'totalOdds', 'legs'],
    properties: {
      id: { type: 'string' },
      pickType: { type: 'string', enum: ['single', 'parlay'] },
      featuredDate: { type: 'string', format: 'date' },
      startsAt: dateTime,
      totalOdds: { type: 'number' },
      probability: { type: 'number' },
      edgePercentage: { type: 'number' },
      confidence: { type: 'string' },
      kellyFraction: { type: 'number' },
      event: { type: ['object', 'null'] },
      legs: { type: 'array', items: { type: 'object' } },
    },
  },
  'balance.low': {
    type: 'object',
    required: ['accountId', 'balance', 'level', 'autoRecharge'],
    properties: {
      accountId: { type: 'string' },
      balance: { type: 'integer', description: 'The live balance when it was found low.' },
      level: { type: 'integer', description: 'The level it fell under: the auto-recharge threshold, or the deployment’s low-balance level.' },
      autoRecharge: { type: 'object', properties: { enabled: { type: 'boolean' }, threshold: { type: 'integer' } } },
    },
  },
  'recharge.succeeded': {
    type: 'object',
    required: ['accountId', 'attemptId', 'credits', 'amountCents', 'currency', 'mode'],
    properties: {
      accountId: { type: 'string' },
      attemptId: { type: 'string' },
      credits: { type: 'integer' },
      amountCents: { type: 'integer' },
      currency: { type: 'string' },
      mode: { type: 'string', enum: ['live', 'test'], description: 'test: charged through the test gateway, credited to the test credits.' },
      chargeId: text,
    },
  },
  'recharge.failed': {
    type: 'object',
    required: ['accountId', 'code', 'message', 'willRetry', 'autoRechargeDisabled'],
    properties: {
      accountId: { type: 'string' },
      attempt: { type: ['integer', 'null'] },
      code: { type: 'string' },
      message: { type: 'string' },
      willRetry: { type: 'boolean' },
      nextAttemptAt: nullableDateTime,
      autoRechargeDisabled: { type: 'boolean' },
    },
  },
  ping: { type: 'object', required: ['endpointId', 'message'], properties: { endpointId: { type: 'string' }, message: { type: 'string' } } },
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The event’s id (msg_...): the same on every attempt; dedupe by it.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'The attempt’s time, in seconds since the epoch (refuse one far from your clock).', schema: { type: 'string' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the secret’s key; two, separated by a space, for a day after a rotation.',
    schema: { type: 'string' },
  },
];

/** The OpenAPI 3.1 `webhooks` of the document: one POST per event, its body and signature headers. */
export function webhooksDocument(): Record<string, object> {
  const out: Record<string, object> = {};
  const all = [
    ...WEBHOOK_EVENTS.map((e) => ({ type: e.type, description: e.description, credits: e.credits })),
    { type: 'ping' as const, description: 'The test sent by POST /v2/account/webhooks/{id}/test.', credits: 0 },
  ];
  for (const e of all) {
    out[e.type] = {
      post: {
        operationId: `webhook_${e.type.replace('.', '_')}`,
        summary: e.type,
        description: `${e.description} ${e.credits ? `Costs ${e.credits} credit per delivered event (charged at its first 2xx; retries are free).` : 'Free.'} Signed per the Standard Webhooks specification; retried on failure (docs/webhooks.md).`,
        tags: ['Webhooks'],
        'x-credits': e.credits,
        // No credentials of the receiver's: the request proves itself by its signature headers.
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['type', 'timestamp', 'data'], properties: { type: { type: 'string', const: e.type }, timestamp: dateTime, data: EVENT_DATA[e.type] } },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx delivers it; anything else (or no answer within the timeout) is retried.' } },
      },
    };
  }
  return out;
}
