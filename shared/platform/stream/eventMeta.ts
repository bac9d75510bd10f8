import type { EventMeta } from '../../domain/stream/messages';
import { localize } from '../../domain/sports';
import { findEventHeadsByIds } from '../db/repositories/eventForms';
import { processMemo } from '../processScope';

/**
 * The sport, competition and team names of the events a stream filters and names its messages by
 * (an event's never change): read from MongoDB once per event and kept in this process's scope
 * (another store, another scope), the oldest forgotten first. Every stream of the process asks for
 * the same events at once (one batch of the feed reaches them all), so one read per event is in
 * flight at a time, whoever asks. An event not stored yet is asked again: by a filter at once, for
 * names only after MISS_RETRY_MS (a change of an event no store holds must not cost every stream
 * a read).
 */

const MAX = 20000;
const MISS_RETRY_MS = 2000;
/** How long a stream waits for names before it sends its messages without them (a slow or unreachable MongoDB must not hold the stream). */
const NAMES_WAIT_MS = 250;

interface Kept {
  metas: Map<string, EventMeta>;
  /** When each id was last found not stored (wall ms). */
  missedAt: Map<string, number>;
  /** The read under way for each id. */
  reading: Map<string, Promise<void>>;
}

const kept = processMemo((): Kept => ({ metas: new Map(), missedAt: new Map(), reading: new Map() }));

function trim(map: Map<string, unknown>): void {
  while (map.size > MAX) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

async function read(k: Kept, ids: string[]): Promise<void> {
  let rows: Awaited<ReturnType<typeof findEventHeadsByIds>>;
  try {
    rows = await findEventHeadsByIds(ids);
  } catch (err) {
    const now = Date.now();
    for (const id of ids) k.missedAt.set(id, now);
    throw err;
  }
  for (const row of rows) {
    const id = String(row._id);
    k.metas.set(id, { sportId: row.sportId, competitionId: row.competitionId, homeTeam: localize(row.homeTeam.name, 'en'), awayTeam: localize(row.awayTeam.name, 'en') });
    k.missedAt.delete(id);
  }
  const now = Date.now();
  for (const id of ids) if (!k.metas.has(id)) k.missedAt.set(id, now);
  trim(k.metas);
  trim(k.missedAt);
}

/**
 * The meta of each of `eventIds` that is stored. `namesOnly`: asked to name messages, not to
 * filter them: an event found missing moments ago is not asked again yet, a failed read is no
 * error, and the answer comes within NAMES_WAIT_MS with what is known by then.
 */
export async function eventMetaOf(eventIds: Iterable<string>, opts: { namesOnly?: boolean } = {}): Promise<Map<string, EventMeta>> {
  const k = kept();
  const out = new Map<string, EventMeta>();
  const waits: Promise<void>[] = [];
  const ask: string[] = [];
  const now = Date.now();
  for (const id of new Set(eventIds)) {
    const m = k.metas.get(id);
    if (m) out.set(id, m);
    else if (opts.namesOnly && now - (k.missedAt.get(id) ?? -Infinity) < MISS_RETRY_MS) continue;
    else {
      const under = k.reading.get(id);
      if (under) waits.push(under);
      else ask.push(id);
    }
  }
  if (ask.length) {
    const reading = read(k, ask).finally(() => {
      for (const id of ask) if (k.reading.get(id) === reading) k.reading.delete(id);
    });
    for (const id of ask) k.reading.set(id, reading);
    waits.push(reading);
  }
  if (!waits.length) return out;
  if (opts.namesOnly) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, NAMES_WAIT_MS)));
    // A read that fails or comes late leaves the names out; one that comes late still fills what is kept.
    await Promise.race([Promise.all(waits).catch(() => undefined), late]);
    clearTimeout(timer);
  } else await Promise.all(waits);
  for (const id of new Set(eventIds)) {
    const m = k.metas.get(id);
    if (m) out.set(id, m);
  }
  return out;
}

/** The meta kept for an event, if any (what eventMetaOf last read). */
export const keptEventMeta = (eventId: string): EventMeta | undefined => kept().metas.get(eventId);
