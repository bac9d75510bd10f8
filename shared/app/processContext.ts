import { platformRuntime } from '../platform/runtime';
import { analysisStore } from '../platform/stores/analysis';
import { accountStore, creditsStore, ledgerStore, payments, rechargeStore, sessionStore, throttleStore } from '../platform/stores/billing';
import { commitmentStore } from '../platform/stores/commitments';
import { picksStore } from '../platform/stores/picks';
import { refitStore } from '../platform/stores/refit';
import { correctionStore, rollupStore, settlementStore } from '../platform/stores/settlement';
import { streamStore } from '../platform/stores/stream';
import { trackRecordStore } from '../platform/stores/trackRecord';
import { webhookStore } from '../platform/stores/webhooks';
import { commitRecommendations, commitSettlements } from './commitments/commit';
import type { AppContext } from './context';
import { ingestStore } from '../platform/stores/ingest';
import { dispatch } from './intents';
import { recordFirstSettlements } from './metrics/record';
import { refreshRollupDays, RollupRefresher } from './settlement/rollups';

/**
 * The process's context: the real stores, the queues, the world clock and pino (shared/app/context.ts).
 * The ports are bound to shared/platform/stores/; a port that runs another use case (settlement
 * refreshes the rollups and commits to the chain) is bound to that use case in this same context.
 */
export function productionContext(): AppContext {
  // One per context: refreshes of the rollups coalesce across the jobs it runs.
  const rollups = new RollupRefresher((days) => refreshRollupDays(ctx, days));
  const ctx: AppContext = {
    clock: platformRuntime.clock,
    // Read on use, not copied (shared/platform/runtime.ts).
    get config() {
      return platformRuntime.config;
    },
    log: platformRuntime.log,
    dispatch,
    cache: platformRuntime.cache,
    settlement: {
      ...settlementStore(),
      refreshRollups: (days) => rollups.request(days),
      commitSettlements: (recommendationEventIds, pickEventIds) => commitSettlements(ctx, recommendationEventIds, pickEventIds),
      recordFirstSettlements,
    },
    rollups: rollupStore(),
    corrections: correctionStore(),
    ingest: ingestStore(),
    analysis: { ...analysisStore(), commitRecommendations: (ids, event, written) => commitRecommendations(ctx, ids, event, written) },
    picks: picksStore(),
    refit: refitStore(),
    credits: creditsStore(),
    accounts: accountStore(),
    recharges: rechargeStore(),
    ledger: ledgerStore(),
    payments: payments(),
    throttle: throttleStore(),
    sessions: sessionStore(),
    commitments: commitmentStore(),
    trackRecord: trackRecordStore(),
    stream: streamStore(),
    webhooks: webhookStore(),
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
