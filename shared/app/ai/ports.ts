import type { InsightDraft, RecommendationDraft } from '../../domain/ai/analysis/types';
import type { SportFitParams } from '../../domain/ai/sportFit';
import type { CommittedEvent, RecommendationForCommit } from '../../domain/commitments/records';
import type { StoredEvent, StoredMarket } from '../../domain/ingest/stored';

/** The stored event as the analysis reads it (its prices joined in). */
export type AnalysedEventRow = Pick<StoredEvent, '_id' | 'status' | 'startDateTime' | 'sportId' | 'dataSource' | 'homeTeam' | 'awayTeam' | 'competition' | 'competitionId' | 'regionId'> & {
  markets: StoredMarket[];
};

/** A sport's stored fit as the analysis reads it (written by the refit job). */
export interface StoredFitRow {
  window: string;
  fittedAt: Date;
  params?: SportFitParams | null;
  blendWeight?: number | null;
  gamesUsed?: number | null;
  bookRanking?: string[] | null;
}

/** What an analysis writes into its event's insight. */
export type InsightAnalysisFields = InsightDraft & {
  eventId: string;
  status: string;
  startDateTime: Date;
  sportId: number;
  competitionId: number;
  regionId: number;
  teamSearch: string[];
  recommendationIds: string[];
  analysisTimestamp: Date;
  inputHash: string;
};

/** What an event's stored insight says of the analysis it holds (null fields: not written). */
export interface StoredAnalysisMark {
  inputHash?: string | null;
  status?: string | null;
  analysisTimestamp?: Date | null;
  recommendationIds?: string[] | null;
}

/** A recommendation as an analysis first writes it. */
export type NewRecommendation = RecommendationDraft & { settled: false; result: null; createdAt: Date; updatedAt: Date };

/**
 * What the analysis of an event reads and writes. The process binds it to the repositories, the
 * commitments chain and the opportunities read model (./store.ts); unit tests to memory.
 */
export interface AnalysisStore {
  /** The event with its prices; null when it does not exist. */
  findEvent(eventId: string): Promise<AnalysedEventRow | null>;
  findFit(sportId: number): Promise<StoredFitRow | null>;
  /** The input hash, status, time and recommendations of the event's stored analysis; null when it has none. */
  findAnalysisMark(eventId: string): Promise<StoredAnalysisMark | null>;
  /** The insight's status follows the event's (written only where it differs). */
  setInsightStatus(eventId: string, status: string): Promise<void>;
  /** Insert-only: a stored id stays untouched. Returns the documents this call inserted, as stored. */
  insertRecommendations(docs: readonly NewRecommendation[]): Promise<RecommendationForCommit[]>;
  /** Commits the stored recommendations of `ids` to the commitments chain (`written`: those just inserted). */
  commitRecommendations(ids: readonly string[], event: CommittedEvent, written: readonly RecommendationForCommit[]): Promise<unknown>;
  /** Writes the event's insight unless a newer analysis is stored. */
  writeInsight(eventId: string, fields: InsightAnalysisFields): Promise<void>;
  /** The opportunities read model hears of the analysis of `analysedAt`. */
  publishAnalysis(eventId: string, analysedAt: Date, recommendationIds: readonly string[]): Promise<void>;
  /** The opportunities read model hears the event started (or was called off) at `at`. */
  publishStarted(eventId: string, at: Date): Promise<void>;
}
