import type { TrackRecordBet } from '../../domain/trackRecord/aggregate';

/** A settled recommendation as the track record counts it. */
export type TrackRecordRow = TrackRecordBet & { _id: string; eventId: string; betItemId: string; createdAt?: Date | null };

/** What the track record reads: the settled recommendations (the chain's head comes from the commitments store). */
export interface TrackRecordStore {
  /** Settled recommendations whose event started at or after `since`, optionally of one sport and confidence, oldest start first. */
  findSettledRecommendations(filter: { since: Date; sportId?: number; confidence?: string }): Promise<TrackRecordRow[]>;
}
