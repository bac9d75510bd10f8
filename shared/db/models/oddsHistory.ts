import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/** Append-only price history per bet item: one row each time a price changes. */
const OddsHistorySchema = new Schema(required({ betItemId: String, eventId: String, dataSource: String, price: Number, at: Date }), { collection: 'oddshistory', versionKey: false });

export type OddsHistoryDoc = InferSchemaType<typeof OddsHistorySchema>;
export const OddsHistory = defineModel('OddsHistory', OddsHistorySchema, [
  // Unique per (item, source, instant) so a replayed write cannot append twice.
  [{ betItemId: 1, dataSource: 1, at: 1 }, { unique: true }],
  [{ eventId: 1 }],
]);
