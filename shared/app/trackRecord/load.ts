import { DAY_MS } from '../../domain/days';
import { sportByName } from '../../domain/sports';
import { firstPerOutcome, trackRecord, type TrackRecordBet } from '../../domain/trackRecord/aggregate';
import { trackRecordChartSvg, type ChartKind } from '../../domain/trackRecord/charts';
import { currentHead, publishedHeads } from '../commitments/read';
import type { AppContext } from '../context';

/** The longest window a track record covers (ten years). */
export const MAX_TRACK_RECORD_DAYS = 3650;

/** A window: the last `days` days of the world clock, or `all` (every settled recommendation, however old). */
export type TrackRecordDays = number | 'all';

export interface TrackRecordFilter {
  days: TrackRecordDays;
  sport?: string;
  confidence?: string;
  /** recommendation: every settled recommendation; outcome: the first of each outcome of an event. */
  per?: 'recommendation' | 'outcome';
}

/**
 * The settled recommendations of the window (events started in the last `days` days of the
 * simulated clock, or since ever: `from` null), oldest first.
 */
export async function loadTrackRecordBets(ctx: AppContext, f: TrackRecordFilter): Promise<{ bets: TrackRecordBet[]; from: Date | null; to: Date }> {
  const now = ctx.clock.worldNow();
  const from = f.days === 'all' ? null : new Date(now.getTime() - f.days * DAY_MS);
  const sportId = f.sport ? sportByName(f.sport)?.id : undefined;
  const rows = await ctx.trackRecord.findSettledRecommendations({ since: from ?? new Date(0), sportId, confidence: f.confidence });
  const started = rows.filter((r) => r.eventStartAt <= now);
  return { bets: f.per === 'outcome' ? firstPerOutcome(started) : started, from, to: now };
}

/** The record of a window as /v2/ai/track-record serves it: the figures, the chain head and the last published one. */
export async function trackRecordReport(ctx: AppContext, f: TrackRecordFilter) {
  return (await reportAndBets(ctx, f)).report;
}

/**
 * The record as the dashboard shows it: the report and its charts drawn from the same read of the
 * bets, so the headline figures and the charts can never disagree (two reads, while settlements
 * are written, would count different bets).
 */
export async function trackRecordWithCharts(ctx: AppContext, f: TrackRecordFilter) {
  const { report, bets } = await reportAndBets(ctx, f);
  const subtitle = chartSubtitle(f, bets.length);
  const draw = (kind: ChartKind) => trackRecordChartSvg(kind, bets, subtitle);
  return { ...report, charts: { cumulative: draw('cumulative'), clv: draw('clv'), calibration: draw('calibration') } };
}

async function reportAndBets(ctx: AppContext, f: TrackRecordFilter) {
  const [{ bets, from, to }, head, published] = await Promise.all([loadTrackRecordBets(ctx, f), currentHead(ctx), publishedHeads(ctx, 1)]);
  const report = {
    period: { days: f.days, from: from && from.toISOString(), to: to.toISOString() },
    filters: { sport: f.sport ?? null, confidence: f.confidence ?? null, per: f.per ?? 'recommendation' },
    ...trackRecord(bets),
    head,
    lastPublishedHead: published.heads[0] ?? null,
  };
  return { report, bets };
}

/** The chart's subtitle: the window and filters, and how many bets it draws. */
export function chartSubtitle(f: TrackRecordFilter, bets: number): string {
  return [f.days === 'all' ? 'all time' : `last ${f.days} days`, f.sport, f.confidence && `${f.confidence} confidence`, f.per === 'outcome' && 'first bet per outcome', `${bets} settled bets`]
    .filter(Boolean)
    .join(', ');
}
