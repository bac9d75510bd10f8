/**
 * The listing: one compact row per event (what the lists filter and sort on), so a list page and
 * its `count` are chosen in memory from one snapshot, and only the page's events are read from the
 * store. Pure: rows from the fields an event write sets, and the page of a filter.
 */

/**
 * sport, competition, region, status, start (ms), competition priority, `m`: how many markets its
 * stored prices hold (unknown until a prices write after a rebuild), and `v`: the `events`
 * version of the last write of anything the event serves (its document, prices or live data), so
 * a web process can keep a rendered event until it changes.
 */
export interface ListingRow {
  s: number;
  c: number;
  r: number;
  st: string;
  t: number;
  p: number;
  m?: number;
  v?: number;
}

/** The event's numeric listing fields (a date as its instant), by the row key each fills. */
const NUMBER_FIELDS = [
  ['sportId', 's'],
  ['competitionId', 'c'],
  ['regionId', 'r'],
  ['startDateTime', 't'],
] as const satisfies readonly (readonly [string, keyof ListingRow])[];

/** The listing fields an event write sets (all of them on an insert), or null when it sets none. */
export function listingFieldsOf(set: Readonly<Record<string, unknown>>): Partial<ListingRow> | null {
  const out: Partial<ListingRow> = {};
  for (const [field, k] of NUMBER_FIELDS) {
    const v = set[field];
    const n = v instanceof Date ? v.getTime() : v;
    if (typeof n === 'number') out[k] = n;
  }
  if (typeof set.status === 'string') out.st = set.status;
  if ('priority' in set) out.p = Number(set.priority ?? 0);
  return Object.keys(out).length > 0 ? out : null;
}

/** The listing field a prices write sets: its market count, when it writes the markets. */
export function marketCountOf(set: Record<string, unknown>): Partial<ListingRow> {
  return Array.isArray(set.markets) ? { m: set.markets.length } : {};
}

/** A stored event's row (the rebuild from the store). */
export function listingRowOf(e: { sportId: number; competitionId: number; regionId: number; status: string; startDateTime: Date; priority?: number | null }): ListingRow {
  return { s: e.sportId, c: e.competitionId, r: e.regionId, st: e.status, t: e.startDateTime.getTime(), p: e.priority ?? 0 };
}

export interface ListingFilter {
  status?: readonly string[];
  sportId?: number;
  competitionId?: number;
  regionId?: number;
  /** Start instants, half-open [gte, lt). */
  startGte?: number;
  startLt?: number;
}

export type ListingSort = 'start' | 'priority';

/** Events in a snapshot, as sorted lists of (id, row). */
export type Listing = readonly (readonly [string, ListingRow])[];

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const BY_START = (a: readonly [string, ListingRow], b: readonly [string, ListingRow]) => a[1].t - b[1].t || byId(a[0], b[0]);
const BY_PRIORITY = (a: readonly [string, ListingRow], b: readonly [string, ListingRow]) => b[1].p - a[1].p || BY_START(a, b);

/** The snapshot's rows soonest first (then by id), as the store's sort would give them. */
export function sortedListing(rows: Iterable<readonly [string, ListingRow]>): Listing {
  return [...rows].sort(BY_START);
}

function matches(row: ListingRow, f: ListingFilter, statuses: ReadonlySet<string> | null): boolean {
  if (statuses && !statuses.has(row.st)) return false;
  if (f.sportId !== undefined && row.s !== f.sportId) return false;
  if (f.competitionId !== undefined && row.c !== f.competitionId) return false;
  if (f.regionId !== undefined && row.r !== f.regionId) return false;
  if (f.startGte !== undefined && row.t < f.startGte) return false;
  if (f.startLt !== undefined && row.t >= f.startLt) return false;
  return true;
}

/** One page of the events matching the filter, and how many match in all: both from the same snapshot. */
export function listingPage(listing: Listing, filter: ListingFilter, opts: { sort: ListingSort; page: number; limit: number }): { ids: string[]; count: number } {
  const statuses = filter.status?.length ? new Set(filter.status) : null;
  let hits = listing.filter(([, row]) => matches(row, filter, statuses));
  if (opts.sort === 'priority') hits = [...hits].sort(BY_PRIORITY);
  const from = (opts.page - 1) * opts.limit;
  return { ids: hits.slice(from, from + opts.limit).map(([id]) => id), count: hits.length };
}

const indexes = new WeakMap<Listing, Map<string, ListingRow>>();

/** The snapshot's rows by id (built once per snapshot). */
export function listingIndex(listing: Listing): ReadonlyMap<string, ListingRow> {
  let index = indexes.get(listing);
  if (!index) indexes.set(listing, (index = new Map(listing)));
  return index;
}

export type CountedField = 's' | 'c' | 'r';

/** Events matching the filter per sport, competition or region id: `count` of /v2/competitions and /v2/regions. */
export function countListing(listing: Listing, filter: ListingFilter, by: CountedField): Map<number, number> {
  const statuses = filter.status?.length ? new Set(filter.status) : null;
  const out = new Map<number, number>();
  for (const [, row] of listing) if (matches(row, filter, statuses)) out.set(row[by], (out.get(row[by]) ?? 0) + 1);
  return out;
}

const OPEN = new Set(['upcoming', 'live']);

/**
 * The counts of /v2/stats from one snapshot: events per status, per sport and status, and the
 * markets of open events; `unknownMarkets` names the open events whose market count the rows do
 * not hold (the caller reads those from the store).
 */
export function listingStats(listing: Listing): { byStatus: Map<string, number>; bySportStatus: Map<number, Map<string, number>>; openMarkets: number; unknownMarkets: [string, ListingRow][] } {
  const byStatus = new Map<string, number>();
  const bySportStatus = new Map<number, Map<string, number>>();
  let openMarkets = 0;
  const unknownMarkets: [string, ListingRow][] = [];
  for (const [id, row] of listing) {
    byStatus.set(row.st, (byStatus.get(row.st) ?? 0) + 1);
    const sport = bySportStatus.get(row.s) ?? new Map<string, number>();
    sport.set(row.st, (sport.get(row.st) ?? 0) + 1);
    bySportStatus.set(row.s, sport);
    if (!OPEN.has(row.st)) continue;
    if (row.m === undefined) unknownMarkets.push([id, row]);
    else openMarkets += row.m;
  }
  return { byStatus, bySportStatus, openMarkets, unknownMarkets };
}

/** The events of the filter most viewed first, then soonest, then by id: the trending list. */
export function mostViewed(listing: Listing, filter: ListingFilter, views: ReadonlyMap<string, number>, limit: number): string[] {
  const statuses = filter.status?.length ? new Set(filter.status) : null;
  return listing
    .filter(([, row]) => matches(row, filter, statuses))
    .map(([id, row]) => ({ id, t: row.t, n: views.get(id) ?? 0 }))
    .sort((a, b) => b.n - a.n || a.t - b.t || byId(a.id, b.id))
    .slice(0, limit)
    .map((e) => e.id);
}

/** The ids of the events matching the filter, soonest first. */
export function listingIds(listing: Listing, filter: ListingFilter): string[] {
  const statuses = filter.status?.length ? new Set(filter.status) : null;
  return listing.filter(([, row]) => matches(row, filter, statuses)).map(([id]) => id);
}
