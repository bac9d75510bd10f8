import { bumpCacheVersion } from '../platform/cache/versions';
import { worldNow } from '../platform/clock/worldClock';
import { childLogger } from '../platform/logger';
import { commitmentStore } from '../platform/stores/commitments';
import { picksStore } from '../platform/stores/picks';
import { trackRecordStore } from '../platform/stores/trackRecord';
import { commitRecommendations, commitSettlements } from './commitments/commit';
import type { AppContext } from './context';
import { dispatch } from './intents';
import { settlementStore } from './settlement/store';
import { ingestStore } from './ingest/store';
import { analysisStore } from '../platform/stores/analysis';
import { creditsStore } from './billing/store';

/**
 * The process's context: the real stores, the queues, the world clock and pino (shared/app/context.ts).
 * A port that runs another use case (settlement commits to the chain) is bound to that use case in
 * this same context.
 */
export function productionContext(): AppContext {
  const ctx: AppContext = {
    clock: { now: () => new Date(), worldNow },
    log: childLogger,
    dispatch,
    cache: { bump: (...scopes) => bumpCacheVersion(...scopes) },
    settlement: { ...settlementStore(), commitSettlements: (recommendationEventIds, pickEventIds) => commitSettlements(ctx, recommendationEventIds, pickEventIds) },
    ingest: ingestStore(),
    analysis: { ...analysisStore(), commitRecommendations: (ids, event, written) => commitRecommendations(ctx, ids, event, written) },
    picks: picksStore(),
    credits: creditsStore(),
    commitments: commitmentStore(),
    trackRecord: trackRecordStore(),
  };
  return ctx;
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
