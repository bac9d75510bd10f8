import { listCompetitions, listRegions, listTeams, systemStats } from '../queries/catalog';
import { hasDates, searchPattern, zoneKey } from '../queries/filters';
import { datedListing } from '../schemas/params';
import { competitionsQuery, regionsQuery, statsQuery, teamsQuery } from '../schemas/queries';
import { responses } from '../schemas/responses';
import { route } from './route';
import type { Route } from './spec';

/** Competitions, regions, teams and system statistics. */
export function catalogRoutes(): Route[] {
  return [
    route({
      path: '/competitions',
      price: '/v2/competitions',
      operationId: 'listCompetitions',
      summary: 'Competitions with events',
      description:
        'Competitions that have events matching the filters (statuses, region, days in `timezone`), with their region and `_count.events`, ' +
        'most popular first. Public: no API key needed. date must not be combined with startDate or endDate.',
      tag: 'Reference',
      auth: 'none',
      query: competitionsQuery,
      ...datedListing,
      response: responses.competitions,
      handler: ({ query: q, cached }) => {
        const key = { ...q, timezone: hasDates(q) ? zoneKey(q.timezone) : undefined };
        return cached('competitions', key, ['events', 'competitions'], () => listCompetitions(q));
      },
    }),
    route({
      path: '/regions',
      price: '/v2/regions',
      operationId: 'listRegions',
      summary: 'Regions',
      description:
        'Regions (countries and international areas) with `_count.competitions`, `_count.events` (events with the requested statuses) and `availableSports`. ' +
        'With sportName, only regions with competitions of that sport, counted for that sport.',
      tag: 'Reference',
      auth: 'none',
      query: regionsQuery,
      lists: ['status'],
      response: responses.regions,
      handler: ({ query: q, cached }) => cached('regions', q, ['events', 'competitions'], () => listRegions(q)),
    }),
    route({
      path: '/teams',
      price: '/v2/teams',
      operationId: 'searchTeams',
      summary: 'Team search',
      description: 'Teams whose name, in any supported language, contains `search` (case and accents ignored), by English name. `count` is the total matching.',
      tag: 'Reference',
      auth: 'key',
      query: teamsQuery,
      response: responses.teams,
      handler: ({ query: q, cached }) => {
        const key = { ...q, search: q.search === undefined ? undefined : searchPattern(q.search) };
        return cached('teams', key, ['competitions'], () => listTeams(q));
      },
    }),
    route({
      path: '/stats',
      price: '/v2/stats',
      operationId: 'systemStats',
      summary: 'System-wide statistics',
      description: 'Counts of events by status and by sport, competitions, regions, teams and open markets, and the time of the latest event update.',
      tag: 'System',
      auth: 'none',
      query: statsQuery,
      response: responses.stats,
      handler: ({ query: q, cached }) => cached('stats', q, ['events', 'competitions'], () => systemStats(q.locale)),
    }),
  ];
}
