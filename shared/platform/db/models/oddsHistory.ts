import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

const ItemPriceSchema = new Schema({ ...required({ id: String, price: Number }) }, { _id: false });

/**
 * Append-only price history: one document per event per reprice, with the consensus of every bet
 * item whose price moved then. `_id` = `<eventId>|<dataSource>|<at ms>` (the source's own
 * timestamp), so a replayed poll appends nothing; a reprice is one insert, not one per item.
 */
const OddsHistorySchema = new Schema(
  {
    _id: { type: String, required: true },
    ...required({ eventId: String, dataSource: String, at: Date }),
    items: { type: [ItemPriceSchema], default: [] },
  },
  { collection: 'oddshistory', versionKey: false },
);

export type OddsHistoryDoc = InferSchemaType<typeof OddsHistorySchema>;
// The history of a bet item is read through its event (the item id starts with the event id).
// Insert-only and never read by _id: no GIN index on it (the unique _id index refuses a replayed reprice).
export const OddsHistory = defineModel(
  'OddsHistory',
  OddsHistorySchema,
  [[{ eventId: 1 }, { read: "events.ts:findPriceHistoryOfItem, history.ts:findOddsHistoryOfEvent (an event's reprices: eventId)", gin: { eventId: 'events.ts:findPriceHistoryOfItem' } }]],
  { ginOnId: false },
);
