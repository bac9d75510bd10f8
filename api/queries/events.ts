import { findInsightAnalysisOfEvent, findLatestFeaturedPickOfEvent, findTopRecommendationsOfEvent } from '../../shared/platform/db/repositories/ai';
import { eventExists, findLiveEventDataOfEvent } from '../../shared/platform/db/repositories/events';
import { findEventById, findLiveOddsDataSourcesOfEvent, findLiveOddsSnapshot, findProviderFreshness } from '../../shared/platform/db/repositories/eventForms';
import { findRegionCompetitionsByPriority } from '../../shared/platform/db/repositories/reference';
import { sportById, type Locale } from '../../shared/domain/sports';
import { renderDetailEvent } from '../render/detail';
import { renderListEvent, renderLiveEvent, renderLiveMarkets, renderTrendingEvent, type ListedEvent } from '../render/events';
import { notFound } from '../errors';
import { countView, viewCountsOf } from './views';
import { listingFilter, sportIdOf, todayFilter, uniqueSorted, type EventFilterInput } from './filters';
import { countListing, listingIds, listingPage, mostViewed, type Listing, type ListingFilter } from '../../shared/domain/listing/rows';
import type { ListingBody } from '../../shared/domain/listing/bodies';
import { liveStatsView } from '../../shared/domain/events/liveViews';
import { currentListing } from '../../shared/platform/listing/store';
import { listingBodies } from '../../shared/platform/listing/bodies';
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
 * A page of the listing with its events' bodies, all from one snapshot (shared/platform/listing/bodies.ts):
 * an event a write moved after the snapshot was taken is not rendered from it; a newer snapshot
 * places it (the write's listing step follows its store step within milliseconds). An event still
 * ahead after the last try (a row a failed poll left stale until the listing's rebuild) is left
 * out, and `count` with it: a list says what its filter says.
 */
const SNAPSHOT_TRIES = 3;

async function fromOneSnapshot(select: (listing: Listing) => Promise<{ ids: string[]; count: number }> | { ids: string[]; count: number }) {
  for (let attempt = 1; ; attempt++) {
    const listing = await currentListing();
    const { ids, count } = await select(listing);
    const { bodies, ahead } = await listingBodies(ids, listing);
    if (ahead.length === 0 || attempt >= SNAPSHOT_TRIES) {
      const items = ids.flatMap((id) => {
        const body = bodies.get(id);
        return body ? [{ id, body }] : [];
      });
      return { items, count: count - ahead.length };
    }
    await new Promise((r) => setTimeout(r, 10 * attempt));
  }
}

/** Each provider's freshness (the instant its live forms are served as of), read at most once a second per process. */
// In the process scope (shared/platform/processScope.ts): another database's providers never answer.
const freshnessRead = processMemo((): { at?: number; value?: Promise<Map<string, { capturedAt: Date | null }>> } => ({}));
function providerFreshness() {
  const memo = freshnessRead();
  const now = Date.now();
  if (!memo.value || memo.at === undefined || now - memo.at > 1000) {
    const value = findProviderFreshness();
    Object.assign(memo, { at: now, value });
    value.catch(() => Object.assign(memo, { value: undefined }));
    return value;
  }
  return memo.value;
}

type Item = { id: string; body: ListingBody };

/** The form the list renderers read, from a body: its prices' markets, its views and (`live`) its flat live stats. */
async function formsOf(items: readonly Item[], opts: { live: boolean; views?: ReadonlyMap<string, number> }): Promise<ListedEvent[]> {
  const [views, freshness] = await Promise.all([opts.views ?? viewCountsOf(items.map((i) => i.id)), opts.live && items.some((i) => i.body.event.status === 'live') ? providerFreshness() : undefined]);
  return items.map(({ id, body: { event, prices, live } }) => ({
    ...event,
    _id: id,
    markets: prices?.markets ?? [],
    views: views.get(id) ?? 0,
    liveStats: opts.live && event.status === 'live' ? liveStatsView(id, live, prices, freshness?.get(event.dataSource)?.capturedAt ?? null) : null,
  }));
}

/**
 * Reads the listing into this process before it takes requests (a web process at start): its
 * first list page then renders from memory and the bodies in Redis, like any other.
 */
export async function warmListing(): Promise<void> {
  await currentListing();
  // And renders a first page of each form once, discarded: the first request a process answers
  // then finds the render path compiled, the store's scripts loaded and the bodies in Redis
  // (measured: a fresh process's first miss took 46 to 323 ms, the next ones 20 to 60).
  await Promise.all([listMatches({ locale: 'en', status: ['upcoming'], limit: 100, page: 1 }), liveMatches({ locale: 'en', limit: 100, page: 1, prioritize: false })]).catch(() => undefined);
}

/** The page and `count` are chosen from one listing snapshot, and the page's events rendered from its bodies. */
export async function listMatches(q: MatchesQuery) {
  const { items, count } = await fromOneSnapshot((listing) => listingPage(listing, listingFilter(q), { sort: 'start', page: q.page, limit: q.limit }));
  return { data: (await formsOf(items, { live: false })).map((e) => renderListEvent(e, q.locale)), count };
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
  // The day's events from the listing, their view counts (the ranking and the counts shown agree), the top ones' bodies.
  let views = new Map<string, number>();
  const { items } = await fromOneSnapshot(async (listing) => {
    views = await viewCountsOf(listingIds(listing, filter));
    const top = mostViewed(listing, filter, views, TRENDING_SIZE);
    return { ids: top, count: top.length };
  });
  const docs = await formsOf(items, { live: false, views });
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
  const { items, count } = await fromOneSnapshot((listing) => listingPage(listing, filter, { sort: q.prioritize ? 'priority' : 'start', page: q.page, limit: q.limit }));
  return { data: (await formsOf(items, { live: true })).map((e) => renderLiveEvent(e, q.locale)), count };
}

/** The provider whose snapshot is served when none is asked for. */
/** The data source an event's live odds are read from when the query names none: the first of PROVIDERS. */
export const defaultDataSource = (providers: readonly string[]) => providers[0] ?? 'simulated';

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
export async function matchDetail(eventId: string, locale: Locale, zone: string, dataSource: string) {
  const event = await findEventById(eventId);
  if (!event) throw notFound(`Event ${eventId} not found`);
  event.views = await countView(eventId, event.views ?? 0);
  const [region, liveSnapshot, liveEventData, insight, recommendations, pick] = await Promise.all([
    regionFacts(event.regionId),
    event.status === 'live' ? findLiveOddsSnapshot(eventId, dataSource) : null,
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
