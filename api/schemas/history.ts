import { arr, dateTime, ndateTime, obj, ref, str } from './build';
import { locale } from './params';

/**
 * GET /v2/matches/{eventId}/odds: an event's odds as they stood at a past instant (the validator
 * compiles the query, the OpenAPI document publishes both, the tests validate served bodies).
 */
export const oddsAtQuery = {
  type: 'object',
  required: ['at'],
  properties: {
    at: {
      type: 'string',
      format: 'date-time',
      description:
        'The instant, ISO 8601 with a time zone (2026-10-03T13:00:00Z, 2026-10-03T15:00:00+02:00; milliseconds allowed). Required; not in the future. ' +
        'The answer is the latest stored state at or before it.',
    },
    locale,
  },
} as const;

const markets = (description: string) => arr(ref('Market'), { description });

export const oddsAtResponse = obj({
  data: obj({
    eventId: str,
    dataSource: { type: 'string', description: "The event's provider, whose consensus prices (the median of its books) the history keeps." },
    at: { ...dateTime, description: 'The instant asked for.' },
    capturedAt: { ...ndateTime, description: 'The stored instant served: the latest at or before `at` (the timestamp of the source); null before the first.' },
    previousAt: { ...ndateTime, description: 'The stored instant before `capturedAt`; null when none.' },
    nextAt: { ...ndateTime, description: 'The first stored instant after `at`; null when none yet. Ask `at=nextAt` to step forward, `at=previousAt` to step back.' },
    markets: markets(
      "Every market the event had been priced in by then, in the detail view's shape, each bet item at its price at `capturedAt`; items not yet priced then are left out; empty before the first stored instant. " +
        'isAvailable is false once the event had ended at `at`; the history keeps prices, not suspensions.',
    ),
    closingLine: {
      oneOf: [
        obj({ capturedAt: { ...dateTime, description: 'The kickoff it was captured at.' }, markets: markets('Each market still quoted before kickoff, at its last pre-match consensus price.') }),
        { type: 'null' },
      ],
      description: 'The closing line once the event had started at or before `at`; null before kickoff, and for an event first seen already started.',
    },
  }),
});
