import { liveStatsView, snapshotSources, snapshotView, type LiveDataView } from '../../../domain/events/liveViews';
import type { ClosingLine } from '../../../domain/ingest/closing';
import type { StoredMarket } from '../../../domain/ingest/stored';
import { findWhereIn } from '../lookup';
import { Event, EventPrices, LiveEventData, ProviderState } from '../models';
import type { EventDoc } from '../models/event';
import { findViewsOfEvents } from './eventViews';
import type { Lean } from '../models/define';
import type { EventPricesDoc } from '../models/eventPrices';
import { unpackPrices, type PriceTables } from './pricesPacking';

/**
 * The event as the read API and the AI worker read it: the event document joined with what is
 * stored apart from it (its prices, views and live data, the provider's freshness), in the shape
 * the event document had when it held them all (`markets`, `views`, `liveStats`). Every join is by
 * id, through lookups FerretDB can push down (shared/platform/db/lookup.ts).
 */

/** An event with its prices and views (and, when live, its flat live stats). */
export type EventForm<E = EventDoc> = E & {
  _id: string;
  markets: StoredMarket[];
  views: number;
  oddsUpdatedAt: Date | null;
  /** The contract's flat live stats (liveStatsView): on the live forms, null when not live or before its first live data. */
  liveStats?: LiveStats;
};

/** The flat live stats of a live event (shared/domain/events/liveViews.ts); null before its first live data. */
export type LiveStats = ReturnType<typeof liveStatsView>;

type PricesRow = Omit<Lean<EventPricesDoc>, 'marketsJson' | 'previousJson'> & PriceTables;
type LiveRow = LiveDataView & { _id: string };

/** Stored prices of these events, by event id. */
export async function findPricesOfEvents(ids: readonly string[]): Promise<Map<string, PricesRow>> {
  const rows = await findWhereIn<Lean<EventPricesDoc>>(EventPrices, '_id', ids);
  return new Map(rows.map((r) => [String(r._id), unpackPrices(r)]));
}

/** Stored prices of one event, or null. */
export async function findPricesOfEvent(eventId: string): Promise<PricesRow | null> {
  const row = await EventPrices.findById(eventId).lean<Lean<EventPricesDoc>>();
  return row ? unpackPrices(row) : null;
}

async function findLiveDataOfEvents(ids: readonly string[]): Promise<Map<string, LiveRow>> {
  const rows = await findWhereIn<LiveRow>(LiveEventData, '_id', ids);
  return new Map(rows.map((r) => [String(r._id), r]));
}

/** Each provider's freshness: the feed instant of its last complete poll, and whether it is stale. */
export async function findProviderFreshness(): Promise<Map<string, { capturedAt: Date | null; stale: boolean }>> {
  const rows = await ProviderState.find({}, { capturedAt: 1, stale: 1 }).lean<{ _id: string; capturedAt?: Date | null; stale?: boolean }[]>();
  return new Map(rows.map((r) => [String(r._id), { capturedAt: r.capturedAt ?? null, stale: r.stale === true }]));
}

type Base = { _id: string; status?: string; dataSource?: string };

/** Events joined with their prices and views, and (`live`) the live stats of the live ones; in the order given. */
async function formsOf<E extends Base>(events: readonly E[], opts: { live: boolean }): Promise<EventForm<E>[]> {
  if (events.length === 0) return [];
  const ids = events.map((e) => String(e._id));
  const liveIds = opts.live ? events.filter((e) => e.status === 'live').map((e) => String(e._id)) : [];
  const [prices, views, live, freshness] = await Promise.all([
    findPricesOfEvents(ids),
    findViewsOfEvents(ids),
    liveIds.length ? findLiveDataOfEvents(liveIds) : Promise.resolve(new Map<string, LiveRow>()),
    liveIds.length ? findProviderFreshness() : Promise.resolve(new Map<string, { capturedAt: Date | null; stale: boolean }>()),
  ]);
  return events.map((e) => {
    const id = String(e._id);
    const p = prices.get(id) ?? null;
    const form: EventForm<E> = { ...e, _id: id, markets: p?.markets ?? [], views: views.get(id) ?? 0, oddsUpdatedAt: p?.oddsUpdatedAt ?? null };
    if (opts.live) form.liveStats = e.status === 'live' ? liveStatsView(id, live.get(id) ?? null, p, freshness.get(e.dataSource ?? '')?.capturedAt ?? null) : null;
    return form;
  });
}

/** Fields a list page needs from the event document (nothing else is read). */
const EVENT_LIST_PROJECTION = {
  sportId: 1,
  competitionId: 1,
  regionId: 1,
  homeTeam: 1,
  awayTeam: 1,
  competition: 1,
  region: 1,
  startDateTime: 1,
  status: 1,
  stats: 1,
  dataSource: 1,
} as const;

