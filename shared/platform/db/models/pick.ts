import { Schema, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import type { LocalizedText } from '../../../domain/sports';
import { defineModel, nullable, required, type Lean } from './define';
import { CONFIDENCES, SettlementFields } from './recommendation';

const { Mixed } = Schema.Types;

/** A leg of a pick: a copy of its recommendation as the contract shows it inside a pick. */
const LegSchema = new Schema(
  {
    ...required({ recommendationId: String, eventId: String, betItemId: String, market: String, outcome: String }),
    /** The selection per locale, as on its recommendation: a leg reads like the recommendation it copies. */
    outcomeLocalized: { type: LocalizedTextSchema, default: null },
    ...required({ code: String, bookmaker: String, odds: Number }),
    point: { type: Number, default: null },
    edgePercentage: { type: Number, required: true },
    confidence: { type: String, enum: CONFIDENCES, required: true },
    ...nullable({ result: String, resultDetail: String, returnPerUnit: Number }),
  },
  { _id: false },
);

const PickSchema = new Schema(
  {
    _id: { type: String, required: true },
    pickType: { type: String, enum: ['single', 'parlay'], required: true },
    ...required({ legs: [LegSchema], eventIds: [String], totalOdds: Number, probability: Number, edgePercentage: Number }),
    confidence: { type: String, enum: CONFIDENCES, required: true },
    kellyFraction: { type: Number, required: true },
    rationale: { type: [LocalizedTextSchema], default: [] },
    /** The pick's main event as served (the contract's Pick.event); names localized at render time. */
    event: { type: Mixed, required: true },
    /** featuredDate: the day the pick is featured for; startsAt: its earliest leg's start. */
    ...required({ featuredOrder: Number, featuredDate: String, startsAt: Date }),
    competitionIds: { type: [Number], default: [] },
    regionIds: { type: [Number], default: [] },
    ...nullable({ analysisInsight: Mixed, matchSimulation: Mixed, eventNews: Mixed }),
    ...SettlementFields,
    /** Signature of the legs' outcomes settlement last wrote: the compare-and-set key of pick updates. */
    legsState: { type: String, default: null },
  },
  { collection: 'picks', timestamps: true, minimize: false },
);

/**
 * The pick's main event as stored (shared/domain/ai/picks.ts writes it): the contract's Pick.event
 * with its names still in every locale, its instants as ISO strings.
 */
export interface PickEventDoc {
  id: string;
  homeTeam: { id: number; name: LocalizedText };
  awayTeam: { id: number; name: LocalizedText };
  commenceTime: string;
  startDateTime: string;
  competition: { caption: LocalizedText };
  competitionId: number;
  status: string;
  league: LocalizedText;
}

/** A stored pick as a lean read returns it. */
export type PickDoc = Omit<Lean<InferSchemaType<typeof PickSchema>>, 'event'> & { event: PickEventDoc };
/** One leg of a stored pick. */
export type PickLegDoc = PickDoc['legs'][number];
export const Pick = defineModel('Pick', PickSchema, [
  [
    { startsAt: 1, featuredOrder: 1 },
    { read: 'ai.ts:findFeaturedPicks (startsAt range)', gin: { featuredOrder: 'to review: no read filters on featuredOrder' } },
  ],
  [
    { eventIds: 1, settled: 1 },
    {
      read: 'ai.ts:findPicksOfEventsForSettlement, findPicksOfEvent, findLatestFeaturedPickOfEvent (an event id)',
      gin: { eventIds: 'ai.ts:findPicksOfEventsForSettlement (one equality per event), findPicksOfEvent, findLatestFeaturedPickOfEvent', settled: 'ai.ts:countSettledPicks; to review: a boolean' },
    },
  ],
  [{ featuredDate: 1 }, { read: 'ai.ts:findPicksOfFeaturedDay (the picks rebuild)', gin: { featuredDate: 'ai.ts:findPicksOfFeaturedDay' } }],
]);
