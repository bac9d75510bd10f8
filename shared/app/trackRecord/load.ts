import { worldNow } from '../../platform/clock/worldClock';
import { DAY_MS } from '../../domain/days';
import { findSettledRecommendationsForTrackRecord } from '../../platform/db/repositories/ai';
import { sportByName } from '../../domain/sports';
import { currentHead, publishedHeads } from '../commitments/read';
import { firstPerOutcome, trackRecord, type TrackRecordBet } from '../../domain/trackRecord/aggregate';

/** The longest window a track record covers (ten years). */
export const MAX_TRACK_RECORD_DAYS = 3650;

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

/** The record of a window as /v2/ai/track-record serves it (and the dashboard shows it): the figures, the chain head and the last published one. */
export async function trackRecordReport(f: TrackRecordFilter) {
  const [{ bets, from, to }, head, published] = await Promise.all([loadTrackRecordBets(f), currentHead(), publishedHeads(1)]);
  return {
    period: { days: f.days, from: from.toISOString(), to: to.toISOString() },
    filters: { sport: f.sport ?? null, confidence: f.confidence ?? null, per: f.per ?? 'recommendation' },
    ...trackRecord(bets),
    head,
    lastPublishedHead: published.heads[0] ?? null,
  };
}

/** The chart's subtitle: the window and filters, and how many bets it draws. */
export function chartSubtitle(f: TrackRecordFilter, bets: number): string {
  return [`last ${f.days} days`, f.sport, f.confidence && `${f.confidence} confidence`, f.per === 'outcome' && 'first bet per outcome', `${bets} settled bets`].filter(Boolean).join(', ');
}