export type EventListRow = EventForm<Pick<EventDoc, keyof typeof EVENT_LIST_PROJECTION> & { _id: string }>;

/** An event's sport, competition and teams: what a stream filters and names its messages by. */
export type EventHeadRow = Pick<EventDoc, 'sportId' | 'competitionId' | 'homeTeam' | 'awayTeam'> & { _id: string };

/** The heads of the stored events among `ids` (an id not stored is left out), nothing joined. */
export async function findEventHeadsByIds(ids: readonly string[]): Promise<EventHeadRow[]> {
  return findWhereIn<EventHeadRow>(Event, '_id', ids, { sportId: 1, competitionId: 1, homeTeam: 1, awayTeam: 1 });
}

/**
 * The events of `ids` with a list page's fields, in the order of `ids` (an id no longer stored is
 * left out); `live`: with the live list's flat live stats. Looked up by id: the listing
 * (shared/platform/listing/) chose the page.
 */
export async function findEventListFormsByIds(ids: readonly string[], opts: { live: boolean }): Promise<EventListRow[]> {
  const rows = await findWhereIn<Pick<EventDoc, keyof typeof EVENT_LIST_PROJECTION> & { _id: string }>(Event, '_id', ids, EVENT_LIST_PROJECTION);
  const byId = new Map(rows.map((r) => [String(r._id), r]));
  return formsOf(
    ids.map((id) => byId.get(id)).filter((r): r is NonNullable<typeof r> => Boolean(r)),
    opts,
  );
}

/** The whole event with its prices, views and (live) live stats; null when it does not exist. */
export async function findEventById(eventId: string) {
  const event = await Event.findById(eventId).lean<EventDoc & { _id: string }>();
  if (!event) return null;
  return (await formsOf([event], { live: true }))[0];
}

/** A whole stored event as `findEventById` returns it. */
export type EventLean = NonNullable<Awaited<ReturnType<typeof findEventById>>>;

/** An event's live odds are served once it was priced in play (EventPrices.liveFrom): until then there is no snapshot. */
async function liveOddsBasis(eventId: string) {
  const [event, prices] = await Promise.all([
    Event.findById(eventId, { status: 1, startedAt: 1, dataSource: 1 }).lean<{ _id: string; status: string; startedAt?: Date | null; dataSource?: string }>(),
    findPricesOfEvent(eventId),
  ]);
  if (!event || !prices?.liveFrom) return null;
  return { event, prices };
}

/**
 * The live-odds snapshot of an event from one dataSource (the provider's consensus under its own
 * name, or one book); null when there is none. A live event's snapshot is the provider's last
 * complete poll (stale when its last poll failed); an ended one keeps the prices it closed with.
 */
export async function findLiveOddsSnapshot(eventId: string, dataSource: string) {
  const basis = await liveOddsBasis(eventId);
  if (!basis) return null;
  const { event, prices } = basis;
  const fresh = event.status === 'live' ? (await findProviderFreshness()).get(prices.dataSource) : undefined;
  const view = snapshotView(prices, dataSource, fresh?.capturedAt ?? null, fresh?.stale ?? false);
  return view ? { ...view, eventId } : null;
}

/** The dataSources an event's live odds can be read from (none before it starts). */
export async function findLiveOddsDataSourcesOfEvent(eventId: string): Promise<string[]> {
  const basis = await liveOddsBasis(eventId);
  return basis ? snapshotSources(basis.prices) : [];
}

/** Markets, closing line and dataSource of at most `limit` events of a sport starting from `since` on. */
export async function findEventMarketsOfSportSince(sportId: number, since: Date, limit: number) {
  const events = await Event.find({ sportId, startDateTime: { $gte: since } }, { dataSource: 1, closingLine: 1 })
    .limit(limit)
    .lean<{ _id: string; dataSource: string; closingLine?: ClosingLine | null }[]>();
  const prices = await findPricesOfEvents(events.map((e) => String(e._id)));
  return events.map((e) => ({ ...e, markets: prices.get(String(e._id))?.markets ?? [] }));
}

/** How many markets each event's stored prices hold (events without prices are absent). */
export async function countMarketsOfEvents(ids: readonly string[]): Promise<Map<string, number>> {
  const prices = await findPricesOfEvents(ids);
  return new Map([...prices].map(([id, p]) => [id, p.markets.length]));
}

/** Upcoming events with stored prices: when their prices last changed. */
export async function findUpcomingEventsOddsUpdatedAt(): Promise<{ _id: string; oddsUpdatedAt: Date }[]> {
  const upcoming = await Event.find({ status: 'upcoming' }, { _id: 1 }).lean<{ _id: string }[]>();
  const prices = await findPricesOfEvents(upcoming.map((e) => String(e._id)));
  return [...prices.values()].flatMap((p) => (p.oddsUpdatedAt ? [{ _id: String(p._id), oddsUpdatedAt: p.oddsUpdatedAt }] : []));
}
