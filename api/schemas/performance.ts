import { windowDays } from './params';

/** Request and response schemas of /v2/ai/performance and its daily breakdown (ajv JSON Schema). */
export const MAX_PERFORMANCE_DAYS = 365;

const days = windowDays(MAX_PERFORMANCE_DAYS, `Window in days ending today (UTC), 1 to ${MAX_PERFORMANCE_DAYS}; a bet counts on the UTC day its event started.`);

export const performanceQuery = { type: 'object', properties: { days } } as const;
export const performanceDailyQuery = { type: 'object', properties: { days } } as const;

const pct = { type: 'string', pattern: '^-?[0-9]+\\.[0-9]%$' } as const;

export const performanceResponse = {
  type: 'object',
  required: ['period', 'recommendations', 'overall', 'byConfidence', 'lastUpdated'],
  properties: {
    period: { type: 'string', description: "e.g. '30 days'" },
    recommendations: {
      type: 'object',
      description: "The contract's shape A block. Win rate = wins / (wins + losses), pushes excluded.",
      properties: { total: { type: 'integer' }, wins: { type: 'integer' }, losses: { type: 'integer' }, pushes: { type: 'integer' }, winRate: pct },
    },
    overall: {
      type: 'object',
      description: "The contract's shape B. roi and profit on flat 1-unit stakes from the money actually returned (half results included).",
      properties: { totalBets: { type: 'integer' }, wins: { type: 'integer' }, winRate: pct, roi: pct, profit: { type: 'string', pattern: '^[+-][0-9]+\\.[0-9]{2}$' } },
    },
    byConfidence: {
      type: 'array',
      items: {
        type: 'object',
        properties: { confidence: { type: 'string', enum: ['High', 'Medium', 'Low'] }, total: { type: 'integer' }, wins: { type: 'integer' }, winRate: pct, roi: pct, avgEdge: { type: 'number' } },
      },
    },
    lastUpdated: { type: 'string', format: 'date-time', description: 'When settlement last changed these figures.' },
  },
} as const;

export const performanceDailyResponse = {
  type: 'object',
  required: ['period', 'days', 'profit', 'lastUpdated'],
  properties: {
    period: { type: 'string' },
    days: {
      type: 'array',
      description: 'Every day of the window, oldest first (quiet days included).',
      items: {
        type: 'object',
        properties: {
          date: { type: 'string', format: 'date' },
          total: { type: 'integer' },
          wins: { type: 'integer' },
          losses: { type: 'integer' },
          pushes: { type: 'integer' },
          staked: { type: 'number' },
          returned: { type: 'number' },
          profit: { type: 'number', description: 'Units won or lost that day (returned - staked).' },
          cumulativeProfit: { type: 'number', description: 'Running total from the first day of the window.' },
        },
      },
    },
    profit: { type: 'number', description: 'Profit over the whole window (equals the last cumulativeProfit).' },
    lastUpdated: { type: 'string', format: 'date-time' },
  },
} as const;

/** The 200 bodies, by the RouteSpec `response` names of api/routes/performance.ts. */
export const performanceResponses = { performance: performanceResponse, performanceDaily: performanceDailyResponse } as const;
