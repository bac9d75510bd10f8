import type { Logger } from 'pino';
import type { CacheScope } from '../domain/cacheScopes';
import type { Config } from '../platform/config';
import type { DispatchOptions, DispatchResult, Intent } from './intents';
import type { CorrectionStore, RollupStore, SettlementStore } from './settlement/ports';
import type { IngestStore } from './ingest/ports';
import type { AnalysisStore } from './ai/ports';
import type { PicksStore } from './ai/picksPorts';
import type { RefitStore } from './ai/refitPorts';
import type { AccountStore, CreditsStore, LedgerStore, Payments, RechargeStore, SessionStore, ThrottleStore } from './billing/ports';
import type { CommitmentStore } from './commitments/ports';
import type { StreamStore } from './stream/ports';
import type { TrackRecordStore } from './trackRecord/ports';
import type { WebhookStore } from './webhooks/ports';

/**
 * The context a use case runs in: the stores it reads and writes (each use case declares the port
 * it needs next to itself), the dispatcher of its intentions, the clock and the logger. The runtime
 * makes one per process (shared/app/processContext.ts: repositories, queues, the world clock, pino);
 * unit tests give one with in-memory fakes (test/unit/app/fakeContext.ts), as the model codebases do.
 * A use case never imports the database, the queues or the clock on its own.
 */
export interface AppContext {
  readonly clock: Clock;
  /** The process's settings (read once, validated: shared/platform/config.ts). */
  readonly config: Config;
  readonly log: (bindings: Record<string, unknown>) => Logger;
  /**
   * Carries out intentions (shared/app/intents.ts). Jobs return theirs and the worker runtime
   * dispatches them once the job's work is done (workers/registry.ts); a use case calls it itself
   * only where an intention must be queued before a later step of its own (a poll's follow-ups,
   * before its slot is recorded).
   */
  readonly dispatch: Dispatcher;
  /** The page cache's versions: a use case that changed what a page shows marks its scope changed. */
  readonly cache: CacheVersions;
  readonly settlement: SettlementStore;
  /** The performance rollups and the settled bets they are recomputed from. */
  readonly rollups: RollupStore;
  /** An operator's result correction. */
  readonly corrections: CorrectionStore;
  readonly ingest: IngestStore;
  readonly analysis: AnalysisStore;
  /** A day's featured picks. */
  readonly picks: PicksStore;
  /** A sport's model fit. */
  readonly refit: RefitStore;
  /** Metering's credits: the admission balance and its holds, the ledger's credits, the auto-recharge settings. */
  readonly credits: CreditsStore;
  /** Accounts, their keys, sign-ins, payment settings and usage. */
  readonly accounts: AccountStore;
  /** Auto-recharge attempts. */
  readonly recharges: RechargeStore;
  /** The credit ledger as its check reads it. */
  readonly ledger: LedgerStore;
  /** The payment gateway. */
  readonly payments: Payments;
  /** Login throttling's counters. */
  readonly throttle: ThrottleStore;
  readonly sessions: SessionStore;
  /** The commitments chain: its links, published heads, and the bets it commits. */
  readonly commitments: CommitmentStore;
  readonly trackRecord: TrackRecordStore;
  /** An open stream's change feed, connection slots and events' meta. */
  readonly stream: StreamStore;
  /** Webhook endpoints and deliveries, what their events are built from, and the network they are sent over. */
  readonly webhooks: WebhookStore;
}

export interface Clock {
  /** The real instant (written on documents, compared with the stores' dates). */
  now(): Date;
  /** The simulated world's instant (SIM_SPEED, SIM_EPOCH; the real one when neither is set). */
  worldNow(): Date;
  /** The real instant (ms) at which the world showed the simulated instant `worldMs`. */
  toRealTime(worldMs: number): number;
}

export interface CacheVersions {
  bump(...scopes: CacheScope[]): Promise<void>;
}

export type Dispatcher = (intents: readonly Intent[], opts?: DispatchOptions) => Promise<DispatchResult[]>;
