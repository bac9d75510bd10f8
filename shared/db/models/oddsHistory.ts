import { Schema, model, type InferSchemaType } from 'mongoose';

/** Append-only price history per bet item: one row each time a price changes. */
const OddsHistorySchema = new Schema(
  {
    betItemId: { type: String, required: true },
    eventId: { type: String, required: true },
    dataSource: { type: String, required: true },
    price: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'oddshistory', versionKey: false },
);
// Unique per (item, source, instant) so a replayed write cannot append twice.
OddsHistorySchema.index({ betItemId: 1, dataSource: 1, at: 1 }, { unique: true });
OddsHistorySchema.index({ eventId: 1 });

export type OddsHistoryDoc = InferSchemaType<typeof OddsHistorySchema>;
export const OddsHistory = model('OddsHistory', OddsHistorySchema);
