import type { AppContext } from '../context';
import { jobIdOf, type EnqueueIntent } from '../intents';
import { EMPTY_STATS, STAT_KEYS, type EventStats, type StatKey } from '../../domain/stats';
import { settlementState } from '../../domain/settlement/state';
import type { CorrectionEventRow, CorrectionWrite, StoredCounts } from './ports';

/**
 * An operator's result correction (`npm run cli -- correct-result`): the provider got a final
 * count wrong, or an abandoned match must be voided. The changed counts go to the event's
 * LiveEventData (what settlement grades) and to Event.stats (what the list views show), the
 * event's resultVersion moves up by one, and a settle-event job for the new version re-grades
 * every bet of the event: changed results get a correction entry, picks and rollups follow.
 * The event is marked `resultOverride`: ingest keeps the operator's result from then on.
 */

export class CorrectionInputError extends Error {
  override name = 'CorrectionInputError';
  constructor(
    /** The CLI argument at fault, without dashes. */
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
  }
}

/** Another correction of the event is running, or its version moved on between the read and the write. */
export class CorrectionConflictError extends Error {
  override name = 'CorrectionConflictError';
}

export type StatsChanges = Partial<EventStats>;

export interface CorrectionRequest {
  eventId: string;
  stats: StatsChanges;
  voided?: boolean;
}

/** `homeGoalsFirstHalf` -> `home-goals-first-half`: the CLI option of each EventStats field. */
export const STATS_OPTIONS: Record<string, StatKey> = Object.fromEntries(STAT_KEYS.map((k) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), k]));

/**
 * Parses the raw option values (pure): each count a whole number >= 0 or the word null (the
 * provider did not report it, which refunds the markets that need it), --void true or false.
 */
export function parseCorrection(eventId: string | undefined, raw: Record<string, string | undefined>): CorrectionRequest {
  if (!eventId) throw new CorrectionInputError('event', 'is required');
  const stats: StatsChanges = {};
  for (const [option, field] of Object.entries(STATS_OPTIONS)) {
    const v = raw[option];
    if (v === undefined) continue;
    if (v === 'null') stats[field] = null;
    else if (/^\d{1,6}$/.test(v)) stats[field] = Number(v);
    else throw new CorrectionInputError(option, `must be a whole number >= 0 or null (got "${v}")`);
  }
  let voided: boolean | undefined;
  if (raw.void !== undefined) {
    if (raw.void !== 'true' && raw.void !== 'false') throw new CorrectionInputError('void', `must be true or false (got "${raw.void}")`);
    voided = raw.void === 'true';
  }
  if (Object.keys(stats).length === 0 && voided === undefined) {
    throw new CorrectionInputError('event', `nothing to correct: give at least one of --${Object.keys(STATS_OPTIONS).join(', --')} or --void`);
  }
  return { eventId, stats, voided };
}

type Counts = Partial<Record<keyof EventStats, number | null>>;

/** The fields of `changes` whose value differs from `current` (pure). */
export function changedFields(current: Counts | null | undefined, changes: StatsChanges): (keyof EventStats)[] {
  return STAT_KEYS.filter((k) => k in changes && (current?.[k] ?? null) !== changes[k]);
}

export interface CorrectionOutcome {
  eventId: string;
  /** False when the event already had these values: nothing written, the version stays. */
  changed: boolean;
  previousVersion: number;
  resultVersion: number;
  /** The fields written, with their previous values (LiveEventData's where it has one). */
  changes: { field: string; from: number | boolean | null; to: number | boolean | null }[];
  /** The settle-event job id (also when unchanged but the version is not settled yet). */
  jobId: string | null;
}

/**
 * The settle-event job a correction asks for (pure): for the new version when it changed the
 * result; when nothing changed, for the current version only while that is not settled yet (a run
 * that died before enqueueing); otherwise none. Re-grading starts at once (no delay).
 */
export function correctionIntents(eventId: string, event: { resultVersion?: number | null; settledVersion?: number | null }, changed: boolean): EnqueueIntent[] {
  const version = event.resultVersion ?? 0;
  if (!changed && (event.settledVersion ?? -1) >= version) return [];
  return [{ kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId, resultVersion: changed ? version + 1 : version }, delay: 0 }];
}

/**
 * Applies a correction under a per-event Redis lock: FerretDB 1.x does not isolate a conditional
 * update from a concurrent one (two corrections both matched `resultVersion: n` there, 16 times
 * in 20 tries), so the lock is what keeps two operators from both taking version n + 1; the
 * conditional update still guards against ingest moving the version on MongoDB.
 */
