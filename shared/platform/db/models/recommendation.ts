import { Schema, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';
import { defineModel, nullable, required, type Lean } from './define';

export const CONFIDENCES = ['High', 'Medium', 'Low'] as const;
export const RESULTS = ['won', 'lost', 'push'] as const;
export const RESULT_DETAILS = ['won', 'lost', 'push', 'half_won', 'half_lost'] as const;

/** The earlier grading of a bet whose event's result was corrected. */
const CorrectionSchema = new Schema(
  {
    previousResult: { type: String, enum: RESULTS },
    previousResultDetail: { type: String, enum: RESULT_DETAILS },
    previousReturnPerUnit: Number,
    /** What the regrade says (null when the bet may no longer be settled at all). */
    newResult: { type: String, enum: [...RESULTS, null], default: null },
    newResultDetail: { type: String, enum: [...RESULT_DETAILS, null], default: null },
    newReturnPerUnit: { type: Number, default: null },
    correctedAt: { type: Date, required: true },
    resultVersion: Number,
    reason: String,
  },
  { _id: false },
);

/** Shared by recommendations and picks: settlement writes these fields, once per resultVersion. */
export const SettlementFields = {
  settled: { type: Boolean, default: false },
  result: { type: String, enum: [...RESULTS, null], default: null },
  resultDetail: { type: String, enum: [...RESULT_DETAILS, null], default: null },
  /** settledVersion: which event resultVersion this grading is of; a correction bumps it. */
  ...nullable({ returnPerUnit: Number, actualReturn: Number, settlementDate: Date, settledVersion: Number }),
  corrections: { type: [CorrectionSchema], default: [] },
  /**
   * Result writes this bet has had: the first settlement and each correction that changed it.
   * Incremented in the same conditional update, so it is the audit of exactly-once settlement
   * (settlementWrites = 1 + corrections.length, whatever retried or crashed).
   */
  settlementWrites: { type: Number, default: 0 },
  /** Why it settled that way (grading reasonCode: graded, void_abandoned, missing_corners, ...). */
  ...nullable({ reasonCode: String, reason: String }),
  /** Set when the bet itself cannot be graded (GradingError): left unsettled for review, not retried in a loop. */
  settlementError: { type: new Schema({ code: String, message: String, resultVersion: Number, at: Date }, { _id: false }), default: null },
};

/**
 * One recommendation per event, bet item and price version, written before kickoff and never
 * edited afterwards except by settlement. `_id` is derived from its subject so rewrites collapse.
 */
const RecommendationSchema = new Schema(
  {
    ...required({ _id: String, eventId: String, marketId: String, betItemId: String, betTypeSysname: String, code: String }),
    line: { type: Number, default: null },
    ...required({ sportId: Number, outcome: String, bookmaker: String, odds: Number, probability: Number, fairOdds: Number }),
    confidence: { type: String, enum: CONFIDENCES, required: true },
    ...required({ edgePercentage: Number, kellyFraction: Number }),
    rationale: { type: [LocalizedTextSchema], default: [] },
    riskFactors: { type: [LocalizedTextSchema], default: [] },
    dataSupport: { type: [LocalizedTextSchema], default: [] },
    eventStartAt: { type: Date, required: true },
    /** The outcome as bettors read it, per locale ("Over 2.5", "Más de 2,5"). */
    outcomeLocalized: { type: LocalizedTextSchema, default: null },
    /** The market's view before blending (sharp de-vigged price), and the fair price's standard error. */
    ...nullable({ marketProbability: Number, standardError: Number }),
    /** Probabilities of win, halfWin, push, halfLoss, loss at the time of writing (parlay pricing). */
    distribution: { type: Schema.Types.Mixed, default: null },
    ...nullable({ competitionId: Number, regionId: Number }),
    ...SettlementFields,
    /** Set at settlement from the event's closing line (shared/domain/settlement/clv.ts): the benchmark's closing price of this outcome, and taken odds / de-vigged closing fair odds - 1. */
    closingOdds: { type: Number, default: null },
    clv: { type: Number, default: null },
  },
  { collection: 'recommendations', timestamps: true, minimize: false },
);

/** A stored recommendation as a lean read returns it. */
export type RecommendationDoc = Lean<InferSchemaType<typeof RecommendationSchema>>;
export const Recommendation = defineModel('Recommendation', RecommendationSchema, [
  [
    { eventId: 1, settled: 1 },
    {
      read: 'ai.ts:findRecommendationsOfEventsForSettlement, findTopRecommendationsOfEvent, findRecommendationsOfEvent (an event id)',
      gin: {
        eventId: 'ai.ts:findRecommendationsOfEventsForSettlement (one equality per event), findTopRecommendationsOfEvent, findRecommendationsOfEvent',
        settled: 'ai.ts:distinctEventIdsWithOpenBets (settled false: the settlement sweep); to review: a boolean',
      },
    },
  ],
  [{ edgePercentage: -1 }, { read: 'none left (value opportunities are looked up by id: ai.ts:findRecommendationsByIdsBestEdgeFirst); kept for MongoDB reads by edge' }],
  [{ settlementDate: 1 }, { read: 'ai.ts:findFirstSettledRecommendation (by settlementDate)' }],
  // Performance rollups are recomputed per day of the event's start.
  [{ settled: 1, eventStartAt: 1 }, { read: 'ai.ts:findSettledBetsInRanges, findSettledRecommendationsForTrackRecord (settled, eventStartAt range)' }],
]);
