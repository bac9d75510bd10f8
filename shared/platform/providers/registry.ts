import { getConfig, type Config } from '../config';
import { toWorldTime } from '../clock/worldClock';
import { childLogger } from '../logger';
import { upsertProviderStateFields } from '../db/repositories/providers';
import { DEFAULT_BREAKER, ProviderBreaker, type BreakerState } from './breaker';
import { ReplayProvider } from './replay';
import { configuredReplayMatches } from './replay/configured';
import { SimulatedProvider } from './simulated';
import { loadScenario } from './simulated/scenario';
import { TheOddsApiProvider } from './theoddsapi';
import type { OddsProvider } from '../../domain/providers/types';

/** A provider with the circuit breaker every one of its calls goes through. */
export interface ProviderHandle {
  provider: OddsProvider;
  breaker: ProviderBreaker;
  /** Resolves once every breaker transition heard so far is written: a poll's own state write waits for it, so it lands last. */
  breakerStateWritten?: () => Promise<void>;
}

/** Builds a provider by its PROVIDERS name. A bad scenario file throws here, naming the field. */
export function createProvider(name: string, cfg: Config = getConfig()): OddsProvider {
  switch (name) {
    case 'simulated':
      return new SimulatedProvider({
        seed: cfg.SIM_SEED,
        clock: toWorldTime,
        scenario: cfg.SIM_SCENARIO ? loadScenario(cfg.SIM_SCENARIO) : undefined,
        density: cfg.SIM_DENSITY,
        rollingLive: cfg.SIM_ROLLING_LIVE,
        rollingAhead: cfg.SIM_ROLLING_AHEAD,
      });
    case 'theoddsapi':
      return new TheOddsApiProvider({
        baseUrl: cfg.THEODDSAPI_URL,
        apiKey: cfg.THEODDSAPI_KEY,
        sports: cfg.THEODDSAPI_SPORTS,
        regions: cfg.THEODDSAPI_REGIONS,
        quotaReserve: cfg.THEODDSAPI_QUOTA_RESERVE,
        log: childLogger({ provider: 'theoddsapi' }),
      });
    case 'replay':
      return new ReplayProvider({ matches: configuredReplayMatches(cfg), clock: toWorldTime });
    default:
      throw new Error(`unknown provider "${name}" (PROVIDERS accepts simulated, theoddsapi, replay)`);
  }
}

/** Records a breaker transition where /v2/health reads it (best effort: the poll writes it too). */
export async function recordBreakerState(name: string, state: BreakerState): Promise<void> {
  childLogger({ provider: name }).warn({ breaker: state }, 'provider breaker state changed');
  await upsertProviderStateFields(name, { breaker: state }).catch(() => undefined);
}

export function createHandle(name: string, provider: OddsProvider = createProvider(name), cfg: Config = getConfig()): ProviderHandle {
  // Transitions are written one after the other, in the order heard: two writes in flight at once
  // could land in either order (a 'halfOpen' after the 'closed' that followed it, seen on a busy host).
  let written: Promise<void> = Promise.resolve();
  const breaker = new ProviderBreaker(
    name,
    { ...DEFAULT_BREAKER, timeoutMs: cfg.PROVIDER_TIMEOUT_MS, resetTimeoutMs: cfg.PROVIDER_BREAKER_RESET_MS, volumeThreshold: cfg.PROVIDER_BREAKER_VOLUME },
    (state) => void (written = written.then(() => recordBreakerState(name, state))),
  );
  return { provider, breaker, breakerStateWritten: () => written };
}

const handles = new Map<string, ProviderHandle>();

/** The process's handle for a provider: one breaker per provider per process. */
export function providerHandle(name: string): ProviderHandle {
  let h = handles.get(name);
  if (!h) {
    h = createHandle(name);
    handles.set(name, h);
  }
  return h;
}

export function closeProviders(): void {
  for (const h of handles.values()) h.breaker.shutdown();
  handles.clear();
}
