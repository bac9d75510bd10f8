import { DEFAULT_MIN_EDGE } from '../../shared/domain/ai/staking';
import { LOCALES } from '../../shared/domain/sports';
import { arr, bool, dateTime, int, ndateTime, nnum, nstr, num, obj, ref, str } from './build';

/**
 * Request and response schemas of the /v2/ai endpoints, as exported JSON Schema constants: the
 * validator compiles the request ones, the tests validate every served response against the
 * response ones, and the OpenAPI document can publish both (responses reference
 * `#/components/schemas/<name>` of `aiComponents`).
 */
const locale = { type: 'string', enum: LOCALES, default: 'en', description: 'Language of rationale, risk factors, data support, notes, outcome, team and competition names: en, es or pt.' } as const;
const timezone = (description: string) => ({ type: 'string', format: 'iana-timezone', default: 'UTC', description }) as const;
const numericId = (what: string) => ({ type: 'string', pattern: '^[0-9]{1,10}$', description: `${what} (numeric).` }) as const;
const eventId = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'Event id.' } as const;
const limit = (max: number, def: number, what: string) =>
  ({ type: 'integer', minimum: 1, maximum: max, default: def, description: `Maximum ${what} returned (1 to ${max}; default ${def}).` }) as const;
const confidence = { type: 'string', enum: ['High', 'Medium', 'Low'] } as const;
const statusList = {
  type: 'array',
  items: { type: 'string', enum: ['upcoming', 'live', 'completed', 'postponed', 'cancelled'] },
  minItems: 1,
  maxItems: 10,
  default: ['upcoming', 'live'],
  description: 'Event statuses to include, comma-separated or repeated (default upcoming,live).',
} as const;

export const featuredPicksQuery = {
  type: 'object',
  properties: {
    limit: limit(50, 5, 'picks'),
    today: { type: 'boolean', description: 'true: only picks whose first leg starts today in `timezone`.' },
    tomorrow: { type: 'boolean', description: 'true: only picks whose first leg starts tomorrow in `timezone` (with today=true: both days). Neither: picks from the start of today on.' },
    timezone: timezone('IANA zone that defines today and tomorrow, and in which commenceTime is written (default UTC).'),
    regionId: numericId('Only picks with a leg in this region'),
    competitionId: numericId('Only picks with a leg in this competition'),
    locale,
  },
} as const;

export const processedInsightsQuery = {
  type: 'object',
  properties: {
    eventId,
    teamNames: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 100 },
      minItems: 1,
      maxItems: 20,
      description: "Comma-separated team names; an insight matches when either team's full name equals one of them (case and accents ignored, any locale).",
    },
    limit: limit(50, 5, 'insights'),
    timezone: timezone('IANA zone in which event.commenceTime is written (default UTC).'),
    status: statusList,
    locale,
  },
} as const;

export const valueOpportunitiesQuery = {
  type: 'object',
  properties: {
    minEdge: {
      type: 'number',
      minimum: 0,
      maximum: 100,
      description: `Minimum edge in percent of the stake (expected return x 100). Default: the AI worker's minimum edge AI_MIN_EDGE (${DEFAULT_MIN_EDGE} unless configured); lower values return the same as the default, since nothing below it is recommended.`,
    },
    confidence: { ...confidence, description: 'Only opportunities of this confidence.' },
    limit: limit(100, 20, 'opportunities'),
    locale,
  },
} as const;

export const bettingRecommendationsQuery = {
  type: 'object',
  properties: {
    settled: { type: 'boolean', description: 'true: graded recommendations only; false: not yet graded.' },
    result: { type: 'string', enum: ['won', 'lost', 'push'], description: 'Only recommendations settled with this result.' },
    eventId,
    confidence: { ...confidence, description: 'Only recommendations of this confidence.' },
    limit: limit(100, 20, 'recommendations per page'),
    page: { type: 'integer', minimum: 1, maximum: 1000000, default: 1, description: 'Page number, from 1: page n holds items (n-1)*limit+1 to n*limit, newest first.' },
    locale,
  },
} as const;

// ---- responses ----
const result = { type: ['string', 'null'], enum: ['won', 'lost', 'push', null] } as const;
const free = (description: string) => ({ type: ['object', 'null'], description }) as const;

/**
 * The contract's Recommendation and Pick: one schema each, referenced by the event detail
 * (bettingRecommendations, featuredPick) and by the /v2/ai responses; api/render/ai.ts renders both.
 */
