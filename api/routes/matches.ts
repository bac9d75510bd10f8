import type { Locale } from '../../shared/sports';
import { sendCached } from '../cache/pageCache';
import { validQuery } from '../middleware/validate';
import {
  defaultDataSource,
  eventIdOf,
  listMatches,
  liveMatches,
  liveOdds,
  matchDetail,
  TRENDING_SIZE,
  trendingMatches,
  type LiveQuery,
  type MatchesQuery,
  type TrendingQuery,
} from '../queries/events';
import { todayFilter, zoneKey } from '../queries/filters';
import { dateRule, eventIdOrSlugParam, eventIdParam } from '../schemas/params';
import { liveOddsQuery, liveQuery, matchDetailQuery, matchesQuery, trendingQuery } from '../schemas/queries';
import type { RouteSpec } from './spec';

const hasDates = (q: { date?: string; startDate?: string; endDate?: string }) => Boolean(q.date || q.startDate || q.endDate);

/** Event endpoints. Static paths come before /matches/{eventId} so they are never read as ids. */
export function matchRoutes(): RouteSpec[] {
  return [
    {
      path: '/matches',
      operationId: 'listMatches',
      summary: 'List events',
      description:
        'Events matching the filters, by start time then id, a page at a time. `count` is the total matching (all pages). ' +
        'Completed events carry final stats; upcoming and live events carry neither stats nor live odds. ' +
        'date, startDate and endDate are calendar days in `timezone`; date must not be combined with startDate or endDate.',
      tag: 'Events',
      auth: 'key',
      query: matchesQuery,
      lists: ['status'],
      check: dateRule,
      response: 'matches',
      handler: async (req, res) => {
        const q = validQuery<MatchesQuery>(req);
        // The zone only matters with a date filter: without one, every zone shares one page.
        const key = { ...q, timezone: hasDates(q) ? zoneKey(q.timezone) : undefined };
        await sendCached(req, res, 'matches', key, ['events'], () => listMatches(q));
      },
    },
    {
      path: '/matches/trending',
      operationId: 'trendingMatches',
      summary: 'Trending events of today',
      description: `The ${TRENDING_SIZE} most viewed events starting today (in \`timezone\`) with the requested statuses, most viewed first. Only the trending fields, and only SOCCER_MATCH_RESULT and SOCCER_UNDER_OVER markets; no stats, recommendations, picks or simulations. \`count\` is the number of events returned. View counts in a cached answer may be up to CACHE_TTL_S seconds old.`,
      tag: 'Events',
      auth: 'key',
      query: trendingQuery,
      lists: ['status'],
      response: 'trending',
      handler: async (req, res) => {
        const q = validQuery<TrendingQuery>(req);
        const today = todayFilter(q.timezone);
        await sendCached(req, res, 'trending', { ...q, timezone: zoneKey(q.timezone), today: today.day }, ['events'], () => trendingMatches(q, today));
      },
    },
    {
      path: '/matches/live',
      operationId: 'liveMatches',
      summary: 'Live events',
      description:
        'Events in play with flat live statistics (liveBetItems included) and markets. prioritize=true lists the most popular competitions first. ' +
        '`count` is the total of live events matching (all pages). Data is refreshed about every 30 seconds.',
      tag: 'Events',
      auth: 'key',
      query: liveQuery,
      response: 'live',
      handler: async (req, res) => {
        const q = validQuery<LiveQuery>(req);
        await sendCached(req, res, 'live', q as unknown as Record<string, unknown>, ['events'], () => liveMatches(q));
      },
    },
    {
      path: '/matches/{eventId}',
      operationId: 'matchDetail',
      summary: 'Event details',
      description:
        'The full event: teams, competition with region, every market, stats (null before kickoff), live markets of a live event, ' +
        'live event data, analysis insight, news, betting recommendations and the featured pick. Each request counts one view. ' +
        "By default the event is wrapped in `data` (as the contract's example); `wrap=none` returns it bare (as the contract's schema).",
      tag: 'Events',
      auth: 'key',
      params: eventIdParam,
      query: matchDetailQuery,
      response: 'matchDetail',
      errors: [404],
      handler: async (req, res) => {
        const q = validQuery<{ locale: Locale; wrap: 'data' | 'none'; timezone: string }>(req);
        const event = await matchDetail(String(req.params.eventId), q.locale, q.timezone);
        res.json(q.wrap === 'none' ? event : { data: event });
      },
    },
    {
      path: '/matches/{eventId}/live-odds',
      operationId: 'liveOdds',
      summary: 'Live odds of an event',
      description:
        'The latest live-odds snapshot of one provider (dataSource) for the event, with localized market and outcome names. ' +
        '404 when the event does not exist, or when that provider has no snapshot for it (the message lists the providers that do).',
      tag: 'Events',
      auth: 'key',
      params: eventIdOrSlugParam,
      query: liveOddsQuery,
      response: 'liveOdds',
      errors: [404],
      handler: async (req, res) => {
        const q = validQuery<{ dataSource?: string; locale: Locale }>(req);
        const eventId = eventIdOf(String(req.params.eventId));
        const dataSource = q.dataSource ?? defaultDataSource();
        await sendCached(req, res, 'live-odds', { eventId, dataSource, locale: q.locale }, ['events'], () => liveOdds(eventId, dataSource, q.locale));
      },
    },
  ];
}
