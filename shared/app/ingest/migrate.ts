import type { AppContext } from '../context';
import type { MigrationOutcome } from './ports';

/**
 * Moves events stored in the layout before prices had documents of their own (a deployment
 * upgraded in place), while no poll of any provider runs: ingest writes the same documents.
 * The ingest worker runs it at start; a store already migrated costs one query. Returns what
 * moved, or null when nothing had to.
 */
export async function migrateStoredEvents(ctx: AppContext, providers: readonly string[] = ctx.config.PROVIDERS): Promise<MigrationOutcome | null> {
  const store = ctx.ingest;
  if (!(await store.hasEventsOfEarlierLayout())) return null;
  const paused = (i: number): Promise<MigrationOutcome> => (i < providers.length ? store.whilePaused(providers[i], () => paused(i + 1)) : store.migrateEventsOfEarlierLayout());
  const out = await paused(0);
  // Every ingest worker reads the moved events back from the store on its next poll.
  for (const p of providers) await store.invalidateState(p);
  ctx.log({ component: 'ingest' }).warn(out, 'events of the earlier layout moved: prices, views and settlement markers in documents of their own');
  return out;
}
