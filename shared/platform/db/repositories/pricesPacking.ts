/**
 * An event's price table (its markets with every book's price, and the prices before the last
 * move) is stored packed: one JSON string per table (`marketsJson`, `previousJson`), not nested
 * documents. Nothing queries inside a table: it is read and written whole, by event id. FerretDB
 * 1.24 converts every nested value between BSON, Go and its JSONB form on each read and on each
 * update's read-modify-write, so a nested 20-market table cost 14 ms to read and 14 ms to update
 * there, the same table packed 2 to 3 ms (measured: docs/architecture.md). On MongoDB the
 * packed form is smaller too. Only the prices repository code packs and unpacks.
 */
import type { PreviousPrices } from '../../../domain/events/liveViews';
import type { StoredBetItem, StoredMarket } from '../../../domain/ingest/stored';
import { isRecord } from '../../../domain/records';

/** A prices document's tables, unpacked. */
export interface PriceTables {
  markets: StoredMarket[];
  /** Written by a move with every price known; a fixture from a served snapshot may not know one (null). */
  previous: PreviousPrices[];
}

/** The unpacked fields and the stored field each is packed into. */
const PACKED = { markets: 'marketsJson', previous: 'previousJson' } as const;
type Unpacked = keyof typeof PACKED;
const isUnpacked = (k: string): k is Unpacked => Object.hasOwn(PACKED, k);

/** A prices document's fields (a whole document, or an update's `$set` of top-level fields) with its tables packed. */
export function packPrices<T extends Record<string, unknown>>(fields: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (k.startsWith('markets.') || k.startsWith('previous.')) throw new Error(`packPrices: ${k} sets part of a packed table; set the whole table`);
    if (isUnpacked(k)) out[PACKED[k]] = JSON.stringify(v ?? []);
    else out[k] = v;
  }
  return out;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isNumberOrNull = (v: unknown): v is number | null => v === null || isNumber(v);

/** Book -> price, every price checked (`isPrice`); null when one is not. */
function priceMap<P>(v: unknown, isPrice: (x: unknown) => x is P): Record<string, P> | null {
  if (!isRecord(v)) return null;
  const out: Record<string, P> = {};
  for (const [book, price] of Object.entries(v)) {
    if (!isPrice(price)) return null;
    out[book] = price;
  }
  return out;
}

/**
 * A stored bet item, read back: its id, code and price must be there; what a seeded or older
 * document may leave out reads as the readers take it (available unless it says not; no book
 * prices). Null for a row of another shape.
 */
function betItemOf(v: unknown): StoredBetItem | null {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.code !== 'string' || !isNumber(v.price)) return null;
  const { bookPrices, isAvailable } = v;
  if (isAvailable !== undefined && typeof isAvailable !== 'boolean') return null;
  const item: StoredBetItem = { id: v.id, code: v.code, price: v.price, isAvailable: isAvailable !== false };
  if (bookPrices === undefined || bookPrices === null) return item;
  const books = priceMap(bookPrices, isNumber);
  return books && { ...item, bookPrices: books };
}

/** A stored market, read back (a line left out reads as none); null for a row of another shape. */
function marketOf(v: unknown): StoredMarket | null {
  if (!isRecord(v) || typeof v.id !== 'string' || typeof v.betTypeSysname !== 'string' || !(v.line === undefined || isNumberOrNull(v.line)) || !Array.isArray(v.betItems)) return null;
  const rows: unknown[] = v.betItems;
  const betItems = rows.map(betItemOf);
  return betItems.every((i) => i !== null) ? { id: v.id, betTypeSysname: v.betTypeSysname, line: v.line ?? null, betItems } : null;
}

/** A bet item's prices before a move, read back (a price a served snapshot did not know is null); null for a row of another shape. */
function previousOf(v: unknown): PreviousPrices | null {
  if (!isRecord(v) || typeof v.id !== 'string') return null;
  const { price, bookPrices } = v;
  if (price !== undefined && price !== null && !isNumber(price)) return null;
  const books = bookPrices === undefined ? undefined : priceMap(bookPrices, isNumberOrNull);
  if (books === null) return null;
  return { id: v.id, ...(price === undefined ? {} : { price }), ...(books ? { bookPrices: books } : {}) };
}

/** One packed table, read back row by row: a row of another shape is a corrupt document, not a price. */
function table<T>(packed: unknown, rowOf: (v: unknown) => T | null, what: string): T[] {
  if (typeof packed !== 'string') return [];
  const rows: unknown = JSON.parse(packed);
  const out = Array.isArray(rows) ? rows.map(rowOf) : [null];
  if (!out.every((r) => r !== null)) throw new Error(`a stored prices document holds a ${what} table of another shape`);
  return out;
}

/** A stored prices document (all its fields, or those a read projected) with its tables unpacked (an absent table is empty). */
export function unpackPrices<R extends Record<string, unknown>>(row: R): Omit<R, 'marketsJson' | 'previousJson'> & PriceTables {
  const { marketsJson, previousJson, ...rest } = row;
  return { ...rest, markets: table(marketsJson, marketOf, 'markets'), previous: table(previousJson, previousOf, 'previous') };
}

/** A read projection in unpacked field names (`{ markets: 1 }`), as the stored fields are named. */
export function packedProjection(projection: Record<string, 0 | 1>): Record<string, 0 | 1> {
  return Object.fromEntries(Object.entries(projection).map(([k, v]) => [isUnpacked(k) ? PACKED[k] : k, v]));
}
