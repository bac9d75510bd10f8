import { isFiniteNumber, isRecord } from '../records';
import { STAT_KEYS } from '../stats';
import type { LiveDataView, PricesView } from '../events/liveViews';
import type { StoredEvent, StoredMarket } from '../ingest/stored';

/**
 * An event's body in the listing: what the list, trending and live forms render, held beside its
 * listing row and written in the same step, so a page's membership and the bodies in it come from
 * one snapshot (a body is used only while its `v` is its row's). Pure: the fields a write sets,
 * and a stored body read back.
 *
 * Stored as a hash of top-level fields, each JSON, named by part: `e:` the event document, `p:`
 * its prices, `l:` its live data. A write's `$set` is merged field by field, which is what the
 * store does with it, so a body that was whole stays whole.
 */

/** The fields of each part a list, trending or live form reads (nothing else is held). */
export const BODY_FIELDS = {
  e: ['sportId', 'competitionId', 'regionId', 'homeTeam', 'awayTeam', 'competition', 'region', 'startDateTime', 'status', 'stats', 'dataSource'],
  p: ['dataSource', 'markets', 'previous', 'movedAt', 'oddsUpdatedAt'],
  l: [...STAT_KEYS, 'phaseSysname', 'isLive', 'isInPlay', 'elapsedSeconds', 'elapsedAt', 'clockRate'],
} as const;

export type BodyPart = keyof typeof BODY_FIELDS;

/** Stored as their instant's ISO text (JSON), read back as dates. */
const DATE_FIELDS = new Set(['e:startDateTime', 'p:movedAt', 'p:oddsUpdatedAt', 'l:elapsedAt']);

export type ListedEventFields = Pick<StoredEvent, (typeof BODY_FIELDS.e)[number]>;
export type BodyPrices = Omit<PricesView, 'markets'> & { markets: StoredMarket[]; oddsUpdatedAt: Date | null };

export interface ListingBody {
  event: ListedEventFields;
  /** Null: the event has no prices document. */
  prices: BodyPrices | null;
  /** Null: no live data document. */
  live: LiveDataView | null;
}

/** The body fields a write's `$set` of one part sets, as hash field and JSON pairs, flat. */
export function bodyFieldsOf(part: BodyPart, set: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const f of BODY_FIELDS[part]) {
    if (!(f in set) || set[f] === undefined) continue;
    out.push(`${part}:${f}`, JSON.stringify(set[f]));
  }
  return out;
}

const REQUIRED_NUMBERS = ['sportId', 'competitionId', 'regionId'] as const;
const REQUIRED_RECORDS = ['homeTeam', 'awayTeam', 'competition', 'region'] as const;

/**
 * A stored body (the hash's fields) as its version and parts; null when it holds no version or
 * not a whole event document (a hash left by a write that found no body to merge into).
 */
export function parseBody(hash: Readonly<Record<string, string>>): { v: number; body: ListingBody } | null {
  const v = Number(hash.v);
  if (hash.v === undefined || !Number.isFinite(v)) return null;
  const parts: Record<BodyPart, Record<string, unknown> | null> = { e: null, p: null, l: null };
  for (const [name, json] of Object.entries(hash)) {
    const sep = name.indexOf(':');
    const part = name.slice(0, sep);
    if (part !== 'e' && part !== 'p' && part !== 'l') continue;
    const raw: unknown = JSON.parse(json);
    (parts[part] ??= {})[name.slice(sep + 1)] = DATE_FIELDS.has(name) && typeof raw === 'string' ? new Date(raw) : raw;
  }
  const e = parts.e;
  if (!e || typeof e.status !== 'string' || typeof e.dataSource !== 'string' || !(e.startDateTime instanceof Date)) return null;
  if (!REQUIRED_NUMBERS.every((f) => isFiniteNumber(e[f])) || !REQUIRED_RECORDS.every((f) => isRecord(e[f]))) return null;
  const p = parts.p;
  const prices = p && typeof p.dataSource === 'string' && Array.isArray(p.markets) && p.movedAt instanceof Date ? p : null;
  // Checked above field by field: the nested names and markets are the ingest's own writes, as stored.
  return { v, body: { event: e as unknown as ListedEventFields, prices: prices as unknown as BodyPrices | null, live: parts.l } };
}

/** The body of an event read from the store (its document, prices and live data), as the fields a write would set. */
export function storedBodyFields(event: Readonly<Record<string, unknown>>, prices: Readonly<Record<string, unknown>> | null, live: Readonly<Record<string, unknown>> | null): string[] {
  return [...bodyFieldsOf('e', event), ...(prices ? bodyFieldsOf('p', prices) : []), ...(live ? bodyFieldsOf('l', live) : [])];
}

/** Flat hash fields (name, JSON, ...) with their version, as the stored hash reads back. */
export function bodyHash(v: number, fields: readonly string[]): Record<string, string> {
  const hash: Record<string, string> = { v: String(v) };
  for (let i = 0; i + 1 < fields.length; i += 2) hash[fields[i]] = fields[i + 1];
  return hash;
}

/** Whether a body's event is where its listing row puts it (status, sport, competition, region, start). */
export function bodyAgreesWithRow(event: ListedEventFields, row: { s: number; c: number; r: number; st: string; t: number }): boolean {
  return event.status === row.st && event.sportId === row.s && event.competitionId === row.c && event.regionId === row.r && event.startDateTime.getTime() === row.t;
}
