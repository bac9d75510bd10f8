import { worldNow } from '../clock/worldClock';
import { DAY_MS } from '../days';
import { findSettledRecommendationsForTrackRecord } from '../db/repositories/ai';
import { sportByName } from '../sports';
import { firstPerOutcome, type TrackRecordBet } from './aggregate';

export interface TrackRecordFilter {
  days: number;
  sport?: string;
  confidence?: string;
  /** recommendation: every settled recommendation; outcome: the first of each outcome of an event. */
  per?: 'recommendation' | 'outcome';
}

/** The settled recommendations of the window (events started in the last `days` days of the simulated clock), oldest first. */
export async function loadTrackRecordBets(f: TrackRecordFilter, now: Date = worldNow()): Promise<{ bets: TrackRecordBet[]; from: Date; to: Date }> {
  const from = new Date(now.getTime() - f.days * DAY_MS);
  const sportId = f.sport ? sportByName(f.sport)?.id : undefined;
  const rows = await findSettledRecommendationsForTrackRecord({ since: from, sportId, confidence: f.confidence });
  const started = rows.filter((r) => r.eventStartAt <= now);
  return { bets: f.per === 'outcome' ? firstPerOutcome(started) : started, from, to: now };
}
