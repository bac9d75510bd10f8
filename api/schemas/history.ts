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
        "The instant, ISO 8601 with a time zone (2026-10-03T13:00:00Z, 2026-10-03T15:00:00+02:00; milliseconds allowed), on the world clock: the providers' time, which every instant of this API uses " +
        "(the wall clock in production; a demo or replay deployment runs it at SIM_SPEED times the wall clock from its own start, and the answer's `worldNow` says where it stands). Required; not after `worldNow`. " +
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
    at: { ...dateTime, description: 'The instant asked for, on the world clock.' },
    worldNow: {
      ...dateTime,
      description:
        "The world clock's now when the answer was made: the clock of `at` and of every stored instant. It is the wall clock unless the deployment simulates time (SIM_SPEED, SIM_EPOCH); " +
        'then an instant read from the wall clock is elsewhere in the history, and `at` should be taken from this (e.g. `worldNow` minus a minute).',
    },
    capturedAt: { ...ndateTime, description: 'The stored instant served: the latest at or before `at` (the timestamp of the source); null before the first.' },
    previousAt: { ...ndateTime, description: 'The stored instant before `capturedAt`; null when none.' },
    nextAt: { ...ndateTime, description: 'The first stored instant after `at`; null when none yet. Ask `at=nextAt` to step forward, `at=previousAt` to step back.' },
    firstCapturedAt: { ...ndateTime, description: "The first stored instant of the event's history, where it starts; null when no price is stored." },
    reason: {
      type: ['string', 'null'],
      enum: ['before_first_capture', 'no_prices_stored', null],
      description:
        'Why `markets` is empty, null when a stored state is served: before_first_capture, `at` precedes the first stored price (at `firstCapturedAt`; on the world clock, see `worldNow`); ' +
        'no_prices_stored, the event has no stored price yet (its history starts at its first quote). An `at` after the event ended is served its last prices, unavailable.',
    },
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
