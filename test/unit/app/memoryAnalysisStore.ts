import type { AnalysedEventRow, AnalysisStore, InsightAnalysisFields, NewRecommendation, StoredAnalysisMark, StoredFitRow } from '../../../shared/app/ai/ports';
import type { CommittedEvent, RecommendationForCommit } from '../../../shared/domain/commitments/records';

/**
 * The analysis' store in memory (shared/app/ai/ports.ts): its writes behave as the repositories'
 * (recommendations insert-only by id, the insight written unless a newer analysis is stored, its
 * status only where it differs), and it records what was committed and published.
 */
export class MemoryAnalysisStore implements AnalysisStore {
  events: AnalysedEventRow[] = [];
  fits = new Map<number, StoredFitRow>();
  insights = new Map<string, StoredAnalysisMark & Partial<InsightAnalysisFields>>();
  recommendations: NewRecommendation[] = [];
  committed: { ids: string[]; event: CommittedEvent; written: string[] }[] = [];
  published: { eventId: string; analysedAt: Date; recommendationIds: string[] }[] = [];
  started: { eventId: string; at: Date }[] = [];
  /** Writes that reached the store, by kind (a skipped write counts nothing). */
  writes = { insights: 0, statuses: 0, recommendations: 0 };

  async findEvent(eventId: string) {
    return this.events.find((e) => e._id === eventId) ?? null;
  }
  async findFit(sportId: number) {
    return this.fits.get(sportId) ?? null;
  }
  async findAnalysisMark(eventId: string) {
    const i = this.insights.get(eventId);
    return i ? { inputHash: i.inputHash, status: i.status, analysisTimestamp: i.analysisTimestamp, recommendationIds: i.recommendationIds } : null;
  }
  async setInsightStatus(eventId: string, status: string) {
    const i = this.insights.get(eventId);
    if (!i || i.status === status) return;
    i.status = status;
    this.writes.statuses++;
  }
  async insertRecommendations(docs: readonly NewRecommendation[]): Promise<RecommendationForCommit[]> {
    const fresh = docs.filter((d) => !this.recommendations.some((r) => r._id === d._id));
    this.recommendations.push(...fresh);
    this.writes.recommendations += fresh.length;
    return fresh;
  }
  async commitRecommendations(ids: readonly string[], event: CommittedEvent, written: readonly RecommendationForCommit[]) {
    this.committed.push({ ids: [...ids], event, written: written.map((r) => r._id) });
  }
  async writeInsight(eventId: string, fields: InsightAnalysisFields) {
    const stored = this.insights.get(eventId)?.analysisTimestamp;
    if (stored && stored > fields.analysisTimestamp) return;
    this.insights.set(eventId, { ...this.insights.get(eventId), ...fields });
    this.writes.insights++;
  }
  async publishAnalysis(eventId: string, analysedAt: Date, recommendationIds: readonly string[]) {
    this.published.push({ eventId, analysedAt, recommendationIds: [...recommendationIds] });
  }
  async publishStarted(eventId: string, at: Date) {
    this.started.push({ eventId, at });
  }
}
