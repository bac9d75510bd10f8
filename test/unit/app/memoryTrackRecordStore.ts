import type { TrackRecordRow, TrackRecordStore } from '../../../shared/app/trackRecord/ports';

/** The track record's settled recommendations in memory, filtered and ordered as the repository does. */
export class MemoryTrackRecordStore implements TrackRecordStore {
  rows: (TrackRecordRow & { sportId: number })[] = [];

  async findSettledRecommendations(f: { since: Date; sportId?: number; confidence?: string }) {
    return this.rows
      .filter((r) => r.eventStartAt >= f.since && (f.sportId === undefined || r.sportId === f.sportId) && (!f.confidence || r.confidence === f.confidence))
      .sort((a, b) => a.eventStartAt.getTime() - b.eventStartAt.getTime() || (a._id < b._id ? -1 : 1));
  }
}