export const aiComponents = {
  Recommendation: obj({
    id: str,
    eventId: str,
    marketId: str,
    betItemId: str,
    betTypeSysname: { type: 'string', description: 'Market type, e.g. SOCCER_MATCH_RESULT.' },
    line: { ...nnum, description: 'Total or handicap line (home side), null for markets without one.' },
    outcome: { type: 'string', description: 'The selection as bettors read it, localized: "Arsenal", "Over 2.5".' },
    bookmaker: { type: 'string', description: 'dataSource (bookmaker) offering the price.' },
    odds: { type: 'number', description: 'Decimal odds at that bookmaker when the recommendation was written.' },
    probability: { type: 'number', description: 'Fair probability (effective: push mass excluded on lines that can push).' },
    fairOdds: { type: 'number', description: '1 / probability.' },
    confidence: {
      type: 'string',
      enum: ['High', 'Medium', 'Low'],
      description: 'High: edge >= 5 % and margin of safety >= 1 standard error; Medium: edge >= 3 % and >= 0.5; Low: the rest (docs/ai.md).',
    },
    edgePercentage: { type: 'number', description: '(probability x odds - 1) x 100; the expected return x 100 for split (quarter) lines.' },
    kellyFraction: { type: 'number', description: 'Quarter Kelly stake as a fraction of the bankroll; 0 when the edge is not positive.' },
    rationale: arr(str),
    riskFactors: arr(str),
    dataSupport: arr(str),
    settled: bool,
    result,
    resultDetail: { type: ['string', 'null'], enum: ['won', 'lost', 'push', 'half_won', 'half_lost', null], description: 'Quarter lines can settle half won or half lost.' },
    actualReturn: { ...nnum, description: 'Gross return per unit staked, set at settlement.' },
    settlementDate: ndateTime,
    closingOdds: {
      ...nnum,
      description:
        "Set at settlement: the closing price (at kickoff) of this outcome at the benchmark, Pinnacle when it quoted the whole market at the close, else the books' consensus; null when the event has no closing line.",
    },
    clv: {
      ...nnum,
      description: "Closing line value, set at settlement: odds / de-vigged closing fair odds - 1 (margin removed proportionally from the benchmark's closing prices); > 0 beat the close.",
    },
    eventStartAt: dateTime,
    createdAt: { ...dateTime, description: 'When the recommendation was written; always before eventStartAt.' },
  }),
  PickLeg: obj({
    recommendationId: str,
    eventId: str,
    betItemId: str,
    market: { type: 'string', description: 'Market type sysname.' },
    outcome: { type: 'string', description: 'Localized selection.' },
    bookmaker: str,
    odds: num,
    point: { ...nnum, description: 'Line of the market, or null.' },
    edgePercentage: num,
    confidence: str,
    result,
  }),
  Pick: obj({
    id: str,
    pickType: { type: 'string', enum: ['single', 'parlay'] },
    recommendations: { ...arr(ref('PickLeg')), description: 'One leg for a single; two or three legs from different events for a parlay.' },
    totalOdds: { type: 'number', description: "Single: the leg's odds. Parlay: product of the legs' odds." },
    edgePercentage: { type: 'number', description: 'Expected return x 100 of the whole pick (legs independent).' },
    confidence: { type: 'string', description: 'A parlay is as confident as its weakest leg.' },
    kellyFraction: num,
    rationale: arr(str),
    event: obj({
      id: str,
      homeTeam: obj({ id: int, name: str }),
      awayTeam: obj({ id: int, name: str }),
      commenceTime: { type: 'string', description: 'Start time in the requested time zone (ISO 8601 with offset).' },
      startDateTime: dateTime,
      competition: obj({ caption: str }),
      competitionId: int,
      status: str,
      league: str,
    }),
    featuredOrder: { type: 'integer', description: "Rank within the pick's featured day (UTC), from 1." },
    featuredDate: { type: 'string', description: "UTC day (YYYY-MM-DD) the pick is featured for: its first leg's start." },
    startsAt: dateTime,
    settled: bool,
    result,
    analysisInsight: free("The main event's analysis (model, market, fair prices, efficiency, teams)."),
    matchSimulation: free("The main event's seeded Monte Carlo simulation."),
    eventNews: free('Injuries, suspensions, weather; null when none.'),
  }),
  ProcessedInsight: obj({
    eventId: str,
    status: str,
    marketEfficiencyScore: { type: 'number', minimum: 0, maximum: 100, description: '0-100: 90+ extremely efficient, 80-89 efficient, 70-79 moderately efficient, below 70 inefficient.' },
    efficiencyBand: nstr,
    valueOpportunities: obj({
      recommendations: arr(obj({ recommendationId: str, edge: num, market: str, outcome: str, bookmaker: str, odds: num, confidence: str })),
    }),
    riskFactors: arr(str),
    aiNotes: str,
    event: obj({ homeTeam: str, awayTeam: str, commenceTime: str, league: str }),
    analysisTimestamp: dateTime,
    analysisInsight: free('Model and market views, fair prices of the main market, efficiency breakdown, team ratings.'),
    matchSimulation: free('Seeded Monte Carlo of the score: iterations, seed, expectedScore, outcomeFrequencies, mostLikelyScores, scoreDistribution.'),
  }),
} as const;

export const aiResponses = {
  featuredPicks: obj({ data: arr(ref('Pick')) }),
  processedInsights: obj({ data: arr(ref('ProcessedInsight')) }),
  valueOpportunities: obj({
    opportunities: arr(ref('Recommendation')),
    summary: obj({
      totalOpportunities: { type: 'integer', description: 'All current opportunities at or above minEdge (not only those returned).' },
      averageEdge: { type: 'number', description: 'Mean edgePercentage of those, 0 when there are none.' },
      highConfidence: { type: 'integer', description: 'How many of them are High confidence.' },
    }),
    minEdge: { type: 'number', description: 'The threshold applied.' },
  }),
  bettingRecommendations: obj({
    data: arr(ref('Recommendation')),
    count: { type: 'integer', description: 'Total recommendations matching the filters (all pages).' },
    page: int,
    limit: int,
  }),
} as const;
