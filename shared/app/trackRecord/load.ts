import { DAY_MS } from '../../domain/days';
import { sportByName } from '../../domain/sports';
import { firstPerOutcome, trackRecord, type TrackRecordBet } from '../../domain/trackRecord/aggregate';
import { currentHead, publishedHeads } from '../commitments/read';
import type { AppContext } from '../context';

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
export async function loadTrackRecordBets(ctx: AppContext, f: TrackRecordFilter): Promise<{ bets: TrackRecordBet[]; from: Date; to: Date }> {
  const now = ctx.clock.worldNow();
  const from = new Date(now.getTime() - f.days * DAY_MS);
  const sportId = f.sport ? sportByName(f.sport)?.id : undefined;
  const rows = await ctx.trackRecord.findSettledRecommendations({ since: from, sportId, confidence: f.confidence });
  const started = rows.filter((r) => r.eventStartAt <= now);
  return { bets: f.per === 'outcome' ? firstPerOutcome(started) : started, from, to: now };
}

/** The record of a window as /v2/ai/track-record serves it (and the dashboard shows it): the figures, the chain head and the last published one. */
export async function trackRecordReport(ctx: AppContext, f: TrackRecordFilter) {
  const [{ bets, from, to }, head, published] = await Promise.all([loadTrackRecordBets(ctx, f), currentHead(ctx), publishedHeads(ctx, 1)]);
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
