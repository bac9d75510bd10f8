import { WIRE_CODES } from '../errors';
import { EVENT_STATUSES } from '../../shared/domain/events/status';
import { SPORT_NAMES } from '../../shared/domain/sports';
import { arr, bool, dateTime, int, ndateTime, nnum, nstr, num, obj, ref, str } from './build';

/**
 * Response schemas of the read endpoints, published in the OpenAPI document (components.schemas)
 * and used by the tests to validate every response actually served.
 */
const nint = { type: ['integer', 'null'] } as const;
const anyObject = { type: 'object', description: 'Free-form document written by the AI worker; localized names are served in the requested locale.' } as const;
const status = { type: 'string', enum: EVENT_STATUSES } as const;
const deprecated = (s: object, description: string) => ({ ...s, deprecated: true, description });

const counts = (names: string[]) => Object.fromEntries(names.map((n) => [n, nint]));
const STAT_COUNTS = ['homeGoals', 'awayGoals', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards'];
const CARD_COUNTS = ['homeRedCards', 'awayRedCards'];
const HALF_COUNTS = ['homeGoalsFirstHalf', 'awayGoalsFirstHalf'];

export const components = {
  Error: {
    type: 'object',
    required: ['statusCode', 'message', 'error', 'code'],
    properties: {
      statusCode: int,
      message: { type: 'string', description: 'For people; may change.' },
      error: { type: 'string', description: "The status's reason phrase." },
      code: { type: 'string', enum: WIRE_CODES, description: 'Machine-readable and stable: branch on this, not on the message (two 403s differ here: insufficient_credits, csrf_rejected).' },
      requestId: { type: 'string', description: "This request's id, as in the X-Request-Id header (absent from a cached 404 and from a refusal of malformed HTTP)." },
    },
    description: 'Every non-2xx answer. Some codes add fields (documented with the code).',
  },
  BetItem: obj(
    {
      id: str,
      marketId: { type: 'string', description: 'Detail form only.' },
      code: { type: 'string', description: 'Outcome code: 1, X, 2 for match result; O, U for over/under; Y, N; 1X, 12, X2.' },
      caption: { type: 'string', description: 'Outcome caption, localized, with the line where the market has one.' },
      instanceCaption: { type: 'string', description: 'The line as bettors read it, on markets with a line.' },
      price: { type: 'number', description: 'Decimal odds.' },
      oddsText: { type: 'string', description: 'Decimal odds with two decimals.' },
      isAvailable: bool,
    },
    ['id', 'code', 'caption', 'price', 'oddsText', 'isAvailable'],
  ),
  Market: obj(
    {
      id: str,
      eventId: { type: 'string', description: 'Detail form only.' },
      betTypeSysname: { type: 'string', description: 'Market type, e.g. SOCCER_MATCH_RESULT, SOCCER_UNDER_OVER.' },
      caption: { type: 'string', description: 'Market name, localized.' },
      line: { ...nnum, description: 'Total or handicap line (home side), null for markets without one.' },
      betItems: arr(ref('BetItem')),
    },
    ['id', 'betTypeSysname', 'caption', 'line', 'betItems'],
  ),
  TeamRef: obj({ id: int, name: { type: 'string', description: 'Localized.' } }),
  CaptionRef: obj({ id: int, caption: { type: 'string', description: 'Localized.' } }),
  SportRef: obj({ id: int, name: { type: 'string', description: 'Localized sport name.' } }),
  CompletedStats: obj({ ...counts(STAT_COUNTS), phase: { ...nstr, description: 'Final phase, e.g. FT or AET.' } }, undefined, {
    description: 'Final counts of a completed event (list form). Any count is null when the feed did not report it.',
  }),
  EventStats: obj({ ...counts([...STAT_COUNTS.slice(0, 2), ...HALF_COUNTS, ...STAT_COUNTS.slice(2), ...CARD_COUNTS]), phase: nstr }, undefined, {
    description: 'Current (live) or final (completed) counts; any may be null.',
  }),
  LiveBetItem: obj({
    betItemId: str,
    marketSysname: str,
    marketCaption: { type: 'string', description: 'Localized market name (with its line).' },
    code: str,
    caption: { type: 'string', description: 'Localized outcome caption.' },
    price: num,
    priceChange: { type: 'number', description: 'Change since the previous snapshot.' },
    isAvailable: bool,
    timestamp: { type: 'string', pattern: '^[0-9]+$', description: 'Epoch milliseconds.' },
  }),
  LiveStats: obj(
    {
      id: str,
      ...counts([...STAT_COUNTS, ...CARD_COUNTS]),
      elapsedSeconds: nint,
      phaseCaptionLong: nstr,
      phaseCaption: nstr,
      referenceTime: ndateTime,
      isLive: bool,
      isInPlay: bool,
      liveBetItems: arr(ref('LiveBetItem')),
    },
    undefined,
    { description: 'Flat live statistics: every property sits directly on this object.' },
  ),
  LiveMarket: obj({
    marketId: { ...nstr, description: 'Provider market id, when available.' },
    marketSysname: str,
    marketCaption: { ...nstr, description: 'Caption as provided by the source.' },
    marketDisplayName: { type: 'string', description: 'Localized market name (with its line).' },
    line: nnum,
    betItems: arr(
      obj({
        code: str,
        translatedCaption: { type: 'string', description: 'Localized outcome caption.' },
        price: num,
        priceChange: { ...nnum, description: 'Change since the previous snapshot; null when unknown.' },
        isAvailable: bool,
      }),
    ),
  }),
  ListEvent: obj(
    {
      id: str,
      startDateTime: dateTime,
      status,
      homeTeamId: deprecated(int, 'Deprecated: use homeTeam.id.'),
      homeTeam: ref('TeamRef'),
      awayTeamId: deprecated(int, 'Deprecated: use awayTeam.id.'),
      awayTeam: ref('TeamRef'),
      sportId: int,
      sport: ref('SportRef'),
      competitionId: int,
      competition: ref('CaptionRef'),
      regionId: int,
      region: ref('CaptionRef'),
      markets: arr(ref('Market'), { description: 'Main markets: match result and over/under for soccer; moneyline/winner, handicap and totals elsewhere.' }),
      views: int,
      stats: { ...ref('CompletedStats'), description: 'Completed events only (an object, not an array).' },
    },
    ['id', 'startDateTime', 'status', 'homeTeamId', 'homeTeam', 'awayTeamId', 'awayTeam', 'sportId', 'sport', 'competitionId', 'competition', 'regionId', 'region', 'markets', 'views'],
  ),
  TrendingEvent: obj({
    id: str,
    competitionId: int,
    startDateTime: dateTime,
    status,
    views: int,
    sport: obj({ name: str }),
    homeTeam: ref('TeamRef'),
    awayTeam: ref('TeamRef'),
    competition: ref('CaptionRef'),
    region: ref('CaptionRef'),
    markets: arr(ref('Market'), { description: 'SOCCER_MATCH_RESULT and SOCCER_UNDER_OVER only.' }),
  }),
  LiveEvent: obj({
    id: str,
    startDateTime: dateTime,
    status: { type: 'string', enum: ['live'] },
    competitionId: int,
    sportId: int,
    regionId: int,
    views: int,
    sport: ref('SportRef'),
    homeTeam: ref('TeamRef'),
    awayTeam: ref('TeamRef'),
    competition: ref('CaptionRef'),
    region: ref('CaptionRef'),
    stats: ref('LiveStats'),
    markets: arr(ref('Market')),
  }),
  LiveEventData: obj({
    eventId: str,
    ...counts([...STAT_COUNTS, ...CARD_COUNTS, ...HALF_COUNTS]),
    phaseSysname: nstr,
    isLive: bool,
    liveDataJson: { type: 'object' },
  }),
  DetailEvent: obj({
    id: str,
    startDateTime: dateTime,
    status,
    voided: { type: 'boolean', description: 'Completed with the void flag (abandoned): every bet pushes.' },
    views: { type: 'integer', description: 'Views including this request.' },
    homeTeamId: deprecated(int, 'Deprecated: use homeTeam.id.'),
    homeTeam: obj({ id: int, name: str, caption: str, regionId: nint }),
    awayTeamId: deprecated(int, 'Deprecated: use awayTeam.id.'),
    awayTeam: obj({ id: int, name: str, caption: str, regionId: nint }),
    sportId: int,
    sport: obj({ id: int, name: str, sysname: str }),
    competitionId: int,
    competition: obj({ id: int, caption: str, regionId: int, region: ref('CaptionRef') }),
    regionId: int,
    region: obj({
      id: int,
      caption: str,
      _count: obj({ competitions: int, events: { type: 'integer', description: 'Upcoming and live events of the region.' } }),
      availableSports: arr({ type: 'string', enum: SPORT_NAMES }),
      competitions: arr(ref('CaptionRef')),
    }),
    metadata: obj({ sportName: str, homeTeamName: str, awayTeamName: str, markets: arr(str, { description: 'Market types the event carries.' }) }),
    markets: arr(ref('Market'), { description: 'Every market of the event.' }),
    stats: { oneOf: [ref('EventStats'), { type: 'null' }], description: 'null for upcoming events.' },
    liveMarkets: arr(ref('LiveMarket'), { description: "Live events: the default provider's latest live odds; empty otherwise." }),
    liveEventData: arr(ref('LiveEventData')),
    analysisInsight: { ...anyObject, type: ['object', 'null'] },
    eventNews: arr({ type: 'object' }),
    bettingRecommendations: arr(ref('Recommendation'), { description: "The event's recommendations, best edge first (schema in api/schemas/ai.ts, as in /v2/ai/betting-recommendations)." }),
    featuredPick: { oneOf: [ref('Pick'), { type: 'null' }], description: 'The latest featured pick with a leg on this event, as /v2/ai/featured-picks serves it.' },
  }),
  LiveOddsSnapshot: obj({
    eventId: { type: 'string', description: 'The event id (the numeric part of the requested identifier).' },
    dataSource: str,
    capturedAt: dateTime,
    stale: { type: 'boolean', description: 'true when the provider is unreachable and this is its last stored snapshot.' },
    liveMarkets: arr(ref('LiveMarket')),
  }),
  Competition: obj({
    id: int,
    caption: str,
    regionId: int,
    sportId: int,
    region: ref('CaptionRef'),
    _count: obj({ events: { type: 'integer', description: 'Events matching the filters.' } }),
  }),
  Region: obj({
    id: int,
    caption: str,
    code: { ...nstr, description: 'ISO 3166 alpha-2 code where the region is a country.' },
    _count: obj({ competitions: int, events: { type: 'integer', description: 'Events with the requested statuses.' } }),
    availableSports: arr({ type: 'string', enum: SPORT_NAMES }),
  }),
  Team: obj({ id: int, name: str, sportId: int, sport: ref('SportRef'), regionId: int }),
  SystemStats: obj({
    events: obj({ total: int, upcoming: int, live: int, completed: int, postponed: int, cancelled: int }),
    sports: arr(obj({ id: int, sysname: str, name: str, events: int, upcoming: int, live: int })),
    competitions: int,
    regions: int,
    teams: int,
    markets: { type: 'integer', description: 'Markets on upcoming and live events.' },
    lastEventUpdateAt: ndateTime,
    generatedAt: dateTime,
  }),
} as const;

export type SchemaName = keyof typeof components;

const listOf = (name: SchemaName, countText: string) => obj({ data: arr(ref(name)), count: { type: 'integer', description: countText } });

/** The 200 body of each endpoint. */
export const responses = {
  matches: listOf('ListEvent', 'Total events matching the filters (all pages).'),
  matchDetail: obj({ data: ref('DetailEvent') }),
  trending: listOf('TrendingEvent', 'Events returned (at most 5).'),
  live: listOf('LiveEvent', 'Total live events matching the filters (all pages).'),
  liveOdds: obj({ data: ref('LiveOddsSnapshot') }),
  competitions: obj({ data: arr(ref('Competition')), count: int }),
  regions: obj({ data: arr(ref('Region')), count: int }),
  teams: listOf('Team', 'Total teams matching the search (all pages).'),
  stats: obj({ data: ref('SystemStats') }),
  health: {
    type: 'object',
    required: ['status', 'timestamp', 'mongodb', 'redis', 'queues', 'lastIngestAt', 'providers'],
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded'] },
      timestamp: dateTime,
      mongodb: { type: 'object' },
      redis: { type: 'object' },
      queues: { type: 'object' },
      lastIngestAt: ndateTime,
      providers: arr({ type: 'object' }),
    },
  },
} as const;

/** GET /v2/costs: the cost table (shared/domain/billing/costs.ts). */
export const costsResponse = obj({
  data: arr(obj({ method: { type: 'string', enum: ['GET'] }, path: str, credits: int, keyRequired: bool, note: str }, ['method', 'path', 'credits', 'keyRequired'])),
  webhooks: arr(obj({ event: str, credits: int, note: str })),
});
