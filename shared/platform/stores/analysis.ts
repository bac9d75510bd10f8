import type { RecommendationDraft } from '../../domain/ai/analysis/types';
import type { Change } from '../../domain/feed/changes';
import {
  findInsightInputHash,
  findModelFitOfSport,
  findRecommendationsByIds,
  insertRecommendationsIfAbsent,
  setInsightStatusWhereDifferent,
  upsertInsightUnlessNewerAnalysis,
} from '../db/repositories/ai';
import { findEventById } from '../db/repositories/eventForms';
import { publishStaged, recoverStaged, stageChanges } from '../feed/changeFeed';
import { publishAnalysis, publishStarted } from '../opportunities/store';
import { publishRecommendationRows } from '../recommendations/store';
import { publishInsight } from '../insights/store';
import type { InsightAnalysisFields } from '../db/repositories/ai';

/** A recommendation as an analysis first writes it. */
type NewRecommendation = RecommendationDraft & { createdAt: Date };

/** A new recommendation as the change feed announces it (kind `recommendation`, channel recommendations of GET /v2/stream). */
function recommendationChange(r: NewRecommendation): Change {
  return {
    eventId: r.eventId,
    kind: 'recommendation',
    at: r.createdAt,
    data: {
      recommendationId: r._id,
      marketId: r.marketId,
      betItemId: r.betItemId,
      betTypeSysname: r.betTypeSysname,
      code: r.code,
      line: r.line,
      outcome: r.outcome,
      bookmaker: r.bookmaker,
      odds: r.odds,
      probability: r.probability,
      fairOdds: r.fairOdds,
      edgePercentage: r.edgePercentage,
      confidence: r.confidence,
      kellyFraction: r.kellyFraction,
      eventStartAt: r.eventStartAt,
    },
  };
}

/**
 * Insert-only recommendations, each in the betting-recommendations read model once stored (those
 * found stored too), each new one announced on the change feed once stored, at least once: staged under the event's own source before the insert and published after it (the
 * feed's rule: never ahead of the store), and a batch a crash left staged is published by the
 * event's next insert. Those already stored are not announced again.
 */
async function insertAndAnnounce(docs: readonly NewRecommendation[]) {
  if (!docs.length) return [];
  const source = `ai:${docs[0].eventId}`;
  await recoverStaged(source);
  const found = await findRecommendationsByIds(docs.map((d) => d._id));
  const stored = new Set(found.map((r) => String(r._id)));
  const fresh = docs.filter((d) => !stored.has(d._id));
  await stageChanges(source, `${source}-${docs[0].createdAt.getTime()}`, fresh.map(recommendationChange));
  const written = await insertRecommendationsIfAbsent(docs.map((d) => ({ ...d })));
  // What the store holds now, those found stored included: a retry after a crash before this line publishes them.
  await publishRecommendationRows([...found, ...written], 'insert');
  await publishStaged(source);
  return written;
}

/** An insight written unless a newer analysis is stored, then in the insights read model (which keeps the newest it is told of). */
async function writeAndPublishInsight(eventId: string, fields: InsightAnalysisFields): Promise<void> {
  await upsertInsightUnlessNewerAnalysis(eventId, fields);
  await publishInsight(eventId, fields.analysisTimestamp);
}

/**
 * The analysis' store (shared/app/ai/ports.ts; the chain's commit is bound by the context): MongoDB's
 * repositories, the opportunities read model, the change feed.
 */
export function analysisStore() {
  return {
    findEvent: findEventById,
    findFit: findModelFitOfSport,
    findAnalysisMark: findInsightInputHash,
    setInsightStatus: setInsightStatusWhereDifferent,
    insertRecommendations: insertAndAnnounce,
    writeInsight: writeAndPublishInsight,
    publishAnalysis,
    publishStarted,
  };
}
