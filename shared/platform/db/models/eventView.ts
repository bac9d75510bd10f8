import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required, zeros } from './define';

/**
 * An event's stored view count (`_id` = the event's id), written only by the web process's view
 * flush (api/queries/views.ts). Kept out of the event document: FerretDB 1.x rewrites a whole
 * document on every update, so a view count written beside ingest's writes of the event could
 * undo one of them (or lose itself). A missing document means no view stored yet.
 */
const EventViewSchema = new Schema(
  {
    ...required({ _id: String }),
    ...zeros('views'),
  },
  { collection: 'eventviews', timestamps: true },
);

export type EventViewDoc = InferSchemaType<typeof EventViewSchema>;
// Read and written by _id (eventViews.ts; the trending list ranks its candidates' counts itself); findViewCounts, the one read by views, serves tests only: no index but _id.
export const EventView = defineModel('EventView', EventViewSchema);
