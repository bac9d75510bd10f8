import type { Logger } from 'pino';
import { utcDay } from '../../domain/days';
import { isRecord } from '../../domain/records';
import type { AppContext } from '../context';
import type { Intent } from '../intents';
import { BreakerOpenError, guardedCall, type BreakerState } from '../../platform/providers/breaker';
import type { ProviderHandle } from '../../platform/providers/registry';
import { QuotaExhaustedError, type FeedEvent } from '../../domain/providers/types';
import type { ApplyCounts } from './ports';
import { planIngest, type IngestPlan } from '../../domain/ingest/plan';

export interface PollOptions {
  /** The scheduler's slot (time / intervalMs): polls of older slots are skipped. */
  slot: number;
  /** The interval the slot counts in (default POLL_INTERVAL_MS): a slot of another interval is not comparable. */
  intervalMs?: number;
  /** The instant the poll is for (normally the slot's start). */
  at: Date;
  /** Delay of each settlement job (default SETTLEMENT_DELAY_MS / random 2-5 min). */
  settlementDelayMs?: () => number;
  retryDelayMs?: number;
}

/** Epoch ms between which this poll held the provider's lock (absent when it never held it). */
export interface HeldInterval {
  heldFrom?: number;
  heldUntil?: number;
}

export type PollOutcome = HeldInterval &
  (
    | { status: 'skipped'; provider: string; reason: 'locked' | 'stale-slot' }
    | { status: 'failed'; provider: string; reason: 'breaker-open' | 'quota' | 'error'; error: string; breaker: BreakerState }
    | {
        status: 'ok';
        provider: string;
        partial: boolean;
        events: number;
        live: number;
        written: ApplyCounts;
        settle: number;
        analyze: number;
        /** Events whose stored state this poll read from the store (0 when ingestion's memory of it held). */
        readFromStore: number;
        changes: number;
        ms: { fetch: number; read: number; plan: number; write: number; total: number; writes: Record<string, number> };
      }
  );

interface SlotState {
  slot: number;
  intervalMs: number;
}

const slotState = (ctx: AppContext, opts: PollOptions): SlotState => ({ slot: opts.slot, intervalMs: opts.intervalMs ?? ctx.config.POLL_INTERVAL_MS });

/**
 * The last slot polled, if it can be compared with this one. A state written under another
 * POLL_INTERVAL_MS, in an older format, or ahead of the real clock (`nowMs`) is from an earlier
 * configuration: discarded with a log line, never a reason to skip polls.
 */
