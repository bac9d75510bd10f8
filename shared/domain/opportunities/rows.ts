import type { ListingRow } from '../listing/rows';

/**
 * The current value opportunities, as a read model the AI worker keeps: per analysed event, when
 * it was analysed (`a`, world time in ms) and the ids of its latest pre-kickoff analysis's
 * recommendations. Pure: which write wins, and the opportunities of a snapshot.
 */
export interface OpportunityRow {
  a: number;
  ids: string[];
}

/** A later analysis replaces an earlier one; a slower job that analysed older prices does not (as the insight's own upsert). */
export function supersedes(next: OpportunityRow, current: OpportunityRow | undefined): boolean {
  return !current || next.a >= current.a;
}

export interface Ranked {
  _id: unknown;
  edgePercentage: number;
}

const id = (r: Ranked) => String(r._id);

/** An event whose analysis counts: upcoming in the listing, its start after `now`. */
export const stillToStart = (event: ListingRow | undefined, now: number): event is ListingRow => event !== undefined && event.st === 'upcoming' && event.t > now;

/**
 * The recommendations of every event still to start (upcoming in the listing, its start after
 * `now`), best edge first, then by id. Events the listing does not know, and recommendations not
 * (yet) read, are passed over.
 */
export function currentOpportunities<R extends Ranked>(rows: ReadonlyMap<string, OpportunityRow>, listing: ReadonlyMap<string, ListingRow>, now: number, recs: ReadonlyMap<string, R>): R[] {
  const out: R[] = [];
  for (const [eventId, row] of rows) {
    if (!stillToStart(listing.get(eventId), now)) continue;
    for (const recId of row.ids) {
      const rec = recs.get(recId);
      if (rec) out.push(rec);
    }
  }
  return out.sort((a, b) => b.edgePercentage - a.edgePercentage || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}
