import { defaultDataSource, eventIdOf, listMatches, liveMatches, liveOdds, matchDetail, TRENDING_SIZE, trendingMatches } from '../queries/events';
import { hasDates, todayFilter, zoneKey } from '../queries/filters';
import { datedListing, eventIdOrSlugParam, eventIdParam } from '../schemas/params';
import { liveOddsQuery, liveQuery, matchDetailQuery, matchesQuery, trendingQuery } from '../schemas/queries';
import { responses } from '../schemas/responses';
import { route } from './route';
import type { Route } from './spec';

/** Event endpoints. Static paths come before /matches/{eventId} so they are never read as ids. */
export function matchRoutes(): Route[] {
  return [
    route({
      path: '/matches',
      price: '/v2/matches',
      operationId: 'listMatches',
      summary: 'List events',
      description:
        'Events matching the filters, by start time then id, a page at a time. `count` is the total matching (all pages). ' +
        'Completed events carry final stats; upcoming and live events carry neither stats nor live odds. ' +
        'date, startDate and endDate are calendar days in `timezone`; date must not be combined with startDate or endDate.',
      tag: 'Events',
      auth: 'key',
      query: matchesQuery,
      ...datedListing,
      response: responses.matches,
      handler: ({ query: q, cached }) => {
        // The zone only matters with a date filter: without one, every zone shares one page.
        const key = { ...q, timezone: hasDates(q) ? zoneKey(q.timezone) : undefined };
        return cached('matches', key, ['events'], () => listMatches(q));
      },
    }),
    route({
      path: '/matches/trending',
      price: '/v2/matches/trending',
      operationId: 'trendingMatches',
      summary: 'Trending events of today',
      description: `The ${TRENDING_SIZE} most viewed events starting today (in \`timezone\`) with the requested statuses, most viewed first. Only the trending fields, and only SOCCER_MATCH_RESULT and SOCCER_UNDER_OVER markets; no stats, recommendations, picks or simulations. \`count\` is the number of events returned. View counts in a cached answer may be up to CACHE_TTL_S seconds old.`,
      tag: 'Events',
      auth: 'key',
      query: trendingQuery,
      lists: ['status'],
      response: responses.trending,
      handler: ({ query: q, cached }) => {
        const today = todayFilter(q.timezone);
        return cached('trending', { ...q, timezone: zoneKey(q.timezone), today: today.day }, ['events'], () => trendingMatches(q, today), { clockInKey: true });
      },
    }),
    route({
      path: '/matches/live',
      price: '/v2/matches/live',
      operationId: 'liveMatches',
      summary: 'Live events',
      description:
        'Events in play with flat live statistics (liveBetItems included) and markets. prioritize=true lists the most popular competitions first. ' +
        '`count` is the total of live events matching (all pages). Data is refreshed about every 30 seconds.',
      tag: 'Events',
      auth: 'key',
      query: liveQuery,
      response: responses.live,
      handler: ({ query: q, cached }) => cached('live', q, ['events'], () => liveMatches(q)),
    }),
    route({
      path: '/matches/{eventId}',
      price: '/v2/matches/{eventId}',
      operationId: 'matchDetail',
      summary: 'Event details',
      description:
        'The full event: teams, competition with region, every market, stats (null before kickoff), live markets of a live event, ' +
        'live event data, analysis insight, news, betting recommendations and the featured pick. Each request counts one view. ' +
        "The event is wrapped in `data`, as the contract's example and every other endpoint.",
      tag: 'Events',
      auth: 'key',
      params: eventIdParam,
      query: matchDetailQuery,
      response: responses.matchDetail,
      errors: [404],
      handler: async ({ query: q, params, json, app }) => {
        const event = await matchDetail(params.eventId, q.locale, q.timezone, defaultDataSource(app.config.PROVIDERS));
        return json({ data: event });
      },
    }),
    route({
      path: '/matches/{eventId}/live-odds',
      price: '/v2/matches/{eventId}/live-odds',
      operationId: 'liveOdds',
      summary: 'Live odds of an event',
      description:
        'The latest live-odds snapshot of one provider (dataSource) for the event, with localized market and outcome names. ' +
        '404 when the event does not exist, or when that provider has no snapshot for it (the message lists the providers that do).',
      tag: 'Events',
      auth: 'key',
      params: eventIdOrSlugParam,
      query: liveOddsQuery,
      response: responses.liveOdds,
      errors: [404],
      handler: ({ query: q, params, cached, app }) => {
        const eventId = eventIdOf(params.eventId);
        const dataSource = q.dataSource ?? defaultDataSource(app.config.PROVIDERS);
        return cached('live-odds', { eventId, dataSource, locale: q.locale }, ['events'], () => liveOdds(eventId, dataSource, q.locale));
      },
    }),
  ];
}
