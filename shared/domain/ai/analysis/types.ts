import type { LocalizedText } from '../../sports';
import type { DevigMethod } from '../devig';
import type { EventHeader, RecommendationIdentity } from '../eventHeader';
import type { Sentence } from '../narrative';
import type { OutcomeDistribution } from '../pricing';
import type { MatchSimulation } from '../simulate';
import type { SportFitParams } from '../sportFit';
import type { Confidence } from '../staking';

/** The inputs and outputs of one event's analysis (see analyzeEvent in ../eventAnalysis.ts). */
export interface AnalysisBetItem {
  id: string;
  code: string;
  price: number;
  isAvailable?: boolean | null;
  /** dataSource -> decimal odds. */
  bookPrices?: Record<string, number> | null;
}

export interface AnalysisMarket {
  id: string;
  betTypeSysname: string;
  line?: number | null;
  betItems: AnalysisBetItem[];
}

export interface AnalysisEvent extends EventHeader {
  sportId: number;
  dataSource: string;
  markets: AnalysisMarket[];
}

export interface AnalysisFit {
  params: SportFitParams;
  blendWeight: number;
  gamesUsed: number;
  fittedAt: Date;
}

export interface AnalysisOptions {
  minEdge: number;
  /** How a price's margin is taken out (AI_DEVIG); devig's default (Shin) when not given. */
  devigMethod?: DevigMethod;
  now: Date;
  /** Books sharpest first, from the refit's margin history; absent or empty: rank within this event. */
  bookRanking?: readonly string[];
  simulationIterations?: number;
  priceMoveScale?: number;
}

export interface ItemAnalysis {
  marketId: string;
  betItemId: string;
  sysname: string;
  code: string;
  line: number | null;
  selection: Sentence;
  probability: number;
  fairOdds: number;
  distribution: OutcomeDistribution;
  /** The market view (sharp de-vigged where quoted) and the model view, before blending. */
  marketProbability: number | null;
  modelProbability: number | null;
  /** The other books' consensus on this outcome, when there are other books. */
  consensusProbability: number | null;
  quoted: boolean;
  bestBook: string | null;
  bestOdds: number | null;
  books: number;
  edgePercentage: number | null;
  kellyFraction: number;
  standardError: number;
  marginOfSafety: number | null;
  confidence: Confidence | null;
}

export interface RecommendationDraft extends RecommendationIdentity {
  line: number | null;
  sportId: number;
  outcome: string;
  outcomeLocalized: Sentence;
  bookmaker: string;
  odds: number;
  probability: number;
  fairOdds: number;
  marketProbability: number | null;
  distribution: OutcomeDistribution;
  standardError: number;
  confidence: Confidence;
  edgePercentage: number;
  kellyFraction: number;
  rationale: Sentence[];
  riskFactors: Sentence[];
  dataSupport: Sentence[];
  eventStartAt: Date;
  competitionId: number;
  regionId: number;
}

export interface InsightDraft {
  marketEfficiencyScore: number;
  valueOpportunities: { recommendations: { recommendationId: string; betItemId: string; edge: number; market: string; outcome: Sentence; bookmaker: string; odds: number; confidence: Confidence }[] };
  riskFactors: Sentence[];
  aiNotes: Sentence;
  event: { homeTeam: LocalizedText; awayTeam: LocalizedText; commenceTime: string; league: LocalizedText };
  analysisInsight: Record<string, unknown>;
  matchSimulation: MatchSimulation;
}

export interface EventAnalysis {
  items: ItemAnalysis[];
  recommendations: RecommendationDraft[];
  insight: InsightDraft;
  blendWeight: number;
}
