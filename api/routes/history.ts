import { worldNow } from '../../shared/platform/clock/worldClock';
import { oddsAtInstant } from '../queries/history';
import { oddsAtQuery, oddsAtResponse } from '../schemas/history';
import { eventIdParam } from '../schemas/params';
import { route } from './route';
import type { Route } from './spec';

/** Why an instant that passed the date-time format cannot be served (a leap second, the future); undefined when it can. */
export function instantRule(at: string | Date, now: Date = worldNow()): string | undefined {
  const t = new Date(at).getTime();
  if (Number.isNaN(t)) return 'at must be an ISO 8601 date-time with a time zone, such as 2026-10-03T13:00:00Z';
  if (t > now.getTime()) return `at must not be in the future (now is ${now.toISOString()} on the world clock, which every instant of this API uses)`;
  return undefined;
}

/** GET /v2/matches/{eventId}/odds?at=: an event's odds at any past instant, from its stored price history. */
export function oddsAtRoute(): Route {
  return route({
    path: '/matches/{eventId}/odds',
    price: '/v2/matches/{eventId}/odds',
    operationId: 'matchOddsAt',
    summary: 'Odds of an event at a past instant',
    description:
      "The event's markets as they stood at `at`, an instant of the world clock (the answer's `worldNow` is its now): the latest stored state at or before it (every reprice of the provider's consensus is stored, at the source's own timestamp, " +
      'so the resolution is one poll), with `capturedAt` (the stored instant served), `previousAt` and `nextAt` (the stored instants around it, to step through the history), ' +
      'and for an event that had started by `at` its closing line (the last pre-match prices, captured at kickoff). ' +
      'Before the first stored price: 200 with no markets, `capturedAt` null, `nextAt` the first stored instant and `reason` saying why (before_first_capture, or no_prices_stored when the event has none). ' +
      'An `at` after `worldNow` is a 400; an unknown event a 404. ' +
      'The history is kept as long as the event. Priced as the event detail.',
    tag: 'Events',
    auth: 'key',
    params: eventIdParam,
    query: oddsAtQuery,
    messages: { at: 'at must be an ISO 8601 date-time with a time zone, such as 2026-10-03T13:00:00Z' },
    check: (q) => instantRule(q.at),
    response: oddsAtResponse,
    errors: [404],
    handler: async ({ query: q, params, json }) => json(await oddsAtInstant(params.eventId, new Date(q.at), q.locale)),
  });
}
