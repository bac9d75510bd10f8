import type { AppContext } from '../context';
import type { SettlementPickRow, SettlementRecommendationRow } from './ports';
import { correctionReason, decidePick, decideRecommendation, legView, pickUpdate, recommendationUpdate, type GradingContext, type LegView, type ResultWrite } from '../../domain/settlement/plan';
import { betDay, settlementState, settlementStats, type StatsSource } from '../../domain/settlement/state';

/**
 * Settlement of events: the I/O around the pure grading engine. For a set of events (one job
 * each; concurrent jobs are batched, see SettlementBatcher) it
 *   1. reads the events and their LiveEventData (the stats settlement uses, see settlementStats),
 *   2. grades every recommendation not yet settled at the event's resultVersion (a correction
 *      bumps the version: settled bets are re-graded and a changed result pushes a history entry),
 *   3. then every pick with a leg on these events (legs from their recommendations' results),
 *   4. then refreshes the performance rollups of the days concerned (recomputed, never incremented)
 *      and commits each settlement to the commitments chain (shared/app/commitments/),
 *   5. and last marks each event settled at its version (its marker in eventsettlements), which is what the
 *      sweeper checks: a job lost anywhere before this point is found and run again.
 * Every write is conditional on the document's state as read, so re-running any step changes
 * nothing twice; a write that finds the document changed (another worker) makes the step re-read.
 */

export interface EventOutcome {
  eventId: string;
  status: 'missing' | 'pending' | 'unplayed' | 'settled';
  resultVersion: number;
  statsSource?: StatsSource;
  /** Conditional writes that took effect, by kind. */
  recommendations: Record<'settled' | 'corrected' | 'confirmed' | 'errors', number>;
  picks: Record<'settled' | 'corrected' | 'legs' | 'errors', number>;
}

export class SettlementConflictError extends Error {
  override name = 'SettlementConflictError';
}

const MAX_PASSES = 4;

/**
 * Runs `plan` over freshly read documents and writes its updates (bulk, in server-sized batches), until a pass
 * whose conditional updates all matched (nothing left to redo). `applied` receives the tags of
 * that pass's updates; updates of a pass that hit a conflict are re-planned from a new read.
 */
async function writeUntilStable<T, Tag>(
  ctx: AppContext,
  what: string,
  read: () => Promise<T[]>,
  plan: (doc: T) => { op: ResultWrite | null; tag: Tag },
  write: (ops: ResultWrite[]) => Promise<{ matchedCount: number }>,
  applied: (tags: Tag[]) => void,
): Promise<T[]> {
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const docs = await read();
    const ops: ResultWrite[] = [];
    const tags: Tag[] = [];
    for (const doc of docs) {
      const { op, tag } = plan(doc);
      if (op) {
        ops.push(op);
        tags.push(tag);
      }
    }
    if (ops.length === 0) return docs;
    const res = await write(ops);
    if (res.matchedCount === ops.length) {
      applied(tags);
      return read();
    }
    ctx.log({ component: 'settlement' }).debug({ what, pass, conflicts: ops.length - res.matchedCount }, 'settlement write conflict; re-reading');
  }
  throw new SettlementConflictError(`${what}: documents kept changing during ${MAX_PASSES} passes`);
}

