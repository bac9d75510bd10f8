import { CREDIT_PACKAGES } from '../../shared/domain/billing/packages';
import { MAX_USAGE_DAYS } from '../../shared/domain/accounts/usage';
import { MIN_PASSWORD_LENGTH } from '../../shared/domain/accounts/passwordPolicy';
import { CHART_KINDS } from '../../shared/domain/trackRecord/charts';
import { MAX_TRACK_RECORD_DAYS } from '../../shared/app/trackRecord/load';
import { trackRecordResponse } from '../schemas/trackRecord';

/** The dashboard's track record window: as on /v2/ai/track-record. */
const TRACK_RECORD_WINDOW = [
  { name: 'days', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_TRACK_RECORD_DAYS, default: 30 } },
  { name: 'per', in: 'query', required: false, schema: { type: 'string', enum: ['recommendation', 'outcome'], default: 'recommendation' } },
];

/** The account API's part of the OpenAPI document: its tag, paths and schemas (merged in api/openapi.ts). */

export const ACCOUNT_TAG = {
  name: 'Account',
  description: 'Self-serve accounts: sign-up, sessions, API keys, usage, credit packages, auto-recharge and the track record of the model (what the dashboard shows). Free, never metered.',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });

const AutoRecharge = {
  type: 'object',
  required: ['enabled', 'threshold', 'package', 'disabledReason'],
  properties: {
    enabled: { type: 'boolean' },
    threshold: { type: 'integer', description: "Recharge when the balance falls below this (always below the package's credits)." },
    package: { type: ['integer', 'null'], enum: [...CREDIT_PACKAGES, null] },
    disabledReason: { type: ['string', 'null'], description: 'Why the service turned it off (e.g. declined twice).' },
  },
};

