import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import { key, redis } from '../../shared/platform/db/redis';
import { renewProcessScope } from '../../shared/platform/processScope';
import { deleteAllIngested } from '../../shared/platform/db/repositories/fixtures';

let slot = 1_000;

/** A fresh, increasing poll slot (polls of older slots are skipped by design). */
export function nextSlot(): number {
  return ++slot;
}

/** Empties what ingestion writes, and what this process remembers of it (its process scope). */
export async function clearIngested(): Promise<void> {
  await deleteAllIngested();
  renewProcessScope();
  await bumpCacheVersion('events'); // pages and the listing of the data just removed
  for (const p of ['simulated', 'theoddsapi', 'replay']) for (const k of [key('ingest', 'slot', p), key('ingest', 'lock', p)]) await redis().del(k);
}