export async function settleEvents(ctx: AppContext, eventIds: readonly string[]): Promise<Map<string, EventOutcome>> {
  const store = ctx.settlement;
  const now = ctx.clock.now();
  const ids = [...new Set(eventIds)];
  const out = new Map<string, EventOutcome>();
  // Every id asked has its outcome from the start (blank, then 'missing' or the event's state).
  const outcomeOf = (eventId: string): EventOutcome => {
    const o = out.get(eventId);
    if (!o) throw new Error(`settlement: no outcome kept for ${eventId}`);
    return o;
  };
  const blank = (eventId: string, status: EventOutcome['status'], resultVersion = 0): EventOutcome => ({
    eventId,
    status,
    resultVersion,
    recommendations: { settled: 0, corrected: 0, confirmed: 0, errors: 0 },
    picks: { settled: 0, corrected: 0, legs: 0, errors: 0 },
  });
  for (const id of ids) out.set(id, blank(id, 'missing'));

  const events = await store.findEvents(ids);
  const contexts = new Map<string, GradingContext & { source: StatsSource }>();
  const judged = events.map((e) => ({ event: e, state: settlementState(e) }));
  const stored = new Set(events.map((e) => e._id));
  for (const { event: e, state } of judged) out.set(e._id, blank(e._id, state.kind === 'ended' ? 'settled' : state.kind, e.resultVersion ?? 0));
  const ended = judged.filter((j) => j.state.kind === 'ended');
  const endedIds = ended.map((j) => j.event._id);
  const cancelledIds = new Set(judged.filter(({ state: s }) => s.kind === 'unplayed' && s.final).map((j) => j.event._id));

  if (endedIds.length) {
    const leds = await store.findLiveData(endedIds);
    const ledByEvent = new Map(leds.map((l) => [l.eventId, l]));
    for (const { event: e, state } of ended) {
      const { stats, source } = settlementStats(ledByEvent.get(e._id), e.stats);
      contexts.set(e._id, { state, stats, version: e.resultVersion ?? 0, now, source, closing: e.closingLine ?? null });
      outcomeOf(e._id).statsSource = source;
    }
  }

  // 2. Recommendations.
  const REC_KIND = { settle: 'settled', correct: 'corrected', confirm: 'confirmed', error: 'errors' } as const;
  let recs: SettlementRecommendationRow[] = [];
  if (endedIds.length) {
    recs = await writeUntilStable(
      ctx,
      'recommendations',
      () => store.findRecommendations(endedIds),
      (rec) => {
        const grading = contexts.get(rec.eventId);
        if (!grading) throw new Error(`settlement: recommendation ${rec._id} of ${rec.eventId}, which is not an ended event of this run`);
        const decision = decideRecommendation(rec, grading);
        const kind = decision.kind === 'none' ? null : REC_KIND[decision.kind];
        return { op: recommendationUpdate(rec, decision, grading), tag: { eventId: rec.eventId, kind } };
      },
      (writes) => store.writeRecommendationResults(writes),
      (tags) => tags.forEach((t) => t.kind && (outcomeOf(t.eventId).recommendations[t.kind] += 1)),
    );
    // As stored now, whether this run wrote them or a crashed one did: the list's read model hears of every grading.
    await store.publishRecommendations(recs);
  }

  // 3. Picks with a leg on these events (a cancelled-before-start event voids its legs).
  const pickEventIds = [...endedIds, ...cancelledIds];
  const PICK_KIND = { settle: 'settled', correct: 'corrected', legs: 'legs', error: 'errors' } as const;
  type PickRow = SettlementPickRow & { legViews: LegView[] };
  if (pickEventIds.length) {
    await writeUntilStable(
      ctx,
      'picks',
      async (): Promise<PickRow[]> => {
        const picks = await store.findPicks(pickEventIds);
        if (picks.length === 0) return [];
        const legRecIds = [...new Set(picks.flatMap((p) => p.legs.map((l) => l.recommendationId)))];
        const legRecs = await store.findLegRecommendations(legRecIds);
        const recById = new Map(legRecs.map((r) => [r._id, r]));
        // Legs on events outside this batch: was any of them cancelled before it started?
        const cancelled = new Set(cancelledIds);
        const otherEvents = [...new Set(picks.flatMap((p) => p.legs.map((l) => l.eventId)))].filter((id) => !stored.has(id));
        if (otherEvents.length) {
          for (const id of await store.findCancelledUnstartedEventIds(otherEvents)) cancelled.add(id);
        }
        return picks.map((p) => ({ ...p, legViews: p.legs.map((l) => legView(recById.get(l.recommendationId), cancelled.has(l.eventId))) }));
      },
      (pick) => {
        const version = Math.max(0, ...pick.eventIds.map((id) => contexts.get(id)?.version ?? 0));
        const d = decidePick(pick, pick.legViews, now, correctionReason(version));
        const kind = d.kind === 'none' ? null : PICK_KIND[d.kind];
        return { op: pickUpdate(pick, pick.legViews, d, now, version), tag: { eventIds: pick.eventIds, kind } };
      },
      (writes) => store.writePickResults(writes),
      (tags) => {
        for (const { kind, eventIds } of tags) {
          if (!kind) continue;
          for (const id of eventIds) {
            const o = out.get(id); // a pick's other legs may be on events outside this run
            if (o) o.picks[kind] += 1;
          }
        }
      },
    );
  }

  // 4. Performance of the days of these events' bets (recomputed from the bets).
  const days = [...new Set(recs.map((r) => betDay(r.eventStartAt)))];
  await store.refreshRollups(days);

  // Each settlement becomes a later link of the commitments chain, before the marker: a crash
  // before it leaves the event for the sweeper, whose re-run commits what is missing.
  await store.commitSettlements(endedIds, pickEventIds);

  // 5. The change feed hears of each settlement before the marker, so a crash between them makes
  // the sweeper's re-run report it again (at least once, never lost).
  const settledIds = [...endedIds, ...cancelledIds];
  if (settledIds.length) {
    const at = ctx.clock.worldNow();
    await store.appendChanges(
      `${settledIds[0]}-${now.getTime()}`,
      settledIds.map((id) => {
        const o = outcomeOf(id);
        return { eventId: id, kind: 'settled', at, data: { resultVersion: o.resultVersion, recommendations: o.recommendations, picks: o.picks } };
      }),
    );
  }

  // 6. The settled-at-version marker the sweeper looks for.
  await store.markSettled(
    [...endedIds, ...cancelledIds].map((id) => ({ eventId: id, version: outcomeOf(id).resultVersion })),
    now,
  );
  const marked = new Set([...endedIds, ...cancelledIds]);
  store.recordFirstSettlements(
    events.filter((e) => marked.has(e._id)),
    now,
  );
  // Results of recommendations and picks: cached /v2/ai pages are rendered afresh.
  await ctx.cache.bump('ai');
  return out;
}

export async function settleEvent(ctx: AppContext, eventId: string): Promise<EventOutcome> {
  const outcome = (await settleEvents(ctx, [eventId])).get(eventId);
  if (!outcome) throw new Error(`settlement gave no outcome for ${eventId}`); // settleEvents answers every id asked
  return outcome;
}
