import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * The settled-at-version marker of an event (`_id` = the event's id): the resultVersion settlement
 * last completed for (recommendations, picks, rollups, commitments) and when. Written only by the
 * settlement worker, last in a settlement, which is what its sweep checks. Its own document, not
 * fields of the event: FerretDB 1.x rewrites a whole document on every update, so a marker written
 * beside ingest's writes of the event could undo one of them. A missing document means never settled.
 */
const EventSettlementSchema = new Schema(
  {
    ...required({ _id: String, settledVersion: Number, settledAt: Date }),
  },
  { collection: 'eventsettlements', timestamps: true },
);

export type EventSettlementDoc = InferSchemaType<typeof EventSettlementSchema>;
export const EventSettlement = defineModel('EventSettlement', EventSettlementSchema);
