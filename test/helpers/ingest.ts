import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import { key, redis } from '../../shared/platform/db/redis';
import { forgetWrittenReferences } from '../../shared/app/ingest/apply';
import { deleteAllIngested } from '../../shared/platform/db/repositories/fixtures';

let slot = 1_000;

/** A fresh, increasing poll slot (polls of older slots are skipped by design). */
export function nextSlot(): number {
  return ++slot;
}

/** Empties what ingestion writes, and the per-process memo of written references. */
export async function clearIngested(): Promise<void> {
  await deleteAllIngested();
  forgetWrittenReferences();
  await bumpCacheVersion('events'); // pages and the listing of the data just removed
  for (const p of ['simulated', 'theoddsapi', 'replay']) await redis().del(key('ingest', 'slot', p), key('ingest', 'lock', p));
}
