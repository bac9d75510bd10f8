import { findInsightInputHash, findModelFitOfSport, insertRecommendationsIfAbsent, setInsightStatusWhereDifferent, upsertInsightUnlessNewerAnalysis } from '../../platform/db/repositories/ai';
import { findEventById } from '../../platform/db/repositories/eventForms';
import { publishAnalysis, publishStarted } from '../../platform/opportunities/store';
import { commitRecommendations } from '../commitments/commit';
import type { AnalysisStore } from './ports';

/** The analysis' store as the process runs it: MongoDB's repositories, the chain, the opportunities read model. */
export function analysisStore(): AnalysisStore {
  return {
    findEvent: findEventById,
    findFit: findModelFitOfSport,
    findAnalysisMark: findInsightInputHash,
    setInsightStatus: setInsightStatusWhereDifferent,
    insertRecommendations: (docs) => insertRecommendationsIfAbsent(docs.map((d) => ({ ...d }))),
    commitRecommendations,
    writeInsight: upsertInsightUnlessNewerAnalysis,
    publishAnalysis,
    publishStarted,
  };
}
