/**
 * An event's price table (its markets with every book's price, and the prices before the last
 * move) is stored packed: one JSON string per table (`marketsJson`, `previousJson`), not nested
 * documents. Nothing queries inside a table: it is read and written whole, by event id. FerretDB
 * 1.24 converts every nested value between BSON, Go and its JSONB form on each read and on each
 * update's read-modify-write, so a nested 20-market table cost 14 ms to read and 14 ms to update
 * there, the same table packed 2 to 3 ms (measured: docs/architecture.md). On MongoDB the
 * packed form is smaller too. Only the prices repository code packs and unpacks.
 */

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

/** A stored prices document with its tables unpacked (an absent table is empty). */
export function unpackPrices<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...row };
  for (const [name, stored] of Object.entries(PACKED)) {
    const packed = out[stored];
    delete out[stored];
    out[name] = typeof packed === 'string' ? JSON.parse(packed) : [];
  }
  return out as T;
}

/** A read projection in unpacked field names (`{ markets: 1 }`), as the stored fields are named. */
export function packedProjection(projection: Record<string, 0 | 1>): Record<string, 0 | 1> {
  return Object.fromEntries(Object.entries(projection).map(([k, v]) => [isUnpacked(k) ? PACKED[k] : k, v]));
}
