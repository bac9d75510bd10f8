import { MAX_PROOF_PATH } from '../../shared/domain/commitments/chain';
import { MAX_TRACK_RECORD_DAYS } from '../../shared/app/trackRecord/load';
import { sportName } from './params';

/** Request and response schemas of /v2/ai/track-record and its proof, chain, heads and charts (ajv JSON Schema). */
export const MAX_CHAIN_PAGE = 1000;

/** The window: a number of days ending now, or `all`. One schema for /v2/ai/track-record and the dashboard's own. */
export const trackRecordDays = {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: MAX_TRACK_RECORD_DAYS },
    { type: 'string', enum: ['all'] },
  ],
  default: 30,
  description: `Window in days ending now (the world clock), 1 to ${MAX_TRACK_RECORD_DAYS}, or \`all\`: every settled recommendation, however old; a bet counts by its event's start.`,
} as const;
const days = trackRecordDays;
const sport = { ...sportName, description: 'Only recommendations of this sport.' } as const;
const confidence = { type: 'string', enum: ['High', 'Medium', 'Low'], description: 'Only recommendations of this confidence.' } as const;

const per = {
  type: 'string',
  enum: ['recommendation', 'outcome'],
  default: 'recommendation',
  description:
    'recommendation (the default): every settled recommendation is a bet, a re-issue at new odds included; outcome: only the first recommendation of each outcome of an event (what a follower taking the first price staked once).',
} as const;
export const trackRecordQuery = { type: 'object', properties: { days, sport, confidence, per } } as const;
export const trackRecordChartQuery = {
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      enum: ['cumulative', 'clv', 'calibration'],
      default: 'cumulative',
      description: 'cumulative (the default): profit in units after each bet; clv: closing line value histogram; calibration: reliability diagram.',
    },
    days,
    sport,
    confidence,
    per,
  },
} as const;
export const chainQuery = {
  type: 'object',
  properties: {
    from: { type: 'integer', minimum: 0, maximum: 1e12, default: 0, description: 'First link (seq) of the page.' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_CHAIN_PAGE, default: MAX_CHAIN_PAGE, description: `Links per page (1 to ${MAX_CHAIN_PAGE}).` },
  },
} as const;
export const chainHeadsQuery = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 168, description: 'Published heads returned, newest first (1 to 1000; default 168, a week).' } },
} as const;
export const proofQuery = {
  type: 'object',
  properties: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PROOF_PATH,
      default: MAX_PROOF_PATH,
      description: `Later links listed in path (1 to ${MAX_PROOF_PATH}); the rest follow from next through the chain endpoint.`,
    },
    to: { type: 'integer', minimum: 1, maximum: 1e12, description: 'Prove to the head of this chain length (a published head you kept) instead of the current head.' },
  },
} as const;
export const proofParams = {
  type: 'object',
  required: ['recommendationId'],
  properties: { recommendationId: { type: 'string', pattern: '^[^/\\u0000-\\u001f]{1,300}$', description: 'Id of a recommendation (or of a featured pick).' } },
} as const;

const hash = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const head = {
  type: 'object',
  required: ['hash', 'length', 'time'],
  description: 'The chain head: the last link hash (64 zeros for an empty chain), the number of links, and when the last link was written (null for an empty chain).',
  properties: { hash, length: { type: 'integer', minimum: 0 }, time: { type: ['string', 'null'], format: 'date-time' } },
} as const;
const publishedHead = {
  type: 'object',
  required: ['hour', 'hash', 'length', 'time'],
  properties: { hour: { type: 'string', pattern: '^[0-9]{10}$', description: 'yyyymmddhh, UTC' }, hash, length: { type: 'integer', minimum: 0 }, time: { type: 'string', format: 'date-time' } },
} as const;
const clv = {
  type: 'object',
  required: ['bets', 'mean', 'standardError', 'beatCloseShare'],
  description:
    'Closing line value (taken odds over the de-vigged closing fair odds, minus one) of the bets with a captured closing line; standardError is of the mean, clustered by event (bets on one event share its result), null under two events.',
  properties: { bets: { type: 'integer' }, mean: nullableNumber, standardError: nullableNumber, beatCloseShare: nullableNumber },
} as const;
const summaryProps = {
  bets: { type: 'integer' },
  wins: { type: 'integer' },
  losses: { type: 'integer' },
  pushes: { type: 'integer' },
  staked: { type: 'number', description: 'Units staked: 1 per bet.' },
  returned: { type: 'number' },
  profit: { type: 'number', description: 'returned - staked, in units.' },
  roi: { ...nullableNumber, description: 'profit / staked, as a fraction; null without bets.' },
  roiStandardError: {
    ...nullableNumber,
    description:
      'Standard error of roi (of the mean profit per 1-unit bet), clustered by event: a recommendation re-issued at new odds or another market of the same match is not independent evidence; null under two events. roi within about two of these of 0 is not told apart from luck.',
  },
  clv,
} as const;
const summaryRequired = ['bets', 'wins', 'losses', 'pushes', 'staked', 'returned', 'profit', 'roi', 'roiStandardError', 'clv'] as const;
const link = {
  type: 'object',
  required: ['seq', 'kind', 'recordId', 'record', 'prevHash', 'hash'],
  properties: {
    seq: { type: 'integer', minimum: 0 },
    kind: { type: 'string', enum: ['recommendation', 'pick', 'recommendation-settlement', 'pick-settlement'] },
    recordId: { type: 'string' },
    record: { type: 'string', description: 'The canonical record, exactly as hashed.' },
    prevHash: hash,
    hash: { ...hash, description: 'SHA-256 (hex) of the UTF-8 bytes of prevHash followed by record.' },
    at: { type: 'string', format: 'date-time' },
  },
} as const;

