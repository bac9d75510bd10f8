import { findCompetitionCopyInAnEvent, findLatestEventUpdate } from '../../shared/platform/db/repositories/events';
import { countMarketsOfEvents } from '../../shared/platform/db/repositories/eventForms';
import { countListing, listingStats } from '../../shared/domain/listing/rows';
import { currentListing, lastEventWriteAt } from '../../shared/platform/listing/store';
import {
  countAllCompetitions,
  countAllRegions,
  countAllTeams,
  countTeamsWhere,
  findAllRegionNamesAndCodes,
  findCompetitionRegionsAndSports,
  findCompetitionsByIds,
  findRegionNamesByIds,
  findTeamsPageByName,
  type TeamsFilter,
} from '../../shared/platform/db/repositories/reference';
import type { EventStatus } from '../../shared/domain/events/status';
import { localize, SPORTS, sportById, type Locale } from '../../shared/domain/sports';
import { sportRef } from '../render/events';
import { listingFilter, searchPattern, sportIdOf, uniqueSorted, type EventFilterInput } from './filters';
import { processMemo } from '../../shared/platform/processScope';
import { heardVersions } from '../../shared/platform/cache/versionFeed';

/** Reads behind /competitions, /regions, /teams and /stats; each returns the response body. */

const byCaption = (locale: Locale) => (a: { caption: string; id: number }, b: { caption: string; id: number }) => a.caption.localeCompare(b.caption, locale) || a.id - b.id;

export interface CompetitionsQuery extends EventFilterInput {
  locale: Locale;
  status: string[];
}

/** Competitions that have events matching the filters, with their count, most popular first. */
export async function listCompetitions(q: CompetitionsQuery) {
  const counts = countListing(await currentListing(), listingFilter(q), 'c');
  const ids = [...counts.keys()];
  const competitions = await findCompetitionsByIds(ids);
  const known = new Set(competitions.map((c) => c._id));
  // A competition the feed has not described yet is still served, from its events' copy.
  const missing = ids.filter((id) => !known.has(id));
  const fromEvents = await Promise.all(missing.map((id) => findCompetitionCopyInAnEvent(id)));
  const rows = [
    ...competitions.map((c) => ({ id: c._id, name: c.name, regionId: c.regionId, sportId: c.sportId, priority: c.priority ?? 0 })),
    ...fromEvents.filter((e) => e !== null).map((e) => ({ id: e.competition.id, name: e.competition.name, regionId: e.regionId, sportId: e.sportId, priority: 0 })),
  ];
  const regions = new Map((await findRegionNamesByIds([...new Set(rows.map((r) => r.regionId))])).map((r) => [r._id, r.name]));
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
  const sportFilter = q.sportName ? { sportId: sportIdOf(q.sportName) } : {};
  const [regions, competitions, events] = await Promise.all([
    findAllRegionNamesAndCodes(),
    findCompetitionRegionsAndSports(sportFilter),
    currentListing().then((listing) => countListing(listing, { status: uniqueSorted(q.status), sportId: sportFilter.sportId }, 'r')),
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
        caption: localize(r.name, q.locale),
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
  const filter: TeamsFilter = {
    namePattern: q.search ? searchPattern(q.search) : undefined,
    sportId: q.sportName ? sportIdOf(q.sportName) : undefined,
    regionId: q.regionId !== undefined ? Number(q.regionId) : undefined,
  };
  const [teams, count] = await Promise.all([findTeamsPageByName(filter, q.page, q.limit), countTeamsWhere(filter)]);
  const data = teams.map((t) => ({
    id: t._id,
    name: localize(t.name, q.locale),
    sportId: t.sportId,
    sport: sportRef(t.sportId, q.locale),
    regionId: t.regionId,
  }));
  return { data, count };
}

/**
 * Market counts of open events read from the store, kept by the event's listing version: only
 * events whose rows lack the count (after a rebuild, until their prices are written again) are
 * read, each once per change.
 */
// In the process scope (shared/platform/processScope.ts): counts of another database's events never answer.
const countsKept = processMemo(() => new Map<string, { v: number | undefined; m: number }>());

async function marketsOf(unknown: readonly (readonly [string, { v?: number }])[]): Promise<number> {
  const marketCounts = countsKept();
  const toRead = unknown.filter(([id, row]) => {
    const known = marketCounts.get(id);
    return !known || known.v !== row.v;
  });
  if (toRead.length) {
    const read = await countMarketsOfEvents(toRead.map(([id]) => id));
    for (const [id, row] of toRead) marketCounts.set(id, { v: row.v, m: read.get(id) ?? 0 });
  }
  const wanted = new Set(unknown.map(([id]) => id));
  if (marketCounts.size > wanted.size + 1000) for (const id of marketCounts.keys()) if (!wanted.has(id)) marketCounts.delete(id);
  return unknown.reduce((n, [id]) => n + (marketCounts.get(id)?.m ?? 0), 0);
}

/**
 * The reference collections' sizes, counted once per `competitions` version this process heard:
 * the reference writers move it after they write (shared/platform/cache/versions.ts), and the
 * events pages, whose version moves at every poll, no longer count them again.
 */
const referenceCountsKept = processMemo((): { version?: string; counts?: Promise<[number, number, number]> } => ({}));

function referenceCounts(): Promise<[number, number, number]> {
  const version = heardVersions(['competitions']);
  const kept = referenceCountsKept();
  if (version !== undefined && kept.version === version && kept.counts) return kept.counts;
  const counts = Promise.all([countAllCompetitions(), countAllRegions(), countAllTeams()]);
  if (version === undefined) return counts;
  kept.version = version;
  kept.counts = counts;
  counts.catch(() => {
    if (kept.counts === counts) kept.counts = undefined;
  });
  return counts;
}

/** System-wide counts: the events' from the listing (one snapshot), the reference collections' from the store. */
export async function systemStats(locale: Locale) {
  const [listing, [competitions, regions, teams], written] = await Promise.all([currentListing(), referenceCounts(), lastEventWriteAt()]);
  const { byStatus, bySportStatus, openMarkets, unknownMarkets } = listingStats(listing);
  const [markets, last] = await Promise.all([marketsOf(unknownMarkets).then((n) => n + openMarkets), written ? { updatedAt: written } : findLatestEventUpdate()]);
  const count = (s: EventStatus) => byStatus.get(s) ?? 0;
  // In EVENT_STATUSES order (the body's key order).
  const statusCounts = {
    upcoming: count('upcoming'),
    live: count('live'),
    completed: count('completed'),
    postponed: count('postponed'),
    cancelled: count('cancelled'),
  } satisfies Record<EventStatus, number>;
  const sports = SPORTS.map((s) => {
    const of = bySportStatus.get(s.id) ?? new Map<string, number>();
    return { id: s.id, sysname: s.sysname, name: localize(s.name, locale), events: [...of.values()].reduce((t, n) => t + n, 0), upcoming: of.get('upcoming') ?? 0, live: of.get('live') ?? 0 };
  });
  return {
    data: {
      events: { total: listing.length, ...statusCounts },
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
