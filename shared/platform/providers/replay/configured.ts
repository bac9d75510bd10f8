import type { Config } from '../../config';
import { childLogger } from '../../logger';
import { ReplayProvider } from './index';
import { loadReplaySeasons, type ReplayMatch } from './season';

/**
 * The matches of REPLAY_DATA / REPLAY_SEASONS, read once per process: the ingest worker's
 * provider and every process's clock (which starts a few hours before the first of them) agree.
 */
const loaded = new Map<string, ReplayMatch[]>();

export function configuredReplayMatches(cfg: Pick<Config, 'REPLAY_DATA' | 'REPLAY_SEASONS'>): ReplayMatch[] {
  const k = `${cfg.REPLAY_DATA}|${cfg.REPLAY_SEASONS.join(',')}`;
  let matches = loaded.get(k);
  if (!matches) {
    const log = childLogger({ provider: 'replay' });
    matches = loadReplaySeasons(cfg.REPLAY_DATA, cfg.REPLAY_SEASONS, log);
    if (matches.length === 0) log.warn({ dir: cfg.REPLAY_DATA, seasons: cfg.REPLAY_SEASONS }, 'replay: no playable match in the selected seasons');
    loaded.set(k, matches);
  }
  return matches;
}

/** The simulated instant the clock starts at when PROVIDERS includes replay (and SIM_EPOCH is unset); null otherwise. */
export function replayEpoch(cfg: Pick<Config, 'PROVIDERS' | 'REPLAY_DATA' | 'REPLAY_SEASONS'>): string | null {
  if (!cfg.PROVIDERS.includes('replay')) return null;
  return ReplayProvider.epochOf(configuredReplayMatches(cfg))?.toISOString() ?? null;
}
