/**
 * Request and response schemas of the settlement endpoints (ajv JSON Schema): the validator
 * compiles the request ones, the OpenAPI document publishes all of them.
 */
const LOCALES = ['en', 'es', 'pt'] as const;

export const EVENT_ID_PATTERN = '^[0-9]{1,19}$';
export const BET_ITEM_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,199}$';
export const DATA_SOURCE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$';

export const settleBetParams = {
  type: 'object',
  required: ['eventId'],
  properties: { eventId: { type: 'string', pattern: EVENT_ID_PATTERN, description: 'Event id (numeric string).' } },
} as const;

export const settleBetQuery = {
  type: 'object',
  properties: { locale: { type: 'string', enum: LOCALES, default: 'en', description: 'Language of team names.' } },
} as const;

export const oddsMovementParams = {
  type: 'object',
  required: ['betItemId'],
  properties: {
    betItemId: { type: 'string', pattern: BET_ITEM_ID_PATTERN, description: 'Bet item id, as in markets[].betItems[].id (e.g. 123-SOCCER_UNDER_OVER@2.5-O).' },
  },
} as const;

export const oddsMovementQuery = {
  type: 'object',
  properties: {
    dataSource: { type: 'string', pattern: DATA_SOURCE_PATTERN, description: 'Odds provider (bookmaker feed) of the history; default: the default provider.' },
  },
} as const;

const num = { type: 'number' } as const;
const str = { type: 'string' } as const;
const nullable = <const S extends object>(s: S) => ({ anyOf: [s, { type: 'null' }] }) as const;
const resultEnum = nullable({ type: 'string', enum: ['won', 'lost', 'push'] });
const detailEnum = nullable({ type: 'string', enum: ['won', 'lost', 'push', 'half_won', 'half_lost'] });
const dateTime = { type: 'string', format: 'date-time' } as const;

const statsObject = {
  type: 'object',
  description: 'The final counts settlement graded from (null = not reported).',
  properties: Object.fromEntries(
    ['homeGoals', 'awayGoals', 'homeGoalsFirstHalf', 'awayGoalsFirstHalf', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards', 'homeRedCards', 'awayRedCards'].map((k) => [
      k,
      nullable({ type: 'integer' }),
    ]),
  ),
} as const;

const correction = {
  type: 'object',
  description: 'One earlier grading replaced by a result correction.',
  properties: {
    previousResult: resultEnum,
    previousResultDetail: detailEnum,
    previousReturnPerUnit: nullable(num),
    newResult: resultEnum,
    newResultDetail: detailEnum,
    newReturnPerUnit: nullable(num),
    correctedAt: dateTime,
    resultVersion: { type: 'integer' },
    reason: str,
  },
} as const;

const settlementError = nullable({
  type: 'object',
  description: 'Why the bet could not be graded (it stays unsettled for review).',
  properties: { code: str, message: str, resultVersion: { type: 'integer' }, at: dateTime },
});

const settledFields = {
  settled: { type: 'boolean' },
  result: resultEnum,
  resultDetail: { ...detailEnum, description: 'won, lost or push, or half_won / half_lost on quarter lines.' },
  returnPerUnit: { ...nullable(num), description: 'Money back per unit staked, stake included (won = odds, push = 1, half won = (odds+1)/2, half lost = 0.5).' },
  actualReturn: { ...nullable(num), description: 'The contract: the odds when won, else 0.' },
  settlementDate: nullable(dateTime),
  reasonCode: nullable({ type: 'string', enum: ['graded', 'void_abandoned', 'void_postponed', 'missing_score', 'missing_corners', 'missing_cards', 'missing_first_half'] }),
  reason: nullable(str),
  corrections: { type: 'array', items: correction },
  settlementError,
} as const;

/** Closing line value, as /v2/ai/recommendations serves it (docs/settlement.md). */
const closingFields = {
  closingOdds: {
    ...nullable(num),
    description:
      "Set at settlement: the closing price (at kickoff) of this outcome at the benchmark, Pinnacle when it quoted the whole market at the close, else the books' consensus; null without a closing line.",
  },
  clv: { ...nullable(num), description: 'Closing line value: odds / de-vigged closing fair odds - 1; > 0 beat the close. Null without a closing line.' },
} as const;
const pickClosingFields = {
  closingOdds: { ...nullable(num), description: "The product of the legs' closing prices (a single: its leg's); null when a leg has no closing line." },
  clv: { ...nullable(num), description: "totalOdds x the product of the legs' fair closing probabilities - 1 (legs on different events); null when a leg has no closing line." },
} as const;

