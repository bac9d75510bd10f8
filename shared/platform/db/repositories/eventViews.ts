import { findWhereIn } from '../lookup';
import { EventView } from '../models';

/**
 * Stored view counts, one document per event (`eventviews`), written only by the web process
 * (api/queries/views.ts). An event without a document has no stored view.
 */

/**
 * Raises the stored view count of an event to `views` ($max never lowers it), creating the
 * document on the first view. FerretDB 1.x applies every update (even $inc and $max) as an unlocked
 * read-modify-write, and two concurrent upserts of one new `_id` can collide: callers serialize
 * them per event (api/queries/views.ts holds a Redis lock per event while it calls this).
 */
export async function raiseEventViewsTo(eventId: string, views: number): Promise<void> {
  await EventView.updateOne({ _id: eventId }, { $max: { views } }, { upsert: true });
}

/** Adds one view to the stored count (the first creates it) and returns the new count. */
export async function incrementEventViews(eventId: string): Promise<number> {
  const doc = await EventView.findOneAndUpdate({ _id: eventId }, { $inc: { views: 1 } }, { upsert: true, new: true }).lean();
  return doc?.views ?? 1;
}

/** Stored view counts of the events of `ids`: event id -> views; events never viewed are absent. */
export async function findViewsOfEvents(ids: readonly string[]): Promise<Map<string, number>> {
  const docs = await findWhereIn<{ _id: string; views?: number | null }>(EventView, '_id', ids, { views: 1 });
  return new Map(docs.map((d) => [String(d._id), d.views ?? 0]));
}

/** Every event with at least one stored view: event id -> views. */
export async function findViewCounts(): Promise<Map<string, number>> {
  const docs = await EventView.find({ views: { $gt: 0 } }, { views: 1 }).lean<{ _id: string; views: number }[]>();
  return new Map(docs.map((d) => [String(d._id), d.views]));
}
