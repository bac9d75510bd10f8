import { getConfig } from '../../platform/config';
import { hasEventsOfEarlierLayout, migrateEventsOfEarlierLayout, type MigrationOutcome } from '../../platform/db/repositories/eventMigration';
import { childLogger } from '../../platform/logger';
import { forgetIngestState, whileIngestPaused } from './state';

/**
 * Moves events stored in the layout before prices had documents of their own (a deployment
 * upgraded in place), while no poll of any provider runs: ingest writes the same documents.
 * The ingest worker runs it at start; a store already migrated costs one query. Returns what
 * moved, or null when nothing had to.
 */
export async function migrateStoredEvents(providers: readonly string[] = getConfig().PROVIDERS): Promise<MigrationOutcome | null> {
  if (!(await hasEventsOfEarlierLayout())) return null;
  const paused = (i: number): Promise<MigrationOutcome> => (i < providers.length ? whileIngestPaused(providers[i], () => paused(i + 1)) : migrateEventsOfEarlierLayout());
  const out = await paused(0);
  for (const p of providers) await forgetIngestState(p);
  childLogger({ component: 'ingest' }).warn(out, 'events of the earlier layout moved: prices, views and settlement markers in documents of their own');
  return out;
}
