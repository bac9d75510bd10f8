import { Schema, model, type InferSchemaType } from 'mongoose';
import { LocalizedTextSchema } from './common';

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
  returnPerUnit: { type: Number, default: null },
  actualReturn: { type: Number, default: null },
  settlementDate: { type: Date, default: null },
  /** Which event resultVersion this grading is of; a correction bumps it. */
  settledVersion: { type: Number, default: null },
  corrections: { type: [CorrectionSchema], default: [] },
  /**
   * Result writes this bet has had: the first settlement and each correction that changed it.
   * Incremented in the same conditional update, so it is the audit of exactly-once settlement
   * (settlementWrites = 1 + corrections.length, whatever retried or crashed).
   */
  settlementWrites: { type: Number, default: 0 },
  /** Why it settled that way (grading reasonCode: graded, void_abandoned, missing_corners, ...). */
  reasonCode: { type: String, default: null },
  reason: { type: String, default: null },
  /** Set when the bet itself cannot be graded (GradingError): left unsettled for review, not retried in a loop. */
  settlementError: { type: new Schema({ code: String, message: String, resultVersion: Number, at: Date }, { _id: false }), default: null },
};

/**
 * One recommendation per event, bet item and price version, written before kickoff and never
 * edited afterwards except by settlement. `_id` is derived from its subject so rewrites collapse.
 */
const RecommendationSchema = new Schema(
  {
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    marketId: { type: String, required: true },
    betItemId: { type: String, required: true },
    betTypeSysname: { type: String, required: true },
    code: { type: String, required: true },
    line: { type: Number, default: null },
    sportId: { type: Number, required: true },
    outcome: { type: String, required: true },
    bookmaker: { type: String, required: true },
    odds: { type: Number, required: true },
    probability: { type: Number, required: true },
    fairOdds: { type: Number, required: true },
    confidence: { type: String, enum: CONFIDENCES, required: true },
    edgePercentage: { type: Number, required: true },
    kellyFraction: { type: Number, required: true },
    rationale: { type: [LocalizedTextSchema], default: [] },
    riskFactors: { type: [LocalizedTextSchema], default: [] },
    dataSupport: { type: [LocalizedTextSchema], default: [] },
    eventStartAt: { type: Date, required: true },
    /** The outcome as bettors read it, per locale ("Over 2.5", "Más de 2,5"). */
    outcomeLocalized: { type: LocalizedTextSchema, default: null },
    /** The market's view before blending (sharp de-vigged price), and the fair price's standard error. */
    marketProbability: { type: Number, default: null },
    standardError: { type: Number, default: null },
    /** Probabilities of win, halfWin, push, halfLoss, loss at the time of writing (parlay pricing). */
    distribution: { type: Schema.Types.Mixed, default: null },
    competitionId: { type: Number, default: null },
    regionId: { type: Number, default: null },
    ...SettlementFields,
    /** Set at settlement from the event's closing line (shared/settlement/clv.ts): the benchmark's closing price of this outcome, and taken odds / de-vigged closing fair odds - 1. */
    closingOdds: { type: Number, default: null },
    clv: { type: Number, default: null },
  },
  { timestamps: true, collection: 'recommendations', minimize: false },
);
RecommendationSchema.index({ eventId: 1, settled: 1 });
RecommendationSchema.index({ settled: 1, result: 1, createdAt: -1 });
RecommendationSchema.index({ confidence: 1, createdAt: -1 });
RecommendationSchema.index({ edgePercentage: -1 });
RecommendationSchema.index({ settlementDate: 1 });
RecommendationSchema.index({ createdAt: -1 });
// Performance rollups are recomputed per day of the event's start.
RecommendationSchema.index({ settled: 1, eventStartAt: 1 });

export type RecommendationDoc = InferSchemaType<typeof RecommendationSchema>;
export const Recommendation = model('Recommendation', RecommendationSchema);