export const trackRecordResponse = {
  type: 'object',
  required: ['period', 'filters', ...summaryRequired, 'calibration', 'byConfidence', 'head', 'lastPublishedHead'],
  properties: {
    period: {
      type: 'object',
      required: ['days', 'from', 'to'],
      properties: {
        days: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['all'] }], description: 'The window asked for: days ending `to`, or `all`.' },
        from: { type: ['string', 'null'], format: 'date-time', description: 'Where the window starts; null for `all` (no start).' },
        to: { type: 'string', format: 'date-time', description: "The world clock's now." },
      },
    },
    filters: { type: 'object', properties: { sport: { type: ['string', 'null'] }, confidence: { type: ['string', 'null'] }, per: { type: 'string', enum: ['recommendation', 'outcome'] } } },
    ...summaryProps,
    calibration: {
      type: 'array',
      description:
        'Bins of predicted win probability (tenths; empty bins left out): predicted mean against observed win rate (won 1, half won 0.5, pushes left out), with the binomial standard error.',
      items: {
        type: 'object',
        required: ['from', 'to', 'bets', 'predicted', 'observed', 'standardError'],
        properties: { from: { type: 'number' }, to: { type: 'number' }, bets: { type: 'integer' }, predicted: { type: 'number' }, observed: { type: 'number' }, standardError: { type: 'number' } },
      },
    },
    byConfidence: { type: 'array', items: { type: 'object', required: ['confidence', ...summaryRequired], properties: { confidence: { type: 'string' }, ...summaryProps } } },
    head,
    lastPublishedHead: { oneOf: [publishedHead, { type: 'null' }] },
  },
} as const;

/**
 * GET /v2/account/track-record: the same record with its three charts drawn from the same read of
 * the bets (the dashboard shows both; two reads could see different settlements).
 */
export const accountTrackRecordResponse = {
  ...trackRecordResponse,
  required: [...trackRecordResponse.required, 'charts'],
  properties: {
    ...trackRecordResponse.properties,
    charts: {
      type: 'object',
      required: ['cumulative', 'clv', 'calibration'],
      description: 'The charts of GET /v2/ai/track-record/chart.svg for the same window, drawn from the same bets as the figures: standalone SVG documents (no script), as text.',
      properties: { cumulative: { type: 'string' }, clv: { type: 'string' }, calibration: { type: 'string' } },
    },
  },
} as const;

export const trackRecordProofResponse = {
  type: 'object',
  required: ['id', 'record', 'link', 'settlements', 'path', 'next', 'head'],
  properties: {
    id: { type: 'string' },
    record: {
      type: 'object',
      required: ['canonical', 'parsed'],
      properties: { canonical: { type: 'string', description: 'The committed record, exactly as hashed.' }, parsed: { type: 'object', description: 'The same record, parsed.' } },
    },
    link,
    settlements: { type: 'array', description: 'The links of its settlement (one per result version: a correction is a later link).', items: link },
    path: {
      type: 'array',
      description: 'The later links towards the head, in order (at most limit): hash each record after the previous hash to recompute the head.',
      items: { type: 'object', required: ['seq', 'record', 'hash'], properties: { seq: { type: 'integer' }, record: { type: 'string' }, hash } },
    },
    next: {
      type: ['integer', 'null'],
      description: 'The seq the path continues from when the head is further than limit links (GET /v2/ai/track-record/chain?from=next); null when path reaches the head.',
    },
    head,
  },
} as const;

export const trackRecordChainResponse = {
  type: 'object',
  required: ['links', 'head', 'next'],
  properties: { links: { type: 'array', items: link }, head, next: { type: ['integer', 'null'], description: 'The `from` of the next page; null at the head.' } },
} as const;

export const trackRecordHeadsResponse = {
  type: 'object',
  required: ['heads', 'head'],
  properties: { heads: { type: 'array', description: 'Heads published once an hour, newest first.', items: publishedHead }, head },
} as const;

export const trackRecordChartResponse = { type: 'string', description: 'An SVG document (image/svg+xml), readable without JavaScript.' } as const;

/** The 200 bodies, by the RouteSpec `response` names of api/routes/trackRecord.ts. */
export const trackRecordResponses = {
  trackRecord: trackRecordResponse,
  trackRecordProof: trackRecordProofResponse,
  trackRecordChain: trackRecordChainResponse,
  trackRecordHeads: trackRecordHeadsResponse,
  trackRecordChart: trackRecordChartResponse,
} as const;