const integer = { type: 'integer' } as const;
const tally = { type: 'object', properties: { total: integer, settled: integer, unsettled: integer, won: integer, lost: integer, push: integer } } as const;

export const settleBetResponse = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['eventId', 'status', 'settlement', 'finalResult', 'statsSource', 'liveEventData', 'recommendations', 'picks', 'summary'],
      properties: {
        eventId: str,
        status: { type: 'string', enum: ['upcoming', 'live', 'completed', 'postponed', 'cancelled'] },
        voided: { type: 'boolean', description: 'Abandoned (completed with the void flag).' },
        startDateTime: dateTime,
        startedAt: nullable(dateTime),
        endedAt: nullable(dateTime),
        homeTeam: { type: 'object', properties: { id: { type: 'integer' }, name: str } },
        awayTeam: { type: 'object', properties: { id: { type: 'integer' }, name: str } },
        settlement: {
          type: 'object',
          properties: {
            state: {
              type: 'string',
              enum: ['pending', 'unplayed', 'awaiting', 'settled'],
              description: 'pending: not over; unplayed: never started (bets void, not settled); awaiting: over, settlement of the current result version not finished yet; settled.',
            },
            endState: nullable({ type: 'string', enum: ['completed', 'postponed', 'abandoned'] }),
            resultVersion: { type: 'integer', description: 'Bumped by each result correction.' },
            settledVersion: nullable({ type: 'integer' }),
            settledAt: nullable(dateTime),
          },
        },
        finalResult: { ...nullable(statsObject), description: 'The final counts graded from; null until the event has ended.' },
        statsSource: { type: 'string', enum: ['liveEventData', 'event.stats', 'none'] },
        liveEventData: nullable({
          type: 'object',
          description: "The contract's LiveEventData: the data settlement uses.",
          properties: { ...statsObject.properties, eventId: str, phaseSysname: nullable(str), isLive: { type: 'boolean' }, liveDataJson: { type: 'object' }, updatedAt: nullable(dateTime) },
        }),
        recommendations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: str,
              eventId: str,
              marketId: str,
              betItemId: str,
              betTypeSysname: str,
              code: str,
              line: nullable(num),
              outcome: str,
              bookmaker: str,
              odds: num,
              confidence: { type: 'string', enum: ['High', 'Medium', 'Low'] },
              edgePercentage: num,
              ...settledFields,
              ...closingFields,
            },
          },
        },
        picks: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: str,
              pickType: { type: 'string', enum: ['single', 'parlay'] },
              totalOdds: num,
              confidence: str,
              edgePercentage: num,
              ...settledFields,
              ...pickClosingFields,
              legs: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    recommendationId: str,
                    eventId: str,
                    market: str,
                    outcome: str,
                    odds: num,
                    point: nullable(num),
                    result: resultEnum,
                    resultDetail: detailEnum,
                    returnPerUnit: nullable(num),
                    ...closingFields,
                  },
                },
              },
            },
          },
        },
        summary: { type: 'object', properties: { recommendations: tally, picks: tally } },
      },
    },
  },
} as const;

const pricePoint = { type: 'object', required: ['price', 'at'], properties: { price: num, at: dateTime } } as const;

export const oddsMovementResponse = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['betItemId', 'dataSource', 'opening', 'current', 'min', 'max', 'change', 'history'],
      properties: {
        betItemId: str,
        eventId: str,
        dataSource: str,
        opening: pricePoint,
        current: pricePoint,
        min: num,
        max: num,
        change: { type: 'number', description: 'current - opening (decimal odds).' },
        changePercent: { type: 'number', description: '(current - opening) / opening, in percent (2 decimals).' },
        points: { type: 'integer', description: 'Price changes stored for this item and source.' },
        history: { type: 'array', items: pricePoint, description: 'Price changes, oldest first (at most the latest 5000).' },
        truncated: { type: 'boolean', description: 'True when older changes than the listed ones exist.' },
      },
    },
  },
} as const;

/** The 200 bodies, by the RouteSpec `response` names of api/routes/bets.ts. */
export const settlementResponses = { settleBet: settleBetResponse, oddsMovement: oddsMovementResponse } as const;
