import type { Locale } from '../../shared/sports';
import { sendCached } from '../cache/pageCache';
import { validQuery } from '../middleware/validate';
import { listCompetitions, listRegions, listTeams, systemStats, type CompetitionsQuery, type RegionsQuery, type TeamsQuery } from '../queries/catalog';
import { searchPattern, zoneKey } from '../queries/filters';
import { dateRule } from '../schemas/params';
import { competitionsQuery, regionsQuery, statsQuery, teamsQuery } from '../schemas/queries';
import type { RouteSpec } from './spec';

/** Competitions, regions, teams and system statistics. */
export function catalogRoutes(): RouteSpec[] {
  return [
    {
      path: '/competitions',
      operationId: 'listCompetitions',
      summary: 'Competitions with events',
      description:
        'Competitions that have events matching the filters (statuses, region, days in `timezone`), with their region and `_count.events`, ' +
        'most popular first. Public: no API key needed. date must not be combined with startDate or endDate.',
      tag: 'Reference',
      auth: 'none',
      query: competitionsQuery,
      lists: ['status'],
      check: dateRule,
      response: 'competitions',
      handler: async (req, res) => {
        const q = validQuery<CompetitionsQuery>(req);
        const dated = Boolean(q.date || q.startDate || q.endDate);
        const key = { ...q, timezone: dated ? zoneKey(q.timezone) : undefined };
        await sendCached(req, res, 'competitions', key, ['events', 'competitions'], () => listCompetitions(q));
      },
    },
    {
      path: '/regions',
      operationId: 'listRegions',
      summary: 'Regions',
      description:
        'Regions (countries and international areas) with `_count.competitions`, `_count.events` (events with the requested statuses) and `availableSports`. ' +
        'With sportName, only regions with competitions of that sport, counted for that sport.',
      tag: 'Reference',
      auth: 'none',
      query: regionsQuery,
      lists: ['status'],
      response: 'regions',
      handler: async (req, res) => {
        const q = validQuery<RegionsQuery>(req);
        await sendCached(req, res, 'regions', q as unknown as Record<string, unknown>, ['events', 'competitions'], () => listRegions(q));
      },
    },
    {
      path: '/teams',
      operationId: 'searchTeams',
      summary: 'Team search',
      description: 'Teams whose name, in any supported language, contains `search` (case and accents ignored), by English name. `count` is the total matching.',
      tag: 'Reference',
      auth: 'key',
      query: teamsQuery,
      response: 'teams',
      handler: async (req, res) => {
        const q = validQuery<TeamsQuery>(req);
        const key = { ...q, search: q.search === undefined ? undefined : searchPattern(q.search) };
        await sendCached(req, res, 'teams', key, ['competitions'], () => listTeams(q));
      },
    },
    {
      path: '/stats',
      operationId: 'systemStats',
      summary: 'System-wide statistics',
      description: 'Counts of events by status and by sport, competitions, regions, teams and open markets, and the time of the latest event update.',
      tag: 'System',
      auth: 'none',
      query: statsQuery,
      response: 'stats',
      handler: async (req, res) => {
        const q = validQuery<{ locale: Locale }>(req);
        await sendCached(req, res, 'stats', q, ['events', 'competitions'], () => systemStats(q.locale));
      },
    },
  ];
}
