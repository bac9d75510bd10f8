import { bodyAgreesWithRow, bodyHash, parseBody, storedBodyFields, type ListingBody } from '../../domain/listing/bodies';
import { listingIndex, type Listing } from '../../domain/listing/rows';
import { findListingBodiesByIds } from '../db/repositories/listingBodies';
import { childLogger } from '../logger';
import { processMemo } from '../processScope';
import { keepBody, listingVersion, readBodies } from './store';

/**
 * The bodies of a page of the listing, as of the snapshot that chose the page: an event's body is
 * used only at its row's `v`, so what a page says of an event (its status above all) is what the
 * listing that put it on the page says. From this process's memory, else the listing in Redis
 * (the ingest writes a body in the same step as its row), else the store (a body no write has
 * carried since the listing was rebuilt), which is kept in Redis for the readers after.
 */

// In the process scope (shared/platform/processScope.ts): another database's bodies never answer.
const kept = processMemo(() => new Map<string, { v: number; body: ListingBody }>());
const KEPT_MAX = 50_000;

function remember(id: string, v: number, body: ListingBody): void {
  const bodies = kept();
  if (bodies.size >= KEPT_MAX) bodies.clear();
  bodies.set(id, { v, body });
}

export interface PageBodies {
  bodies: Map<string, ListingBody>;
  /**
   * Events whose body is newer than the snapshot, in a way that could move them out of the page's
   * filter: a write landed since (its store step first, its listing step right after). A newer
   * snapshot places them; they are not rendered from this one.
   */
  ahead: string[];
}

export async function listingBodies(ids: readonly string[], listing: Listing): Promise<PageBodies> {
  const rows = listingIndex(listing);
  const version = listingVersion(listing);
  const bodies = new Map<string, ListingBody>();
  const ahead: string[] = [];
  const toRead: string[] = [];
  for (const id of ids) {
    const k = kept().get(id);
    if (k && k.v === rows.get(id)?.v) bodies.set(id, k.body);
    else toRead.push(id);
  }
  const fromStore: string[] = [];
  const hashes = await readBodies(toRead);
  toRead.forEach((id, i) => {
    const v = rows.get(id)?.v;
    const parsed = parseBody(hashes[i]);
    if (parsed && v !== undefined && parsed.v === v) {
      bodies.set(id, parsed.body);
      remember(id, v, parsed.body);
    } else if (parsed && parsed.v > version) ahead.push(id);
    else fromStore.push(id);
  });
  if (fromStore.length === 0) return { bodies, ahead };
  const stored = await findListingBodiesByIds(fromStore);
  for (const id of fromStore) {
    const s = stored.get(id);
    const row = rows.get(id);
    // An event gone from the store since the snapshot is left out, as the store's own page would.
    if (!s || !row) continue;
    const fields = storedBodyFields(s.event, s.prices, s.live);
    const body = parseBody(bodyHash(row.v ?? 0, fields))?.body;
    if (!body) continue;
    if (!bodyAgreesWithRow(body.event, row)) {
      ahead.push(id);
      continue;
    }
    bodies.set(id, body);
    if (row.v === undefined) continue;
    remember(id, row.v, body);
    keepBody(id, row.v, fields).catch((err: unknown) =>
      childLogger({ component: 'listing' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'a body read from the store was not kept'),
    );
  }
  return { bodies, ahead };
}
