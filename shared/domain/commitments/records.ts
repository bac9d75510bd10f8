import { type RecommendationPrice, recommendationPrice } from '../ai/eventHeader';
import { canonicalize } from './canonical';
import type { Commitment } from './chain';

/**
 * What a customer sees of each committed thing, in canonical form (docs/track-record.md lists
 * the fields). `v` is the record format's version: a new field means a new `v`, never a
 * different reading of an old record.
 */
export const RECORD_VERSION = 1;

export interface CommittedEvent {
  id: string;
  home: string;
  away: string;
  competition: string;
  startAt: Date;
}

export interface RecommendationForCommit extends RecommendationPrice {
  _id: string;
  sportId: number;
  betTypeSysname: string;
  line?: number | null;
  code: string;
  outcome: string;
  createdAt: Date;
}

export function recommendationCommitment(r: RecommendationForCommit, event: CommittedEvent): Commitment {
  return {
    kind: 'recommendation',
    recordId: r._id,
    record: canonicalize({
      v: RECORD_VERSION,
      type: 'recommendation',
      id: r._id,
      event: { id: event.id, home: event.home, away: event.away, competition: event.competition, startAt: event.startAt },
      sportId: r.sportId,
      market: { type: r.betTypeSysname, line: r.line ?? null },
      outcome: { code: r.code, name: r.outcome },
      ...recommendationPrice(r),
      createdAt: r.createdAt,
    }),
  };
}

export interface PickForCommit {
  _id: string;
  pickType: string;
  legs: readonly { recommendationId: string; eventId: string; market: string; outcome: string; code: string; point: number | null; bookmaker: string; odds: number }[];
  totalOdds: number;
  probability: number;
  confidence: string;
  edgePercentage: number;
  kellyFraction: number;
  startsAt: Date;
}

export function pickCommitment(p: PickForCommit, createdAt: Date): Commitment {
  return {
    kind: 'pick',
    recordId: p._id,
    record: canonicalize({
      v: RECORD_VERSION,
      type: 'pick',
      id: p._id,
      pickType: p.pickType,
      legs: p.legs.map((l) => ({ recommendationId: l.recommendationId, eventId: l.eventId, market: l.market, outcome: l.outcome, code: l.code, point: l.point, bookmaker: l.bookmaker, odds: l.odds })),
      totalOdds: p.totalOdds,
      probability: p.probability,
      confidence: p.confidence,
      edgePercentage: p.edgePercentage,
      kellyFraction: p.kellyFraction,
      startsAt: p.startsAt,
      createdAt,
    }),
  };
}

/** A settled bet as settlement leaves it; closingOdds and clv exist once the closing line is captured. */
export interface SettledForCommit {
  _id: string;
  result: string | null;
  resultDetail?: string | null;
  returnPerUnit?: number | null;
  settledVersion?: number | null;
  settlementDate?: Date | null;
  closingOdds?: number | null;
  clv?: number | null;
}

/**
 * A settlement is a later link of its own, never an edit of the bet's link; a correction (new
 * result version) is another one. Keyed by bet and version, so a retried settlement adds nothing.
 */
export function settlementCommitment(of: 'recommendation' | 'pick', s: SettledForCommit): Commitment {
  const version = s.settledVersion ?? 0;
  return {
    kind: of === 'recommendation' ? 'recommendation-settlement' : 'pick-settlement',
    recordId: `${s._id}@v${version}`,
    record: canonicalize({
      v: RECORD_VERSION,
      type: `${of}-settlement`,
      id: s._id,
      resultVersion: version,
      result: s.result,
      resultDetail: s.resultDetail ?? null,
      returnPerUnit: s.returnPerUnit ?? null,
      closingOdds: of === 'recommendation' ? (s.closingOdds ?? null) : undefined,
      clv: of === 'recommendation' ? (s.clv ?? null) : undefined,
      settledAt: s.settlementDate ?? null,
    }),
  };
}
