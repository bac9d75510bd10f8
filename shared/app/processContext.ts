import { worldNow } from '../platform/clock/worldClock';
import { childLogger } from '../platform/logger';
import type { AppContext } from './context';
import { dispatch } from './intents';
import { settlementStore } from './settlement/store';
import { ingestStore } from './ingest/store';
import { analysisStore } from './ai/store';
import { creditsStore } from './billing/store';

/** The process's context: the real stores, the queues, the world clock and pino (shared/app/context.ts). */
export function productionContext(): AppContext {
  return {
    clock: { now: () => new Date(), worldNow },
    log: childLogger,
    dispatch,
    settlement: settlementStore(),
    ingest: ingestStore(),
    analysis: analysisStore(),
    credits: creditsStore(),
  };
}

let current: AppContext | undefined;

/**
 * The one context of this process, made on first use. The runtimes (workers/runtime.ts, the web
 * app, the CLI) hand it to what they run; it holds no data of the stores (that is the process
 * scope's, shared/platform/processScope.ts), so it outlives a test file's stores unchanged.
 */
export function processContext(): AppContext {
  return (current ??= productionContext());
}
