import { LOCALES, SPORT_NAMES } from '../../shared/domain/sports';

/**
 * Request parameter schemas shared by the read endpoints. The validator compiles them and the
 * OpenAPI document publishes them: one definition for both.
 */
/** Statuses a client may filter on: the contract's three, plus the two the feed also reports. */
export const STATUS_FILTER_VALUES = ['upcoming', 'live', 'completed', 'postponed', 'cancelled'] as const;
export type StatusFilter = (typeof STATUS_FILTER_VALUES)[number];

export const MAX_PAGE = 1_000_000;

export const locale = {
  type: 'string',
  enum: LOCALES,
  default: 'en',
  description: 'Language of team, competition, region, sport, market and outcome names.',
} as const;

export const sportName = {
  type: 'string',
  enum: SPORT_NAMES,
  description: 'Sport by name.',
} as const;

export const statusList = {
  type: 'array',
  items: { type: 'string', enum: STATUS_FILTER_VALUES },
  minItems: 1,
  maxItems: 10,
  default: ['upcoming', 'live'],
  description:
    'Event statuses to include: comma-separated (status=upcoming,completed) or repeated (status=live&status=completed). ' +
    'The contract names upcoming, live and completed; postponed and cancelled are accepted too.',
} as const;

export const numericId = (what: string) => ({ type: 'string', pattern: '^[0-9]{1,10}$', description: `${what} (numeric).` }) as const;

export const day = (description: string) => ({ type: 'string', format: 'date', description }) as const;

export const timezone = (description: string) => ({ type: 'string', format: 'iana-timezone', default: 'UTC', description }) as const;

/** A window of days ending now, 30 unless asked (the description says where the window ends and how a bet counts). */
export const windowDays = (max: number, description: string) => ({ type: 'integer', minimum: 1, maximum: max, default: 30, description }) as const;

export const limit = (max: number, def: number, what = 'items') => ({ type: 'integer', minimum: 1, maximum: max, default: def, description: `Maximum ${what} per page (1 to ${max}).` }) as const;

export const page = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_PAGE,
  default: 1,
  description: 'Page number, from 1: page n holds items (n-1)*limit+1 to n*limit.',
} as const;

export const eventIdParam = {
  type: 'object',
  required: ['eventId'],
  properties: { eventId: { type: 'string', pattern: '^[0-9]{1,19}$', description: 'Event id (numeric string).' } },
} as const;

export const eventIdOrSlugParam = {
  type: 'object',
  required: ['eventId'],
  properties: {
    eventId: {
      type: 'string',
      pattern: '^[0-9]{1,19}(-[^/]{0,200})?$',
      description: 'Event id, or the id followed by a slug: 123456 or 123456-arsenal-vs-chelsea.',
    },
  },
} as const;

/** The date rule shared by /matches and /competitions. */
export function dateRule(q: { date?: string; startDate?: string; endDate?: string }): string | undefined {
  if (q.date && (q.startDate || q.endDate)) return 'date must not be combined with startDate or endDate';
  if (q.startDate && q.endDate && q.startDate > q.endDate) return 'startDate must not be after endDate';
  return undefined;
}

/** A listing filtered by statuses and calendar days (/matches, /competitions): its list parameter and its date rule. */
export const datedListing = { lists: ['status'], check: dateRule } as const;

export const dateFilters = {
  date: day('A single calendar day (YYYY-MM-DD) in `timezone`. Not combinable with startDate or endDate.'),
  startDate: day('Events starting on or after this day (YYYY-MM-DD, in `timezone`). Not combinable with date.'),
  endDate: day('Events starting on or before this day, inclusive (YYYY-MM-DD, in `timezone`). Not combinable with date.'),
  timezone: timezone('IANA time zone in which date, startDate and endDate are read (default UTC).'),
} as const;
