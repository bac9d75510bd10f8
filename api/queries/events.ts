import { getConfig } from '../../shared/platform/config';
import { findInsightAnalysisOfEvent, findLatestFeaturedPickOfEvent, findTopRecommendationsOfEvent } from '../../shared/platform/db/repositories/ai';
import { eventExists, findLiveEventDataOfEvent } from '../../shared/platform/db/repositories/events';
import { findEventById, findEventListFormsByIds, findLiveOddsDataSourcesOfEvent, findLiveOddsSnapshot, type EventListRow } from '../../shared/platform/db/repositories/eventForms';
import { findViewsOfEvents } from '../../shared/platform/db/repositories/eventViews';
import { findRegionCompetitionsByPriority } from '../../shared/platform/db/repositories/reference';
import { sportById, type Locale } from '../../shared/domain/sports';
import { renderDetailEvent } from '../render/detail';
import { renderListEvent, renderLiveEvent, renderLiveMarkets, renderTrendingEvent } from '../render/events';
import { notFound } from '../errors';
import { countView } from './views';
import { listingFilter, sportIdOf, todayFilter, uniqueSorted, type EventFilterInput } from './filters';
import { countListing, listingIds, listingIndex, listingPage, mostViewed, type Listing, type ListingFilter } from '../../shared/domain/listing/rows';
import { currentListing } from '../../shared/platform/listing/store';
import { recent } from '../../shared/platform/cache/recent';
import { processMemo } from '../../shared/platform/processScope';

/** Reads behind the event endpoints; each returns the response body. */

export interface MatchesQuery extends EventFilterInput {
  locale: Locale;
  status: string[];
  limit: number;
  page: number;
}

/**
 * Events as a list page serves them, kept per event while its listing row's change version holds
 * and for at most LIST_FORM_MAX_AGE_MS (which bounds how old its view count gets): a page read
 * after a poll reads from the store only the events that poll changed.
 */
// In the process scope (shared/platform/processScope.ts): forms of another database's events never answer.
const formsKept = processMemo(() => new Map<string, { v: number; until: number; form: EventListRow }>());
const LIST_FORMS_MAX = 50_000;
export const LIST_FORM_MAX_AGE_MS = 30_000;

async function listFormsOf(ids: readonly string[], listing: Listing): Promise<EventListRow[]> {
  const listForms = formsKept();
  const rows = listingIndex(listing);
  const now = Date.now();
  const kept = (id: string) => {
    const k = listForms.get(id);
    return k && k.v === rows.get(id)?.v && k.until > now ? k.form : undefined;
  };
  const missing = ids.filter((id) => !kept(id));
  const read = new Map<string, EventListRow>();
  if (missing.length) {
    if (listForms.size > LIST_FORMS_MAX) listForms.clear();
    for (const form of await findEventListFormsByIds(missing, { live: false })) {
      read.set(form._id, form);
      const v = rows.get(form._id)?.v;
      if (v !== undefined) listForms.set(form._id, { v, until: now + LIST_FORM_MAX_AGE_MS, form });
    }
  }
  // An event gone from the store since the snapshot is left out, as the store's own page would.
  return ids.map((id) => read.get(id) ?? kept(id)).filter((f): f is EventListRow => f !== undefined);
}

/** The page and `count` are chosen from one listing snapshot; only the page's changed events are read. */
export async function listMatches(q: MatchesQuery) {
  const listing = await currentListing();
  const { ids, count } = listingPage(listing, listingFilter(q), { sort: 'start', page: q.page, limit: q.limit });
  const docs = await listFormsOf(ids, listing);
  return { data: docs.map((e) => renderListEvent(e, q.locale)), count };
}

export const TRENDING_SIZE = 5;

export interface TrendingQuery {
  timezone: string;
  locale: Locale;
  sport?: string;
  status: string[];
}

