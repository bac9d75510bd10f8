import type { EventMeta } from '../../domain/stream/messages';
import { findEventListFormsByIds } from '../../platform/db/repositories/eventForms';
import { processMemo } from '../../platform/processScope';

/**
 * The sport and competition of the events a stream filters by (an event's never change): read
 * from MongoDB once per event and kept in this process's scope (another store, another scope), the
 * oldest forgotten first. An event not stored yet is asked again next time.
 */

const MAX = 20000;
const kept = processMemo(() => new Map<string, EventMeta>());

/** The meta of each of `eventIds` that is stored. */
export async function eventMetaOf(eventIds: Iterable<string>): Promise<Map<string, EventMeta>> {
  const known = kept();
  const out = new Map<string, EventMeta>();
  const missing: string[] = [];
  for (const id of new Set(eventIds)) {
    const m = known.get(id);
    if (m) out.set(id, m);
    else missing.push(id);
  }
  if (!missing.length) return out;
  for (const row of await findEventListFormsByIds(missing, { live: false })) {
    const meta = { sportId: row.sportId, competitionId: row.competitionId };
    known.set(row._id, meta);
    out.set(row._id, meta);
  }
  while (known.size > MAX) {
    const oldest = known.keys().next();
    if (oldest.done) break;
    known.delete(oldest.value);
  }
  return out;
}
