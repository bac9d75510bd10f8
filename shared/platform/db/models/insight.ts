import { Schema, type InferSchemaType } from 'mongoose';
import type { InsightDraft } from '../../../domain/ai/analysis/types';
import { defineModel, nullable, required } from './define';

const { Mixed } = Schema.Types;

/** The processed insight of one event (the contract's processed insight); `_id` is the event id. */
const InsightSchema = new Schema(
  {
    ...required({ _id: String, eventId: String, status: String, startDateTime: Date }),
    teamSearch: { type: [String], default: [] },
    marketEfficiencyScore: { type: Number, required: true },
    valueOpportunities: { type: Mixed, default: { recommendations: [] } },
    riskFactors: { type: Mixed, default: [] },
    aiNotes: { type: Mixed, default: null },
    event: { type: Mixed, required: true },
    ...nullable({ analysisInsight: Mixed, matchSimulation: Mixed }),
    analysisTimestamp: { type: Date, required: true },
    ...nullable({ sportId: Number, competitionId: Number, regionId: Number }),
    /** Hash of the analysis inputs (prices, fit): the same inputs are not analysed twice. */
    inputHash: { type: String, default: null },
    /** The recommendations current at the last pre-kickoff analysis (value opportunities). */
    recommendationIds: { type: [String], default: [] },
  },
  { collection: 'insights', timestamps: true, minimize: false },
);

/** The analysis' own fields, stored as the AI worker wrote them (shared/domain/ai/analysis/types.ts); the nullable ones null until written. */
type AnalysisFields = Pick<InsightDraft, 'valueOpportunities' | 'riskFactors' | 'event'> & {
  aiNotes: InsightDraft['aiNotes'] | null;
  analysisInsight: InsightDraft['analysisInsight'] | null;
  matchSimulation: InsightDraft['matchSimulation'] | null;
};

/** A stored processed insight as a lean read returns it. */
export type InsightDoc = Omit<InferSchemaType<typeof InsightSchema>, keyof AnalysisFields> & AnalysisFields;
export const Insight = defineModel('Insight', InsightSchema, [
  [
    { status: 1, startDateTime: 1 },
    {
      read: "ai.ts:findInsightsBatchByStart (status $in, by start), findUpcomingInsightsOpportunityRows (status 'upcoming', start range)",
      gin: {
        status: "ai.ts:findUpcomingInsightsOpportunityRows (status 'upcoming'); to review: selective only while finished insights outnumber upcoming ones",
      },
    },
  ],
  [{ teamSearch: 1 }, { read: 'ai.ts:findInsightsBatchByStart (teamSearch $in)', gin: { teamSearch: 'to review: its one read is a $in, which FerretDB does not push down' } }],
]);
