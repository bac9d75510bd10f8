import { Schema, model, type InferSchemaType } from 'mongoose';
import { EVENT_STATUSES } from '../../events/status';
import { LocalizedTextSchema, StatsFields } from './common';

const BetItemSchema = new Schema(
  {
    id: { type: String, required: true },
    code: { type: String, required: true },
    price: { type: Number, required: true },
    isAvailable: { type: Boolean, default: true },
    /** Best price per bookmaker (dataSource -> price), for price shopping and dispersion. */
    bookPrices: { type: Schema.Types.Mixed, default: undefined },
  },
  { _id: false },
);

const MarketSchema = new Schema(
  {
    id: { type: String, required: true },
    betTypeSysname: { type: String, required: true },
    line: { type: Number, default: null },
    betItems: { type: [BetItemSchema], default: [] },
  },
  { _id: false },
);

const TeamRefSchema = new Schema({ id: { type: Number, required: true }, name: { type: LocalizedTextSchema, required: true }, regionId: Number }, { _id: false });
const NamedRefSchema = new Schema({ id: { type: Number, required: true }, name: { type: LocalizedTextSchema, required: true } }, { _id: false });

/**
 * An event, stored denormalized the way the API serves it (no joins: the query subset MongoDB and FerretDB share).
 * Team, competition and region names are copied in every locale at ingest.
 */
const EventSchema = new Schema(
  {
    _id: { type: String, required: true },
    sportId: { type: Number, required: true },
    competitionId: { type: Number, required: true },
    regionId: { type: Number, required: true },
    homeTeam: { type: TeamRefSchema, required: true },
    awayTeam: { type: TeamRefSchema, required: true },
    competition: { type: NamedRefSchema, required: true },
    region: { type: NamedRefSchema, required: true },
    startDateTime: { type: Date, required: true },
    status: { type: String, enum: EVENT_STATUSES, required: true },
    /** Abandoned events complete with the void flag: every bet pushes. */
    voided: { type: Boolean, default: false },
    /** When the event went live (postponed-after-start settles; never-started does not). */
    startedAt: { type: Date, default: null },
    endedAt: { type: Date, default: null },
    views: { type: Number, default: 0 },
    /** Popularity of the competition, for `prioritize` on the live list. */
    priority: { type: Number, default: 0 },
    markets: { type: [MarketSchema], default: [] },
    /** Final or current counts (the contract's Stats). */
    stats: { type: new Schema({ ...StatsFields, phase: String }, { _id: false }), default: null },
    /** Flat live stats with liveBetItems, as the live endpoint serves them. */
    liveStats: { type: Schema.Types.Mixed, default: null },
    /** Bumped when final stats change after completion: settlement re-grades on a new version. */
    resultVersion: { type: Number, default: 0 },
    /** The resultVersion settlement last completed for (recommendations, picks, rollups); null = never. */
    settledVersion: { type: Number, default: null },
    settledAt: { type: Date, default: null },
    /**
     * Set by an operator's result correction: the final result is the operator's from then on and
     * later feed results for the event are ignored (a provider still sending its wrong count must
     * not undo the correction). { at, resultVersion, fields }.
     */
    resultOverride: { type: Schema.Types.Mixed, default: null },
    dataSource: { type: String, required: true },
    providerEventId: { type: String },
    oddsUpdatedAt: { type: Date, default: null },
    /** Bumped when the AI's inputs change (pre-match prices, lineups, status); each bump requests an analysis. */
    analysisVersion: { type: Number, default: 0 },
    /**
     * At kickoff, each market's last pre-match price per book (shared/ingest/closing.ts): what
     * settlement grades recommendations against (closingOdds, clv). Null until the event starts.
     */
    closingLine: { type: Schema.Types.Mixed, default: null },
    /** Announced lineups { home: string[], away: string[] } when the provider has them. */
    lineups: { type: Schema.Types.Mixed, default: null },
  },
  { timestamps: true, collection: 'events', minimize: false },
);

EventSchema.index({ status: 1, startDateTime: 1 });
EventSchema.index({ competitionId: 1, startDateTime: 1 });
EventSchema.index({ regionId: 1, startDateTime: 1 });
EventSchema.index({ sportId: 1, status: 1, startDateTime: 1 });
EventSchema.index({ startDateTime: 1, views: -1 });
EventSchema.index({ 'homeTeam.id': 1 });
EventSchema.index({ 'awayTeam.id': 1 });

export type EventDoc = InferSchemaType<typeof EventSchema>;
export const Event = model('Event', EventSchema);