export async function trendingMatches(q: TrendingQuery, today = todayFilter(q.timezone)) {
  const filter: ListingFilter = { status: uniqueSorted(q.status), startGte: today.range.gte.getTime(), startLt: today.range.lt.getTime() };
  if (q.sport) filter.sportId = sportIdOf(q.sport);
  // The day's events from the listing, their view counts by id (fresh: the ranking and the counts shown agree), the top ones' forms.
  const listing = await currentListing();
  const views = await findViewsOfEvents(listingIds(listing, filter));
  const top = mostViewed(listing, filter, views, TRENDING_SIZE);
  const docs = (await listFormsOf(top, listing)).map((e) => ({ ...e, views: views.get(e._id) ?? 0 }));
  return { data: docs.map((e) => renderTrendingEvent(e, q.locale)), count: docs.length };
}

export interface LiveQuery {
  sport?: string;
  locale: Locale;
  limit: number;
  page: number;
  prioritize: boolean;
}

export async function liveMatches(q: LiveQuery) {
  const filter = { status: ['live'], ...(q.sport ? { sportId: sportIdOf(q.sport) } : {}) };
  const { ids, count } = listingPage(await currentListing(), filter, { sort: q.prioritize ? 'priority' : 'start', page: q.page, limit: q.limit });
  const docs = await findEventListFormsByIds(ids, { live: true });
  return { data: docs.map((e) => renderLiveEvent(e, q.locale)), count };
}

/** The provider whose snapshot is served when none is asked for. */
export const defaultDataSource = () => getConfig().PROVIDERS[0] ?? 'simulated';

/**
 * Region facts of the detail view: its competitions and sports (kept 10 s per region when slow to
 * read), and its upcoming + live event count from the listing.
 */
const regionCompetitions = recent(10_000, async (regionId: number) => {
  const competitions = await findRegionCompetitionsByPriority(regionId);
  const sportIds = [...new Set(competitions.map((c) => c.sportId))].sort((a, b) => a - b);
  return {
    competitions: competitions.map((c) => ({ _id: c._id, name: c.name })),
    availableSports: sportIds.map((id) => sportById(id)?.sysname).filter((s): s is NonNullable<typeof s> => Boolean(s)),
  };
});

async function regionFacts(regionId: number) {
  const [facts, listing] = await Promise.all([regionCompetitions(regionId), currentListing()]);
  return { ...facts, events: countListing(listing, { status: ['upcoming', 'live'], regionId }, 'r').get(regionId) ?? 0 };
}

/** The detail view; it counts one view (countView) and shows the count including it. */
export async function matchDetail(eventId: string, locale: Locale, zone: string) {
  const event = await findEventById(eventId);
  if (!event) throw notFound(`Event ${eventId} not found`);
  event.views = await countView(eventId, event.views ?? 0);
  const [region, liveSnapshot, liveEventData, insight, recommendations, pick] = await Promise.all([
    regionFacts(event.regionId),
    event.status === 'live' ? findLiveOddsSnapshot(eventId, defaultDataSource()) : null,
    findLiveEventDataOfEvent(eventId),
    findInsightAnalysisOfEvent(eventId),
    findTopRecommendationsOfEvent(eventId),
    findLatestFeaturedPickOfEvent(eventId),
  ]);
  return renderDetailEvent(event, { region, liveSnapshot, liveEventData: liveEventData, insight, recommendations, pick }, locale, zone);
}

/** `123456` or `123456-arsenal-vs-chelsea` -> `123456`. */
export function eventIdOf(idOrSlug: string): string {
  const id = /^[0-9]+/.exec(idOrSlug)?.[0];
  if (id === undefined) throw new Error(`"${idOrSlug}" passed validation without an event id`);
  return id;
}

export async function liveOdds(eventId: string, dataSource: string, locale: Locale) {
  const [exists, snapshot] = await Promise.all([eventExists(eventId), findLiveOddsSnapshot(eventId, dataSource)]);
  if (!exists) throw notFound(`Event ${eventId} not found`);
  if (!snapshot) {
    const available = [...(await findLiveOddsDataSourcesOfEvent(eventId))].sort();
    throw notFound(`No live odds from dataSource "${dataSource}" for event ${eventId}` + (available.length ? `; available: ${available.join(', ')}` : '; the event has no live odds yet'));
  }
  return {
    data: {
      eventId,
      dataSource: snapshot.dataSource,
      capturedAt: snapshot.capturedAt.toISOString(),
      stale: snapshot.stale === true,
      liveMarkets: renderLiveMarkets(snapshot.liveMarkets, locale),
    },
  };
}
