import { getConfig } from '../../shared/config';
import { Competition, Event, Insight, LiveEventData, LiveOddsSnapshot, Pick, Recommendation } from '../../shared/db/models';
import { sportById, sportByName, type Locale, type LocalizedText } from '../../shared/sports';
import type { StoredPick, StoredRecommendation } from '../render/ai';
import { renderDetailEvent } from '../render/detail';
import {
  LIST_PROJECTION,
  LIVE_PROJECTION,
  renderListEvent,
  renderLiveEvent,
  renderLiveMarkets,
  renderTrendingEvent,
  type StoredEvent,
  type StoredLiveMarket,
} from '../render/events';
import { notFound } from '../errors';
import { countView } from './views';
import { eventFilter, todayFilter, uniqueSorted, type EventFilterInput } from './filters';
import { recent } from '../../shared/cache/recent';

/** Reads behind the event endpoints; each returns the response body. */

export interface MatchesQuery extends EventFilterInput {
  locale: Locale;
  status: string[];
  limit: number;
  page: number;
}

const BY_START = { startDateTime: 1, _id: 1 } as const;

export async function listMatches(q: MatchesQuery) {
  const filter = eventFilter(q);
  const [docs, count] = await Promise.all([
    Event.find(filter, LIST_PROJECTION).sort(BY_START).skip((q.page - 1) * q.limit).limit(q.limit).lean<StoredEvent[]>(),
    Event.countDocuments(filter),
  ]);
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
  const filter: Record<string, unknown> = { status: { $in: uniqueSorted(q.status) }, startDateTime: today.range };
  if (q.sport) filter.sportId = sportByName(q.sport)!.id;
  const docs = await Event.find(filter, LIST_PROJECTION).sort({ views: -1, startDateTime: 1, _id: 1 }).limit(TRENDING_SIZE).lean<StoredEvent[]>();
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
  const filter: Record<string, unknown> = { status: 'live' };
  if (q.sport) filter.sportId = sportByName(q.sport)!.id;
  const sort = q.prioritize ? { priority: -1, startDateTime: 1, _id: 1 } as const : BY_START;
  const [docs, count] = await Promise.all([
    Event.find(filter, LIVE_PROJECTION).sort(sort).skip((q.page - 1) * q.limit).limit(q.limit).lean<StoredEvent[]>(),
    Event.countDocuments(filter),
  ]);
  return { data: docs.map((e) => renderLiveEvent(e, q.locale)), count };
}

/** The provider whose snapshot is served when none is asked for. */
export const defaultDataSource = () => getConfig().PROVIDERS[0] ?? 'simulated';

/**
 * Region facts of the detail view: its competitions, sports, and upcoming + live event count.
 * Kept 10 s per region when slow to count: on FerretDB the count reads every event document, 0.7 s
 * of each detail request at rest with 300 events (bench:hostile).
 */
const regionFacts = recent(10_000, async (regionId: number) => {
  const [competitions, events] = await Promise.all([
    Competition.find({ regionId }, { name: 1, sportId: 1, priority: 1 }).sort({ priority: -1, _id: 1 }).lean(),
    Event.countDocuments({ regionId, status: { $in: ['upcoming', 'live'] } }),
  ]);
  const sportIds = [...new Set(competitions.map((c) => c.sportId))].sort((a, b) => a - b);
  return {
    competitions: competitions.map((c) => ({ _id: c._id, name: c.name as LocalizedText })),
    events,
    availableSports: sportIds.map((id) => sportById(id)?.sysname).filter((s): s is NonNullable<typeof s> => Boolean(s)),
  };
});

/** The detail view; it counts one view (countView) and shows the count including it. */
export async function matchDetail(eventId: string, locale: Locale, zone: string) {
  const event = await Event.findById(eventId).lean<StoredEvent>();
  if (!event) throw notFound(`Event ${eventId} not found`);
  event.views = await countView(eventId, event.views ?? 0);
  const [region, liveSnapshot, liveEventData, insight, recommendations, pick] = await Promise.all([
    regionFacts(event.regionId),
    event.status === 'live' ? LiveOddsSnapshot.findById(`${eventId}|${defaultDataSource()}`).lean() : null,
    LiveEventData.findOne({ eventId }).lean(),
    Insight.findById(eventId, { analysisInsight: 1 }).lean(),
    Recommendation.find({ eventId }).sort({ edgePercentage: -1, _id: 1 }).limit(100).lean<StoredRecommendation[]>(),
    Pick.findOne({ eventIds: eventId }).sort({ featuredDate: -1, featuredOrder: 1 }).lean<StoredPick>(),
  ]);
  return renderDetailEvent(
    event,
    { region, liveSnapshot, liveEventData: liveEventData, insight, recommendations, pick },
    locale,
    zone,
  );
}

/** `123456` or `123456-arsenal-vs-chelsea` -> `123456`. */
export const eventIdOf = (idOrSlug: string) => /^[0-9]+/.exec(idOrSlug)![0];

export async function liveOdds(eventId: string, dataSource: string, locale: Locale) {
  const [exists, snapshot] = await Promise.all([
    Event.exists({ _id: eventId }),
    LiveOddsSnapshot.findById(`${eventId}|${dataSource}`).lean(),
  ]);
  if (!exists) throw notFound(`Event ${eventId} not found`);
  if (!snapshot) {
    const sources = await LiveOddsSnapshot.find({ eventId }, { dataSource: 1 }).lean();
    const available = sources.map((s) => s.dataSource).sort();
    throw notFound(
      `No live odds from dataSource "${dataSource}" for event ${eventId}` +
        (available.length ? `; available: ${available.join(', ')}` : '; the event has no live odds yet'),
    );
  }
  return {
    data: {
      eventId,
      dataSource: snapshot.dataSource,
      capturedAt: snapshot.capturedAt.toISOString(),
      stale: snapshot.stale === true,
      liveMarkets: renderLiveMarkets(snapshot.liveMarkets as StoredLiveMarket[], locale),
    },
  };
}
