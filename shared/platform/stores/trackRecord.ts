import { findSettledRecommendationsForTrackRecord } from '../db/repositories/ai';

/** The track record's store (shared/app/trackRecord/ports.ts) on MongoDB. */
export function trackRecordStore() {
  return { findSettledRecommendations: findSettledRecommendationsForTrackRecord };
}
