import type { PickDraft } from '../../domain/ai/picks';
import { pickCommitment, recommendationCommitment, settlementCommitment, type CommittedEvent, type RecommendationForCommit } from '../../domain/commitments/records';
import type { AppContext } from '../context';
import { appendCommitments } from './append';

/**
 * The hooks of the write paths: what the AI worker and settlement wrote, committed to the chain.
 * Each reads or takes what is stored and appends idempotently, so a retried job commits what a
 * crashed run wrote but did not commit, and nothing twice.
 */

/**
 * Commits the stored recommendations of `ids`, as stored: `written` are those the caller has just
 * inserted (as the insert returned them); the others are read, since another worker may have
 * written one first.
 */
export async function commitRecommendations(ctx: AppContext, ids: readonly string[], event: CommittedEvent, written: readonly RecommendationForCommit[] = []): Promise<number> {
  if (ids.length === 0) return 0;
  const known = new Map(written.map((r) => [r._id, r]));
  const unread = ids.filter((id) => !known.has(id));
  const read = unread.length ? await ctx.commitments.findRecommendations(unread) : [];
  for (const r of read) known.set(r._id, r);
  // In the order asked; an id neither written nor stored is left out.
  const stored = ids.flatMap((id) => known.get(id) ?? []);
  return appendCommitments(
    ctx,
    stored.map((r) => recommendationCommitment(r, event)),
  );
}

/** Commits the featured picks a rebuild wrote (the first version of a pick id is the committed one). */
export async function commitPicks(ctx: AppContext, drafts: readonly PickDraft[], at: Date): Promise<number> {
  return appendCommitments(
    ctx,
    drafts.map((d) => pickCommitment(d, at)),
  );
}

/** Commits the settlement (at its result version) of every settled bet on these events. */
export async function commitSettlements(ctx: AppContext, recommendationEventIds: readonly string[], pickEventIds: readonly string[]): Promise<number> {
  const [recs, picks] = await Promise.all([
    recommendationEventIds.length ? ctx.commitments.findSettledRecommendations(recommendationEventIds) : [],
    pickEventIds.length ? ctx.commitments.findSettledPicks(pickEventIds) : [],
  ]);
  const byId = (a: { _id: string }, b: { _id: string }) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  return appendCommitments(ctx, [...recs.sort(byId).map((r) => settlementCommitment('recommendation', r)), ...picks.sort(byId).map((p) => settlementCommitment('pick', p))]);
}
