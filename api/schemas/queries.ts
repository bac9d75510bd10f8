import { dateFilters, limit, locale, numericId, page, sportName, statusList, timezone } from './params';

/** Query schemas of the read endpoints (validator and OpenAPI document share them). */
export const matchesQuery = {
  type: 'object',
  properties: {
    locale,
    competitionId: numericId('Only events of this competition'),
    regionId: numericId('Only events of this region'),
    sportName: { ...sportName, description: 'Only events of this sport.' },
    status: statusList,
    ...dateFilters,
    limit: limit(100, 100, 'events'),
    page,
  },
} as const;

export const matchDetailQuery = {
  type: 'object',
  properties: {
    locale,
    wrap: {
      type: 'string',
      enum: ['data'],
      default: 'data',
      description:
        "Only data: the event inside {data}, as the contract's example and every other endpoint (contract choice detail-wrapped-in-data). " +
        'Accepted so that a client sending wrap=data keeps working; the 200 has one shape, so a typed client needs no narrowing.',
    },
    timezone: timezone('IANA time zone in which featuredPick.event.commenceTime is written, as in /v2/ai/featured-picks (default UTC).'),
  },
} as const;

export const trendingQuery = {
  type: 'object',
  properties: {
    timezone: timezone('IANA time zone that defines "today" (default UTC).'),
    locale,
    sport: { ...sportName, description: 'Only events of this sport.' },
    status: statusList,
  },
} as const;

export const liveQuery = {
  type: 'object',
  properties: {
    sport: { ...sportName, description: 'Only live events of this sport.' },
    locale,
    limit: limit(100, 100, 'live events'),
    page,
    prioritize: {
      type: 'boolean',
      default: false,
      description: 'true: events of the most popular competitions first; false: by start time.',
    },
  },
} as const;

export const liveOddsQuery = {
  type: 'object',
  properties: {
    dataSource: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$',
      description: 'Odds provider (bookmaker feed) of the snapshot; default: the default provider (first of PROVIDERS).',
    },
    locale,
  },
} as const;

export const competitionsQuery = {
  type: 'object',
  properties: {
    locale,
    regionId: numericId('Only competitions of this region'),
    ...dateFilters,
    status: statusList,
  },
} as const;

export const regionsQuery = {
  type: 'object',
  properties: {
    locale,
    sportName: { ...sportName, description: 'Count only competitions and events of this sport.' },
    status: { ...statusList, description: `Statuses of the events counted in _count.events. ${statusList.description}` },
  },
} as const;

export const teamsQuery = {
  type: 'object',
  properties: {
    locale,
    search: {
      type: 'string',
      minLength: 1,
      maxLength: 60,
      pattern: "^[\\p{L}\\p{M}\\p{N} .'&-]+$",
      description: 'Part of a team name in any supported language; case and accents are ignored.',
    },
    sportName: { ...sportName, description: 'Only teams of this sport.' },
    regionId: numericId('Only teams of this region'),
    limit: limit(100, 20, 'teams'),
    page,
  },
} as const;

export const statsQuery = { type: 'object', properties: { locale } } as const;

export const emptyQuery = { type: 'object', properties: {} } as const;
