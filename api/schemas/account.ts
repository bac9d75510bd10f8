import { CREDIT_PACKAGES } from '../../shared/domain/billing/packages';
import { MAX_USAGE_DAYS } from '../../shared/domain/accounts/usage';
import { MIN_PASSWORD_LENGTH } from '../../shared/domain/accounts/passwordPolicy';
import { CHART_KINDS } from '../../shared/domain/trackRecord/charts';
import { trackRecordDays } from './trackRecord';

/**
 * Request and response schemas of the account API (/v2/account, api/routes/account/), as JSON
 * Schema constants: the routes validate their query and the shape of their bodies with them, and
 * the OpenAPI document publishes them (responses reference `#/components/schemas/<name>` of
 * `accountComponents`). The rules on body values (e-mail, password, packages, thresholds, fields
 * not accepted) are published here and checked by the use cases (shared/app/accounts, billing).
 */

const ref = <N extends keyof typeof accountComponents>(name: N) => ({ $ref: `#/components/schemas/${name}` }) as const;

const LIVE_BALANCE = 'Live credits: what live keys spend and see in X-Credits-Remaining (the sign-up grant and purchases through a real gateway).';
const TEST_BALANCE = 'Test credits: bought through the test gateway, apart from the live balance; only test keys see them (X-Credits-Remaining), nothing spends them, and a live key never can.';

const AutoRecharge = {
  type: 'object',
  required: ['enabled', 'threshold', 'package', 'disabledReason'],
  properties: {
    enabled: { type: 'boolean' },
    threshold: {
      type: 'integer',
      description: "Recharge when the (live) balance falls below this (always below the package's credits). Through the test gateway the recharge buys test credits.",
    },
    package: { type: ['integer', 'null'], enum: [...CREDIT_PACKAGES, null] },
    disabledReason: { type: ['string', 'null'], description: 'Why the service turned it off (e.g. declined twice).' },
  },
} as const;

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
} as const;

const paymentMethodSetup = {
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
} as const;

/** The named schemas of the account API's answers. */
export const accountComponents = {
  AccountSession: {
    type: 'object',
    required: ['account', 'csrfToken'],
    properties: {
      account: {
        type: 'object',
        required: ['id', 'email', 'balance', 'testBalance', 'autoRecharge'],
        properties: {
          id: { type: 'string' },
          email: { type: ['string', 'null'] },
          balance: { type: 'integer', minimum: 0, description: LIVE_BALANCE },
          testBalance: { type: 'integer', minimum: 0, description: TEST_BALANCE },
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
    required: ['id', 'package', 'priceCents', 'currency', 'chargeId', 'replayed', 'mode', 'balance', 'testBalance'],
    properties: {
      id: { type: 'string' },
      package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
      priceCents: { type: 'integer' },
      currency: { type: 'string' },
      chargeId: { type: 'string' },
      replayed: { type: 'boolean', description: 'True when this answers a retry of a purchase already made (nothing charged or credited again).' },
      mode: {
        type: 'string',
        enum: ['live', 'test'],
        description: 'test: bought through the test gateway (nothing really charged), credited to testBalance; live: bought through a real gateway, credited to balance.',
      },
      balance: { type: 'integer', description: LIVE_BALANCE },
      testBalance: { type: 'integer', description: TEST_BALANCE },
    },
  },
  AutoRechargeSettings: { type: 'object', required: ['autoRecharge'], properties: { autoRecharge: AutoRecharge } },
} as const;

// Requests.

/** Sign-up and login. */
export const credentialsBody = {
  type: 'object',
  required: ['email', 'password'],
  properties: { email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 } },
} as const;

export const newKeyBody = { type: 'object', required: ['name', 'mode'], properties: { name: { type: 'string', maxLength: 100 }, mode: { type: 'string', enum: ['live', 'test'] } } } as const;

export const keyParams = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;

export const usageQuery = { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: MAX_USAGE_DAYS, default: 30 } } } as const;

/** The dashboard's track record window: as on /v2/ai/track-record. */
const trackRecordWindow = {
  days: trackRecordDays,
  per: { type: 'string', enum: ['recommendation', 'outcome'], default: 'recommendation' },
} as const;

export const trackRecordWindowQuery = { type: 'object', properties: trackRecordWindow } as const;

export const trackRecordChartWindowQuery = { type: 'object', properties: { kind: { type: 'string', enum: [...CHART_KINDS], default: 'cumulative' }, ...trackRecordWindow } } as const;

/** A query that takes no parameter: any is a 400 naming it. */
export const noQuery = { type: 'object', properties: {} } as const;

export const purchaseHeaders = { type: 'object', properties: { 'Idempotency-Key': { type: 'string', maxLength: 255 } } } as const;

export const purchaseBody = {
  type: 'object',
  required: ['package'],
  additionalProperties: false,
  properties: {
    package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
  },
} as const;

export const setupBody = { type: 'object', additionalProperties: false, properties: { testCard: { type: 'string', description: 'The test gateway only.' } } } as const;

export const confirmBody = { type: 'object', required: ['setupId'], additionalProperties: false, properties: { setupId: { type: 'string', pattern: '^cs_' } } } as const;

export const autoRechargeBody = {
  type: 'object',
  required: ['threshold', 'package'],
  additionalProperties: false,
  properties: {
    threshold: { type: 'integer', minimum: 1, description: "Below the package's credits." },
    package: { type: 'integer', enum: [...CREDIT_PACKAGES] },
  },
} as const;

// Answers.

export const accountSessionResponse = ref('AccountSession');
export const accountUsageResponse = ref('AccountUsage');
export const accountPurchaseResponse = ref('AccountPurchase');
export const autoRechargeSettingsResponse = ref('AutoRechargeSettings');

export const keysResponse = { type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('AccountKey') } } } as const;

export const newKeyResponse = {
  type: 'object',
  required: ['id', 'key'],
  properties: { id: { type: 'string' }, key: { type: 'string' }, name: { type: 'string' }, mode: { type: 'string' }, prefix: { type: 'string' } },
} as const;

export const revokedKeyResponse = { type: 'object', required: ['id', 'revokedAt'], properties: { id: { type: 'string' }, revokedAt: { type: 'string', format: 'date-time' } } } as const;

export const packagesResponse = { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object' } } } } as const;

export const paymentMethodResponse = {
  type: 'object',
  required: ['paymentMethod', 'gateway', 'testCards'],
  properties: {
    paymentMethod: SavedPaymentMethod,
    gateway: { type: 'string', enum: ['test', 'stripe', 'none'], description: 'none: this deployment sells nothing.' },
    testCards: { type: 'array', items: { type: 'string' }, description: "The test gateway's cards a setup can save (empty otherwise)." },
  },
} as const;

export const paymentMethodSetupResponse = paymentMethodSetup;

export const paymentMethodRemovedResponse = { type: 'object' } as const;

export const svgResponse = { type: 'string' } as const;
