import { BODY_FIELDS } from '../../../domain/listing/bodies';
import { findWhereIn } from '../lookup';
import { Event, EventPrices, LiveEventData } from '../models';
import { packedProjection, unpackPrices } from './pricesPacking';

/**
 * The listing's bodies read from the store (shared/platform/listing/): an event's document, prices
 * and live data, each the fields a body holds, by id. Read only when the listing holds no body
 * of the row's version (after a rebuild, or for an event no write has carried since).
 */

type Doc = Record<string, unknown> & { _id: unknown };

const projection = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, 1 as const]));
const EVENT = projection(BODY_FIELDS.e);
const PRICES = packedProjection(projection(BODY_FIELDS.p));
const LIVE = projection(BODY_FIELDS.l);

export interface StoredBody {
  event: Doc;
  prices: Record<string, unknown> | null;
  live: Record<string, unknown> | null;
}

/** The stored parts of these events (an id not stored is absent); live data only of events past upcoming, the only ones that have any. */
export async function findListingBodiesByIds(ids: readonly string[]): Promise<Map<string, StoredBody>> {
  if (ids.length === 0) return new Map();
  const [events, prices] = await Promise.all([findWhereIn<Doc>(Event, '_id', ids, EVENT), findWhereIn<Doc>(EventPrices, '_id', ids, PRICES)]);
  const started = events.filter((e) => e.status !== 'upcoming').map((e) => String(e._id));
  const live = await findWhereIn<Doc>(LiveEventData, '_id', started, LIVE);
  const pricesById = new Map(prices.map((p) => [String(p._id), unpackPrices<Record<string, unknown>>(p)]));
  const liveById = new Map(live.map((l) => [String(l._id), l]));
  return new Map(events.map((e) => [String(e._id), { event: e, prices: pricesById.get(String(e._id)) ?? null, live: liveById.get(String(e._id)) ?? null }]));
}
