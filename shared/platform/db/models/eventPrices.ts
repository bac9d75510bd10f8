import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel } from './define';

/**
 * The prices of one event (`_id` = the event id), apart from the event: they change many times
 * more often than anything else about it, and a small document of one writer (ingest) is what
 * FerretDB rewrites cheaply and never loses; its price tables are packed strings, which FerretDB
 * reads and rewrites several times faster than nested documents. Written only when a price, an availability or the
 * set of markets changed.
 */
const EventPricesSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The provider whose poll writes them (its consensus is served under this dataSource). */
    dataSource: { type: String, required: true },
    /**
     * The markets with their bet items (consensus `price`, `isAvailable`, `bookPrices`: dataSource
     * -> that book's price), packed as one JSON string (shared/platform/db/repositories/pricesPacking.ts).
     */
    marketsJson: { type: String, default: '[]' },
    /**
     * The prices before the last move of each bet item that moved then, packed the same way:
     * [{ id, price, bookPrices }]. With `movedAt` they give the contract's priceChange ("since the
     * previous snapshot") at read time.
     */
    previousJson: { type: String, default: '[]' },
    /** The feed instant (world time) of the poll that last changed these prices. */
    movedAt: { type: Date, required: true },
    /**
     * The feed instant the event was first priced in play: from then on its live-odds snapshots
     * are served (until then it has none), also after it ends (its closing prices).
     */
    liveFrom: { type: Date, default: null },
    /**
     * Ingest's bookkeeping of the AI inputs (pre-match prices, lineups, status): bumped when they
     * change; the version last asked of the AI worker and the world time of the ask (price moves
     * far from kickoff wait AI_REANALYZE_MINUTES). Kept here, with what moves it most.
     */
    analysisVersion: { type: Number, default: 0 },
    analysisRequestedVersion: { type: Number, default: 0 },
    analysisRequestedAt: { type: Date, default: null },
    /** The source's own timestamp of the prices last written. */
    oddsUpdatedAt: { type: Date, default: null },
  },
  { collection: 'eventprices', timestamps: true, minimize: false },
);

export type EventPricesDoc = InferSchemaType<typeof EventPricesSchema>;
export const EventPrices = defineModel('EventPrices', EventPricesSchema);
