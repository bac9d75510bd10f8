import { loadConfig } from '../../shared/platform/config';
import { createProvider } from '../../shared/platform/providers/registry';
import { ArgError } from './args';

export interface WorldSize {
  density: number;
  rollingLive: number;
  rollingAhead: number;
  /** What the feed shows now at that size (the run reports what it really polled). */
  events: number;
  live: number;
}

const signal = new AbortController().signal;

/** Events the feed shows at this instant with these settings, through the workers' own provider code. */
async function feedSize(env: Record<string, string | undefined>, density: number, rollingLive: number, rollingAhead: number): Promise<WorldSize> {
  const cfg = loadConfig({ ...env, SIM_DENSITY: String(density), SIM_ROLLING_LIVE: String(rollingLive), SIM_ROLLING_AHEAD: String(rollingAhead) });
  const events = await createProvider('simulated', cfg).listEvents({ at: new Date(), signal });
  return { density, rollingLive, rollingAhead, events: events.length, live: events.filter((e) => e.status === 'live').length };
}

/** Smallest value of `lo..hi` whose size reaches `wanted` (sizes grow with it), or `hi`. */
async function smallestReaching(lo: number, hi: number, wanted: number, size: (v: number) => Promise<WorldSize>): Promise<WorldSize> {
  let best = await size(hi);
  if (best.events < wanted) return best;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const s = await size(mid);
    if (s.events >= wanted) {
      best = s;
      hi = mid;
    } else lo = mid + 1;
  }
  return best.events >= wanted ? best : size(lo);
}

/**
 * `--live N` becomes N rolling slots (about N events live at every instant); `--events N` then
 * picks how many matches each slot shows ahead, or without live slots the schedule's density.
 */
export async function sizeWorld(env: Record<string, string | undefined>, wantedEvents: number, wantedLive: number): Promise<WorldSize> {
  if (wantedLive > 0) {
    if (wantedEvents === 0) return feedSize(env, 1, wantedLive, 1);
    return smallestReaching(1, 36, wantedEvents, (ahead) => feedSize(env, 1, wantedLive, ahead));
  }
  if (wantedEvents === 0) {
    // The default world, as `npm start` runs it (its round-the-clock slots included).
    const cfg = loadConfig(env);
    return feedSize(env, cfg.SIM_DENSITY, cfg.SIM_ROLLING_LIVE, cfg.SIM_ROLLING_AHEAD);
  }
  const s = await smallestReaching(1, 100, wantedEvents, (density) => feedSize(env, density, 0, 1));
  if (s.events < wantedEvents) throw new ArgError(`--events ${wantedEvents}: the simulated schedule holds at most ${s.events} events at once; add --live N for more`);
  return s;
}
