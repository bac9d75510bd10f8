import { countEventsPerField, countEventsPerSportAndStatus, countEventsPerStatus, findCompetitionCopyInAnEvent, findLatestEventUpdate } from '../../shared/db/repositories/events';
import { countMarketsOfOpenEvents } from '../../shared/db/repositories/eventForms';
import {
  countAllCompetitions,
  countAllRegions,
  countAllTeams,
  countTeamsMatching,
  findAllRegionNamesAndCodes,
  findCompetitionRegionsAndSports,
  findCompetitionsByIds,
  findRegionNamesByIds,
  findTeamsPageByName,
} from '../../shared/db/repositories/reference';
import { EVENT_STATUSES } from '../../shared/events/status';
import { localize, SPORTS, sportById, sportByName, type Locale, type LocalizedText } from '../../shared/sports';
import { sportRef } from '../render/events';
import { eventFilter, searchPattern, uniqueSorted, type EventFilterInput } from './filters';

/** Reads behind /competitions, /regions, /teams and /stats; each returns the response body. */

const byCaption = (locale: Locale) => (a: { caption: string; id: number }, b: { caption: string; id: number }) => a.caption.localeCompare(b.caption, locale) || a.id - b.id;

export interface CompetitionsQuery extends EventFilterInput {
  locale: Locale;
  status: string[];
}

/** Competitions that have events matching the filters, with their count, most popular first. */
export async function listCompetitions(q: CompetitionsQuery) {
  const counts = await countEventsPerField('competitionId', eventFilter(q));
  const ids = [...counts.keys()];
  const competitions = await findCompetitionsByIds(ids);
  const known = new Set(competitions.map((c) => c._id));
  // A competition the feed has not described yet is still served, from its events' copy.
  const missing = ids.filter((id) => !known.has(id));
  const fromEvents = await Promise.all(missing.map((id) => findCompetitionCopyInAnEvent(id)));
  const rows = [
    ...competitions.map((c) => ({ id: c._id, name: c.name as LocalizedText, regionId: c.regionId, sportId: c.sportId, priority: c.priority ?? 0 })),
    ...fromEvents.filter(Boolean).map((e) => ({ id: e!.competition.id, name: e!.competition.name as LocalizedText, regionId: e!.regionId, sportId: e!.sportId, priority: 0 })),
  ];
  const regions = new Map((await findRegionNamesByIds([...new Set(rows.map((r) => r.regionId))])).map((r) => [r._id, r.name as LocalizedText]));
  const data = rows
    .map((r) => ({
      id: r.id,
      caption: localize(r.name, q.locale),
      regionId: r.regionId,
      sportId: r.sportId,
      region: { id: r.regionId, caption: regions.has(r.regionId) ? localize(regions.get(r.regionId), q.locale) : String(r.regionId) },
      _count: { events: counts.get(r.id) ?? 0 },
      priority: r.priority,
    }))
    .sort((a, b) => b.priority - a.priority || byCaption(q.locale)(a, b))
    .map(({ priority: _p, ...c }) => c);
  return { data, count: data.length };
}

export interface RegionsQuery {
  locale: Locale;
  sportName?: string;
  status: string[];
}

/** Every region (of the sport, when given) with its competitions, sports and event count. */
export async function listRegions(q: RegionsQuery) {
  const sportFilter = q.sportName ? { sportId: sportByName(q.sportName)!.id } : {};
  const [regions, competitions, events] = await Promise.all([
    findAllRegionNamesAndCodes(),
    findCompetitionRegionsAndSports(sportFilter),
    countEventsPerField('regionId', { status: { $in: uniqueSorted(q.status) }, ...sportFilter }),
  ]);
  const perRegion = new Map<number, { competitions: number; sports: Set<number> }>();
  for (const c of competitions) {
    const r = perRegion.get(c.regionId) ?? { competitions: 0, sports: new Set<number>() };
    r.competitions++;
    r.sports.add(c.sportId);
    perRegion.set(c.regionId, r);
  }
  const data = regions
    .filter((r) => !q.sportName || perRegion.has(r._id))
    .map((r) => {
      const id = r._id;
      const facts = perRegion.get(id);
      return {
        id,
        caption: localize(r.name as LocalizedText, q.locale),
        code: r.code ?? null,
        _count: { competitions: facts?.competitions ?? 0, events: events.get(id) ?? 0 },
        availableSports: [...(facts?.sports ?? [])].sort((a, b) => a - b).map((s) => sportById(s)?.sysname ?? String(s)),
      };
    })
    .sort(byCaption(q.locale));
  return { data, count: data.length };
}

export interface TeamsQuery {
  locale: Locale;
  search?: string;
  sportName?: string;
  regionId?: string;
  limit: number;
  page: number;
}

/** Team search: any part of a name in any locale, case and accents ignored. */
export async function listTeams(q: TeamsQuery) {
  const filter: Record<string, unknown> = {};
  if (q.search) filter.searchNames = { $regex: searchPattern(q.search) };
  if (q.sportName) filter.sportId = sportByName(q.sportName)!.id;
  if (q.regionId !== undefined) filter.regionId = Number(q.regionId);
  const [teams, count] = await Promise.all([findTeamsPageByName(filter, q.page, q.limit), countTeamsMatching(filter)]);
  const data = teams.map((t) => ({
    id: t._id,
    name: localize(t.name as LocalizedText, q.locale),
    sportId: t.sportId,
    sport: sportRef(t.sportId, q.locale),
    regionId: t.regionId,
  }));
  return { data, count };
}

/** System-wide counts. */
export async function systemStats(locale: Locale) {
  const [byStatus, bySportStatus, competitions, regions, teams, markets, last] = await Promise.all([
    countEventsPerStatus(),
    countEventsPerSportAndStatus(),
    countAllCompetitions(),
    countAllRegions(),
    countAllTeams(),
    countMarketsOfOpenEvents(),
    findLatestEventUpdate(),
  ]);
  const statusCounts = Object.fromEntries(EVENT_STATUSES.map((s) => [s, byStatus.find((r) => r._id === s)?.n ?? 0])) as Record<(typeof EVENT_STATUSES)[number], number>;
  const sports = SPORTS.map((s) => {
    const rows = bySportStatus.filter((r) => r._id.sportId === s.id);
    const of = (status: string) => rows.find((r) => r._id.status === status)?.n ?? 0;
    return { id: s.id, sysname: s.sysname, name: localize(s.name, locale), events: rows.reduce((t, r) => t + r.n, 0), upcoming: of('upcoming'), live: of('live') };
  });
  return {
    data: {
      events: { total: byStatus.reduce((t, r) => t + r.n, 0), ...statusCounts },
      sports,
      competitions,
      regions,
      teams,
      markets,
      lastEventUpdateAt: last?.updatedAt ? last.updatedAt.toISOString() : null,
      generatedAt: new Date().toISOString(),
    },
  };
}