function lastSlot(ctx: AppContext, provider: string, raw: string | null, current: SlotState, nowMs: number): number | null {
  if (raw === null) return null;
  const discard = (why: string) => {
    ctx.log({ provider }).warn({ stored: raw, intervalMs: current.intervalMs }, `poll slot state of an earlier configuration discarded: ${why}`);
    return null;
  };
  let state: unknown;
  try {
    state = JSON.parse(raw);
  } catch {
    return discard('unreadable');
  }
  if (!isRecord(state)) return discard('older format');
  const { slot, intervalMs } = state;
  if (typeof slot !== 'number' || !Number.isFinite(slot) || typeof intervalMs !== 'number' || !Number.isFinite(intervalMs)) return discard('older format');
  if (intervalMs !== current.intervalMs) return discard(`POLL_INTERVAL_MS was ${intervalMs}`);
  if (slot * intervalMs > nowMs + current.intervalMs) return discard('its slot is ahead of the clock');
  return slot;
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function recordFailure(ctx: AppContext, handle: ProviderHandle, err: unknown): Promise<PollOutcome> {
  const name = handle.provider.name;
  const reason = err instanceof BreakerOpenError ? 'breaker-open' : err instanceof QuotaExhaustedError ? 'quota' : 'error';
  const state = handle.breaker.state;
  ctx.log({ provider: name }).warn({ reason, breaker: state, err: describeError(err) }, 'provider poll failed: serving the last snapshots as stale');
  // The provider's last stored prices stay served, marked stale (its state's flag): the fallback of a failed poll.
  await handle.breakerStateWritten?.();
  await ctx.ingest.updateProviderState(name, { lastError: describeError(err), breaker: handle.breaker.state, stale: true, ...quotaOf(handle) });
  return { status: 'failed', provider: name, reason, error: describeError(err), breaker: state };
}

/** The request quota a provider reports (one with a quota: theoddsapi), stored with its state. */
function quotaOf(handle: ProviderHandle): { quota?: unknown } {
  const { provider } = handle;
  const q = 'quota' in provider ? provider.quota : undefined;
  return q ? { quota: q } : {};
}

/**
 * The jobs a poll's plan asks for (pure): its settlements (each with its own delay, in one round
 * trip), analyses of the events whose AI inputs changed, soonest kickoff first (the queue is first
 * in, first out, and an analysis after kickoff is lost), and a picks rebuild for each day an event
 * left before its kickoff. Empty requests are left out (they would add nothing).
 */
export function followUpIntents(plan: Pick<IngestPlan, 'settle' | 'analyze' | 'statusChanges'>, events: readonly Pick<FeedEvent, 'eventId' | 'startDateTime'>[], delay: () => number): Intent[] {
  const kickoff = new Map(events.map((e) => [e.eventId, e.startDateTime.getTime()]));
  const analyze = plan.analyze.map((a) => a.eventId).sort((x, y) => (kickoff.get(x) ?? 0) - (kickoff.get(y) ?? 0));
  // An event that ended before its kickoff leaves its day's featured picks.
  const picksDays = new Set(plan.statusChanges.filter((c) => c.beforeKickoff).map((c) => utcDay(c.startDateTime)));
  const intents: Intent[] = [];
  if (plan.settle.length) intents.push({ kind: 'enqueue-many', queue: 'settlement', name: 'settle-event', jobs: plan.settle.map((data) => ({ data, delay: delay() })) });
  if (analyze.length) intents.push({ kind: 'request-analyses', eventIds: analyze });
  for (const day of picksDays) intents.push({ kind: 'request-picks-rebuild', day });
  return intents;
}

async function followUps(ctx: AppContext, plan: IngestPlan, events: readonly FeedEvent[], delay: () => number): Promise<void> {
  // Queued by the poll itself (not returned for the runtime to dispatch once the job is done),
  // still under the provider's lock and before the slot is recorded, all at once:
  // - under the lock: they are queued before any other poll of the provider runs, and that poll
  //   plans against these writes, so it never asks for them again;
  // - before the slot: the recorded slot says this poll is done (a redelivered job of the slot is
  //   skipped as 'stale-slot'), so a poll whose follow-ups could not be queued throws with its
  //   slot unrecorded and its job's retry polls the slot again instead of being skipped.
  // The `events` version is bumped together with the listing rows of the events written (one step).
  const others = [...plan.changed].filter((scope) => scope !== 'events');
  await Promise.all([
    ctx.dispatch(followUpIntents(plan, events, delay), { concurrently: true }),
    ctx.ingest.syncInsightStatuses(plan.statusChanges),
    ctx.ingest.bumpCacheVersions(others),
    plan.changed.has('events') ? ctx.ingest.publishEventWrites({ events: plan.events, prices: plan.prices, liveData: plan.liveData }) : undefined,
  ]);
}

/**
 * Events stored live that the listing no longer names (the poll that would have seen them end
 * came after the provider stopped listing them), as the provider describes them now: they go
 * through the poll like listed ones, so they end, get their result and settle instead of staying
 * live for good. Only providers that can look an event up (describeEvents); a failure here leaves
 * them for the next poll and fails nothing else.
 */
async function vanishedLiveEvents(
  ctx: AppContext,
  handle: ProviderHandle,
  listed: readonly FeedEvent[],
  opts: PollOptions,
  call: <T>(fn: (signal: AbortSignal) => Promise<T>) => Promise<T>,
  log: Logger,
): Promise<FeedEvent[]> {
  const { provider } = handle;
  const describe = provider.describeEvents?.bind(provider);
  if (!describe) return [];
  const names = new Set(listed.map((e) => e.eventId));
  const missing = (await ctx.ingest.findLiveEventIds(provider.name)).filter((id) => !names.has(id));
  if (missing.length === 0) return [];
  try {
    const described = await call((signal) => describe({ at: opts.at, signal }, missing));
    if (described.length) log.warn({ eventIds: described.map((e) => e.eventId) }, 'events stored live are no longer listed: asked the provider for them');
    return described.filter((e) => !names.has(e.eventId));
  } catch (err) {
    log.warn({ err: describeError(err), eventIds: missing }, 'events stored live are no longer listed, and the provider could not describe them: next poll');
    return [];
  }
}

async function runPoll(ctx: AppContext, handle: ProviderHandle, opts: PollOptions): Promise<PollOutcome> {
  const { provider, breaker } = handle;
  const store = ctx.ingest;
  const name = provider.name;
  const log = ctx.log({ provider: name, slot: opts.slot });
  const nowMs = () => ctx.clock.now().getTime();
  const started = nowMs();
  const call = <T>(fn: (signal: AbortSignal) => Promise<T>) => guardedCall(breaker, fn, opts.retryDelayMs);
  await store.updateProviderState(name, { lastAttemptAt: ctx.clock.now() });

  let events: FeedEvent[];
  try {
    events = await call((signal) => provider.listEvents({ at: opts.at, signal }));
  } catch (err) {
    return recordFailure(ctx, handle, err);
  }
  const vanished = await vanishedLiveEvents(ctx, handle, events, opts, call, log);
  if (vanished.length) events = [...events, ...vanished];
  const open = events.filter((e) => e.status === 'upcoming' || e.status === 'live');
  const live = events.filter((e) => e.status === 'live');
  const ended = events.filter((e) => e.status !== 'upcoming' && e.status !== 'live');
  const errors: string[] = [];
  const part = async <T extends { eventId: string }>(subjects: FeedEvent[], fetch: (signal: AbortSignal) => Promise<T[]>): Promise<Map<string, T> | null> => {
    if (subjects.length === 0) return new Map();
    try {
      return new Map((await call(fetch)).map((x) => [x.eventId, x]));
    } catch (err) {
      errors.push(describeError(err));
      return null;
    }
  };
  const [odds, liveStats, results] = await Promise.all([
    part(open, (signal) => provider.fetchOdds({ at: opts.at, signal }, open)),
    part(live, (signal) => provider.fetchLiveStats({ at: opts.at, signal }, live)),
    part(ended, (signal) => provider.fetchResults({ at: opts.at, signal }, ended)),
  ]);
  const fetched = nowMs();

  // A batch of changes a crashed poll staged but never published goes out first, in order.
  await store.recoverStagedChanges(name);
  const { states: previous, readFromStore } = await store.loadState(
    name,
    events.map((e) => e.eventId),
  );
  const read = nowMs();
  const now = ctx.clock.now();
  const capturedAt = provider.feedTime ? provider.feedTime(opts.at) : now;
  const plan = planIngest({ provider: name, capturedAt, events, odds, live: liveStats, results }, previous, now, { reanalyzeMs: ctx.config.AI_REANALYZE_MINUTES * 60_000 });
  const planned = nowMs();
  // Until the writes are acknowledged no memory of this provider's state is valid (a crash here
  // makes the next poll read the store); the changes are staged first so that a crash after the
  // writes still publishes them (at least once).
  await store.invalidateState(name);
  await store.markWriting(name);
  try {
    return await writePoll(ctx, handle, opts, { events, live, odds, plan, errors, started, fetched, read, planned, now, capturedAt, readFromStore });
  } finally {
    await store.clearWriting(name);
  }
}

/** The poll's writes, in the order a crash anywhere among them leaves recoverable. */
async function writePoll(
  ctx: AppContext,
  handle: ProviderHandle,
  opts: PollOptions,
  p: {
    events: FeedEvent[];
    live: FeedEvent[];
    odds: unknown;
    plan: IngestPlan;
    errors: string[];
    started: number;
    fetched: number;
    read: number;
    planned: number;
    now: Date;
    capturedAt: Date;
    readFromStore: number;
  },
): Promise<PollOutcome> {
  const { breaker } = handle;
  const store = ctx.ingest;
  const name = handle.provider.name;
  const log = ctx.log({ provider: name, slot: opts.slot });
  const nowMs = () => ctx.clock.now().getTime();
  const { events, live, odds, plan, errors, started, fetched, read, planned, now, capturedAt, readFromStore } = p;
  const pollId = `${opts.slot}`;
  let lapAt = nowMs();
  const lap = () => -(lapAt - (lapAt = nowMs()));
  await store.stageChanges(
    name,
    pollId,
    plan.changes.map((c) => ({ ...c, provider: name })),
  );
  const stageMs = lap();
  const { counts: written, ms: stored } = await store.applyPlan(plan, now);
  lap();
  await followUps(ctx, plan, events, opts.settlementDelayMs ?? (() => ctx.config.settlementDelayMs()));
  const followUpsMs = lap();
  const partial = errors.length > 0;
  // The provider's freshness, once per poll: the instant every live form of its events is served
  // as of (shared/domain/events/liveViews.ts). It moves whenever the prices were read (a failed live-stats
  // call alone leaves the prices current); a partial poll is marked stale.
  // After the breaker's own transition writes: this write says its state now, and lands last.
  await handle.breakerStateWritten?.();
  await store.updateProviderState(name, {
    lastSuccessAt: ctx.clock.now(),
    lastError: partial ? errors.join('; ') : null,
    eventsSeen: events.length,
    breaker: breaker.state,
    stale: partial,
    ...(odds !== null ? { capturedAt } : {}),
    ...quotaOf(handle),
  });
  await store.publishStagedChanges(name);
  await store.saveState(name, plan.next);
  await store.recordSlot(name, JSON.stringify(slotState(ctx, opts)));
  const writeMs = { ...stored, stage: stageMs, followUps: followUpsMs, finish: lap() };
  const done = nowMs();
  const outcome: PollOutcome = {
    status: 'ok',
    provider: name,
    partial,
    events: events.length,
    live: live.length,
    written,
    settle: plan.settle.length,
    analyze: plan.analyze.length,
    readFromStore,
    changes: plan.changes.length,
    ms: { fetch: fetched - started, read: read - fetched, plan: planned - read, write: done - planned, total: done - started, writes: writeMs },
  };
  log.info({ ...outcome, counts: plan.counts }, partial ? 'provider polled (partial: some calls failed)' : 'provider polled');
  return outcome;
}

/**
 * One poll of one provider: under a per-provider Redis lock (polls never overlap, whichever
 * worker runs them), never for a slot older than the last one written, each provider call
 * through its breaker with at most one retry. A provider failure is not a job failure: the
 * stored data stays, marked stale, and the next slot tries again.
 */
export async function pollProvider(ctx: AppContext, handle: ProviderHandle, opts: PollOptions): Promise<PollOutcome> {
  const name = handle.provider.name;
  const res = await ctx.ingest.withProviderLock(name, async (): Promise<PollOutcome> => {
    const heldFrom = ctx.clock.now().getTime();
    const last = lastSlot(ctx, name, await ctx.ingest.readSlot(name), slotState(ctx, opts), heldFrom);
    if (last !== null && last >= opts.slot) {
      ctx.log({ provider: name, slot: opts.slot }).info({ lastSlot: last }, 'this slot or a later one was already polled: skipped');
    }
    const outcome: PollOutcome = last !== null && last >= opts.slot ? { status: 'skipped', provider: name, reason: 'stale-slot' } : await runPoll(ctx, handle, opts);
    return { ...outcome, heldFrom, heldUntil: ctx.clock.now().getTime() };
  });
  if (!res.held) {
    ctx.log({ provider: name, slot: opts.slot }).info('a poll of this provider is already running: skipped');
    return { status: 'skipped', provider: name, reason: 'locked' };
  }
  if (res.value.status === 'ok' && res.value.events === 0) {
    // Nothing listed: a provider that knows when its next event comes (a replay) skips the clock there.
    const until = handle.provider.idleUntil?.(opts.at);
    if (until) await ctx.ingest.skipWorldClockTo(until.getTime());
  }
  return res.value;
}

/**
 * The `poll` job: the provider as of its slot's start, so a job run late or by another worker still
 * describes the same instant. A slot counted in another POLL_INTERVAL_MS (left in the queue by a
 * run with another setting) means another instant: the job is discarded.
 */
export async function pollJob(ctx: AppContext, handle: ProviderHandle, job: { provider: string; slot: number; intervalMs?: number }): Promise<PollOutcome> {
  const { provider, slot } = job;
  const intervalMs = ctx.config.POLL_INTERVAL_MS;
  if (job.intervalMs !== undefined && job.intervalMs !== intervalMs) {
    ctx.log({ provider, slot }).warn({ jobIntervalMs: job.intervalMs, intervalMs }, 'poll job of an earlier configuration discarded');
    return { status: 'skipped', provider, reason: 'stale-slot' };
  }
  return pollProvider(ctx, handle, { slot, intervalMs, at: new Date(slot * intervalMs) });
}