const SavedPaymentMethod = {
  type: ['object', 'null'],
  required: ['gateway', 'customer', 'paymentMethod', 'savedAt'],
  description: 'The payment method saved on the account: what purchases and auto-recharge charge. Null when none is saved.',
  properties: {
    gateway: { type: 'string', enum: ['test', 'stripe'] },
    customer: { type: ['string', 'null'], description: "The account's customer at the gateway, created by the service." },
    paymentMethod: { type: 'string' },
    savedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};

const PaymentMethodSetup = {
  type: 'object',
  required: ['setup', 'paymentMethod'],
  properties: {
    setup: {
      type: 'object',
      required: ['id', 'status', 'url'],
      properties: {
        id: { type: 'string', description: 'Confirm it with POST /v2/account/payment-method/confirm once the page is done.' },
        status: { type: 'string', enum: ['open', 'complete', 'expired'] },
        url: { type: ['string', 'null'], description: "The gateway's page where the owner enters the card (Stripe Checkout); null on the test gateway." },
      },
    },
    paymentMethod: SavedPaymentMethod,
  },
};

export const ACCOUNT_SCHEMAS = {
  AccountSession: {
    type: 'object',
    required: ['account', 'csrfToken'],
    properties: {
      account: {
        type: 'object',
        required: ['id', 'email', 'balance', 'autoRecharge'],
        properties: {
          id: { type: 'string' },
          email: { type: ['string', 'null'] },
          balance: { type: 'integer', minimum: 0 },
          autoRecharge: AutoRecharge,
          paymentMethod: SavedPaymentMethod,
          createdAt: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      csrfToken: { type: 'string', description: 'Send it as X-CSRF-Token with every POST, PUT and DELETE of this session.' },
    },
  },
  AccountKey: {
    type: 'object',
    required: ['id', 'name', 'mode', 'prefix', 'createdAt', 'lastUsedAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      mode: { type: 'string', enum: ['live', 'test'] },
      prefix: { type: 'string', description: 'The first characters of the key, to recognise it; never the secret.' },
      createdAt: { type: 'string', format: 'date-time' },
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  AccountUsage: {
    type: 'object',
    required: ['days', 'from', 'to', 'data', 'totals'],
    properties: {
      days: { type: 'integer' },
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
      data: {
        type: 'array',
        items: {
          type: 'object',
          required: ['day', 'endpoint', 'requests', 'credits'],
          properties: { day: { type: 'string', format: 'date' }, endpoint: { type: 'string' }, requests: { type: 'integer' }, credits: { type: 'integer' } },
        },
      },
      totals: { type: 'object', required: ['requests', 'credits'], properties: { requests: { type: 'integer' }, credits: { type: 'integer' } } },
    },
  },
  AccountPurchase: {
    type: 'object',
    required: ['id', 'package', 'priceCents', 'currency', 'chargeId', 'replayed', 'balance'],
    properties: {
      id: { type: 'string' },
      package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
      priceCents: { type: 'integer' },
      currency: { type: 'string' },
      chargeId: { type: 'string' },
      replayed: { type: 'boolean', description: 'True when this answers a retry of a purchase already made (nothing charged or credited again).' },
      balance: { type: 'integer' },
    },
  },
  AutoRechargeSettings: { type: 'object', required: ['autoRecharge'], properties: { autoRecharge: AutoRecharge } },
};

const credentials = {
  required: true,
  content: json({
    type: 'object',
    required: ['email', 'password'],
    properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 } },
  }),
};

const CSRF = { name: 'X-CSRF-Token', in: 'header', required: true, description: 'The csrfToken of the session.', schema: { type: 'string' } };
const session = [{ sessionCookie: [] }];

function op(
  operationId: string,
  summary: string,
  description: string,
  extra: { ok: [number, object | null]; errors: Record<number, string>; body?: object; csrf?: boolean; auth?: boolean; parameters?: object[] },
) {
  const [status, schema] = extra.ok;
  return {
    operationId,
    summary,
    description: `${description} Free: no credits, not metered.`,
    tags: [ACCOUNT_TAG.name],
    'x-credits': 0,
    security: extra.auth === false ? [] : session,
    parameters: [...(extra.csrf ? [CSRF] : []), ...(extra.parameters ?? [])],
    ...(extra.body ? { requestBody: extra.body } : {}),
    responses: {
      [status]: schema ? { description: 'OK', content: json(schema) } : { description: 'Done.' },
      ...Object.fromEntries(Object.entries(extra.errors).map(([s, d]) => [s, error(d)])),
    },
  };
}

/** Sign-up and login: credentials in, a new session out, no session needed. */
const signInOp = (operationId: string, summary: string, description: string, status: number, errors: Record<number, string>) =>
  op(operationId, summary, description, { ok: [status, ref('AccountSession')], body: credentials, auth: false, errors });

const SIGNED_IN = { 401: 'Not signed in (no or expired session cookie).' };
const CHANGE = { ...SIGNED_IN, 403: 'Missing or wrong X-CSRF-Token.' };
/** What changes money: also refused when the deployment sells nothing. */
const MONEY = { ...SIGNED_IN, 403: 'Missing or wrong X-CSRF-Token, or this deployment sells nothing (PAYMENT_GATEWAY=none).' };

export function accountPaths(): Record<string, Record<string, object>> {
  return {
    '/v2/account/signup': {
      post: signInOp('accountSignup', 'Create an account', 'Creates the account with 500 free credits and signs in: sets the session cookie (HttpOnly, SameSite=Lax).', 201, {
        400: 'Malformed e-mail or weak password (under 12 characters or a common password); the message names the field.',
        409: 'An account with this e-mail exists (case-insensitive).',
        415: 'Not a JSON body.',
      }),
    },
    '/v2/account/login': {
      post: signInOp('accountLogin', 'Sign in', 'Starts a new session (a new cookie; the previous session of this browser ends).', 200, {
        400: 'email or password missing.',
        401: 'Wrong e-mail or password (one answer for both).',
        429: 'Too many failed logins for this e-mail or from this address; Retry-After says when to try again.',
      }),
    },
    '/v2/account/logout': { post: op('accountLogout', 'Sign out', 'Ends the session and clears the cookie.', { ok: [204, null], csrf: true, errors: CHANGE }) },
    '/v2/account': {
      get: op('accountGet', 'The signed-in account', 'E-mail, balance, auto-recharge settings and the CSRF token of the session.', { ok: [200, ref('AccountSession')], errors: SIGNED_IN }),
    },
    '/v2/account/keys': {
      get: op('accountKeysList', 'List API keys', 'The unrevoked keys: name, mode, prefix, created, last used. Never a secret.', {
        ok: [200, { type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('AccountKey') } } }],
        errors: SIGNED_IN,
      }),
      post: op('accountKeysCreate', 'Create an API key', 'The secret is in this answer only: it is stored hashed.', {
        ok: [
          201,
          { type: 'object', required: ['id', 'key'], properties: { id: { type: 'string' }, key: { type: 'string' }, name: { type: 'string' }, mode: { type: 'string' }, prefix: { type: 'string' } } },
        ],
        csrf: true,
        body: {
          required: true,
          content: json({ type: 'object', required: ['name', 'mode'], properties: { name: { type: 'string', maxLength: 100 }, mode: { type: 'string', enum: ['live', 'test'] } } }),
        },
        errors: { 400: 'Bad name or mode.', ...CHANGE, 409: 'Too many keys.' },
      }),
    },
    '/v2/account/keys/{id}': {
      delete: op('accountKeysRevoke', 'Revoke an API key', 'The key answers 401 from its very next request, on every web process.', {
        ok: [200, { type: 'object', required: ['id', 'revokedAt'], properties: { id: { type: 'string' }, revokedAt: { type: 'string', format: 'date-time' } } }],
        csrf: true,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        errors: { ...CHANGE, 404: 'No such key in this account.' },
      }),
    },
    '/v2/account/usage': {
      get: op('accountUsage', 'Usage per day and endpoint', 'Billed requests and credits per UTC day and endpoint, from the ledger (refunded requests not counted).', {
        ok: [200, ref('AccountUsage')],
        parameters: [{ name: 'days', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_USAGE_DAYS, default: 30 } }],
        errors: { 400: 'Bad days.', ...SIGNED_IN },
      }),
    },
    '/v2/account/track-record': {
      get: op(
        'accountTrackRecord',
        "The model's track record, for the dashboard",
        'The same figures as /v2/ai/track-record (without the sport and confidence filters), for a signed-in session: what the dashboard shows.',
        { ok: [200, trackRecordResponse], parameters: TRACK_RECORD_WINDOW, errors: { 400: 'Bad days or per.', ...SIGNED_IN } },
      ),
    },
    '/v2/account/track-record/chart.svg': {
      get: {
        ...op('accountTrackRecordChart', 'Track record chart (SVG), for the dashboard', 'The same charts as /v2/ai/track-record/chart.svg, for a signed-in session.', {
          ok: [200, null],
          parameters: [{ name: 'kind', in: 'query', required: false, schema: { type: 'string', enum: [...CHART_KINDS], default: 'cumulative' } }, ...TRACK_RECORD_WINDOW],
          errors: { 400: 'Bad kind, days or per.', ...SIGNED_IN },
        }),
        responses: {
          200: { description: 'OK', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          400: error('Bad kind, days or per.'),
          ...Object.fromEntries(Object.entries(SIGNED_IN).map(([status, d]) => [status, error(d)])),
        },
      },
    },
    '/v2/account/packages': {
      get: op('accountPackages', 'Credit packages', 'Sizes and prices; credits never expire.', {
        ok: [200, { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object' } } } }],
        auth: false,
        errors: {},
      }),
    },
    '/v2/account/purchases': {
      post: op(
        'accountPurchase',
        'Buy a credit package',
        "Charges the account's saved payment method (never one named in the request) through the configured gateway and credits the package. One Idempotency-Key is one purchase: a retry charges and credits nothing more (answered with replayed: true). Without the header, identical purchases within 10 minutes are one purchase.",
        {
          ok: [201, ref('AccountPurchase')],
          csrf: true,
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
          body: {
            required: true,
            content: json({
              type: 'object',
              required: ['package'],
              additionalProperties: false,
              properties: {
                package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
              },
            }),
          },
          errors: {
            400: 'Bad package, or a paymentMethod or customer sent (not accepted).',
            ...MONEY,
            402: 'Payment declined.',
            409: 'No payment method saved, or Idempotency-Key reused for another purchase.',
            503: 'Gateway did not answer: retry with the same key.',
          },
        },
      ),
    },
    '/v2/account/payment-method': {
      get: op('accountPaymentMethodGet', 'The saved payment method', 'What purchases and auto-recharge charge; null when none is saved.', {
        ok: [
          200,
          {
            type: 'object',
            required: ['paymentMethod', 'gateway', 'testCards'],
            properties: {
              paymentMethod: SavedPaymentMethod,
              gateway: { type: 'string', enum: ['test', 'stripe', 'none'], description: 'none: this deployment sells nothing.' },
              testCards: { type: 'array', items: { type: 'string' }, description: "The test gateway's cards a setup can save (empty otherwise)." },
            },
          },
        ],
        errors: SIGNED_IN,
      }),
      post: op(
        'accountPaymentMethodSetup',
        'Save a card',
        "Creates the account's customer at the gateway (once) and starts a setup. Stripe: answers the Checkout page (setup mode) to send the owner to, which returns to the dashboard; confirm the setup afterwards. The test gateway: testCard names one of its test cards (pm_card_visa, ...) and the card is saved at once.",
        {
          ok: [201, PaymentMethodSetup],
          csrf: true,
          body: { required: true, content: json({ type: 'object', additionalProperties: false, properties: { testCard: { type: 'string', description: 'The test gateway only.' } } }) },
          errors: { 400: 'testCard missing (test gateway) or sent (Stripe), or another field.', ...MONEY, 503: 'Gateway did not answer: retry.' },
        },
      ),
      delete: op('accountPaymentMethodRemove', 'Forget the saved card', 'Nothing can be charged until a card is saved again; auto-recharge is turned off.', {
        ok: [200, { type: 'object' }],
        csrf: true,
        errors: CHANGE,
      }),
    },
    '/v2/account/payment-method/confirm': {
      post: op(
        'accountPaymentMethodConfirm',
        'Save the card of a finished setup',
        "Reads the setup back from the gateway (never from the request) and saves its card when the setup is this account's and complete.",
        {
          ok: [200, PaymentMethodSetup],
          csrf: true,
          body: { required: true, content: json({ type: 'object', required: ['setupId'], additionalProperties: false, properties: { setupId: { type: 'string', pattern: '^cs_' } } }) },
          errors: { 400: 'Bad setupId.', ...MONEY, 404: 'No setup of this account with this id.', 409: 'The setup is not complete (or expired).', 503: 'Gateway did not answer: retry.' },
        },
      ),
    },
    '/v2/account/auto-recharge': {
      put: op(
        'accountAutoRechargeSet',
        'Turn auto-recharge on',
        'Buys the package when the balance falls below the threshold (once per low-balance window; a decline is retried once an hour later).',
        {
          ok: [200, ref('AutoRechargeSettings')],
          csrf: true,
          body: {
            required: true,
            content: json({
              type: 'object',
              required: ['threshold', 'package'],
              additionalProperties: false,
              properties: {
                threshold: { type: 'integer', minimum: 1, description: "Below the package's credits." },
                package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
              },
            }),
          },
          errors: { 400: "Bad package, a threshold not below the package's credits, or a paymentMethod or customer sent.", ...MONEY, 409: 'No payment method saved.' },
        },
      ),
      delete: op('accountAutoRechargeOff', 'Turn auto-recharge off', 'No further charges.', { ok: [200, ref('AutoRechargeSettings')], csrf: true, errors: CHANGE }),
    },
  };
}