export async function correctResult(ctx: AppContext, req: CorrectionRequest): Promise<CorrectionOutcome> {
  const store = ctx.corrections;
  const provider = await store.findEventProvider(req.eventId);
  if (provider === null) throw new CorrectionInputError('event', `no event "${req.eventId}"`);
  // The settle job is enqueued under the lock, right after the writes, as before intentions.
  const held = await store.withEventLock(req.eventId, async () => {
    // Ingest writes the same documents: the correction waits for a poll to end and holds the next
    // one off, then makes every ingest worker read the corrected event back from the store.
    const { outcome, intents } = await ctx.ingest.whilePaused(provider, async () => {
      const done = await correctLocked(ctx, req);
      if (done.outcome.changed) {
        await ctx.ingest.invalidateState(provider);
        const { outcome: o } = done;
        const data = { changes: o.changes, resultVersion: o.resultVersion, corrected: true };
        await store.appendChanges(`${req.eventId}-v${o.resultVersion}`, [{ eventId: req.eventId, kind: 'result', at: ctx.clock.worldNow(), data }]);
      }
      return done;
    });
    await ctx.dispatch(intents);
    return outcome;
  });
  if (!held.held) throw new CorrectionConflictError(`event ${req.eventId}: another correction of this event is running; run the command again once it has finished`);
  return held.value;
}

/** The correction's writes; returns its outcome and the settle job it asks for. */
async function correctLocked(ctx: AppContext, req: CorrectionRequest): Promise<{ outcome: CorrectionOutcome; intents: EnqueueIntent[] }> {
  const store = ctx.corrections;
  const event: CorrectionEventRow | null = await store.findEvent(req.eventId);
  if (!event) throw new CorrectionInputError('event', `no event "${req.eventId}"`);
  const state = settlementState(event);
  if (state.kind !== 'ended') {
    const why = state.kind === 'pending' ? 'has not ended' : 'never started';
    throw new CorrectionInputError('event', `event ${req.eventId} ${why} (status ${event.status}): only an ended event's result can be corrected`);
  }
  const led = await store.findLiveData(req.eventId);
  const version = event.resultVersion ?? 0;

  // A field counts as changed when either copy differs: a re-run after a crash between the two
  // writes finds Event.stats behind and completes the correction.
  const fields = [...new Set([...changedFields(led, req.stats), ...changedFields(event.stats, req.stats)])];
  const voided = req.voided;
  const voidChanged = voided !== undefined && voided !== Boolean(event.voided);
  const changes = [
    ...fields.map((f) => ({ field: f, from: (led ?? event.stats)?.[f] ?? null, to: req.stats[f] ?? null })),
    ...(voidChanged ? [{ field: 'voided', from: Boolean(event.voided), to: voided }] : []),
  ];

  if (changes.length === 0) {
    // Nothing new; if this version was never settled (a run that died before enqueueing), queue it.
    const intents = correctionIntents(req.eventId, event, false);
    const jobId = intents[0] ? jobIdOf(intents[0]) : null;
    return { outcome: { eventId: req.eventId, changed: false, previousVersion: version, resultVersion: version, changes, jobId }, intents };
  }

  const set: StoredCounts = Object.fromEntries(fields.map((f) => [f, req.stats[f] ?? null]));
  // LiveEventData first (settlement grades it): a run that dies after it leaves the version where
  // it was and Event.stats behind, which a re-run detects and completes.
  if (led && fields.length) await store.setLiveDataFields(led._id, set);
  const next = version + 1;
  const write: CorrectionWrite = { resultVersion: next, resultOverride: { at: ctx.clock.now(), resultVersion: next, fields: changes.map((c) => c.field) } };
  if (fields.length) write.stats = event.stats ? { fields: set } : { whole: { ...EMPTY_STATS, phase: 'FT', ...set } };
  if (voidChanged) write.voided = voided;
  // Conditional on the version read: of two concurrent corrections only one takes `next`.
  const { matched } = await store.writeEventResult(req.eventId, event.resultVersion, write);
  if (!matched) {
    throw new CorrectionConflictError(`event ${req.eventId}: its resultVersion moved on from ${version} while correcting; re-run the command to apply the correction on top`);
  }
  const intents = correctionIntents(req.eventId, event, true);
  return { outcome: { eventId: req.eventId, changed: true, previousVersion: version, resultVersion: next, changes, jobId: jobIdOf(intents[0]) }, intents };
}
