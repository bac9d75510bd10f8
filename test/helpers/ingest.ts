import { key, redis } from '../../shared/db/redis';
import { forgetWrittenReferences } from '../../shared/ingest/apply';
import { Competition, Event, LiveEventData, LiveOddsSnapshot, OddsHistory, ProviderState, Region, Team } from '../../shared/db/models';

let slot = 1_000;

/** A fresh, increasing poll slot (polls of older slots are skipped by design). */
export function nextSlot(): number {
  return ++slot;
}

/** Empties what ingestion writes, and the per-process memo of written references. */
export async function clearIngested(): Promise<void> {
  await Promise.all([Event, LiveEventData, LiveOddsSnapshot, OddsHistory, Competition, Region, Team, ProviderState].map((m) => m.collection.deleteMany({})));
  forgetWrittenReferences();
  for (const p of ['simulated', 'theoddsapi', 'replay']) await redis().del(key('ingest', 'slot', p), key('ingest', 'lock', p));
}
