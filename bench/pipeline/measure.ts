import {
  findAllInsightsAnalysisTimestamp,
  findFirstSettledRecommendation,
  findInsightsCreatedAtOfEvents,
  findPicksSettlementOfEvents,
  findRecommendationsSettlementOfEvents,
} from '../../shared/platform/db/repositories/ai';
import { findEventsEndedSince, findEventsStartingBetween } from '../../shared/platform/db/repositories/events';
import { findUpcomingEventsOddsUpdatedAt } from '../../shared/platform/db/repositories/eventForms';
import { spread, type Spread } from './stats';

/**
 * Simulated and real time. Stored event times (startDateTime, endedAt, oddsUpdatedAt, the live
 * stats' referenceTime) are simulated; analysisTimestamp, createdAt and settlementDate are real.
 * The clock is linear with slope SIM_SPEED, so one reading of the provider's feedTime converts
 * both ways.
 */
export interface Clock {
  simOf(realMs: number): number;
  realOf(simMs: number): number;
}

export function linearClock(feedTime: (at: Date) => Date, speed: number): Clock {
  const r0 = Date.now();
  const s0 = feedTime(new Date(r0)).getTime();
  return { simOf: (r) => s0 + (r - r0) * speed, realOf: (s) => r0 + (s - s0) / speed };
}

/**
 * Analysis lag: from a stored pre-match price change (Event.oddsUpdatedAt) to the first analysis
 * of the event at or after it (Insight.analysisTimestamp, simulated like the odds' time). The first poll's prices count too (a
 * fresh start's load). Sampled while the run goes; a change still unanalysed at the end counts
 * with its age then (a lower bound).
 */
export class AnalysisLag {
  private readonly changes = new Map<string, { oddsReal: number; lag?: number }>();
  constructor(
    private readonly clock: Clock,
    private readonly sinceReal: number,
  ) {}

  async sample(): Promise<void> {
    const [events, insights] = await Promise.all([findUpcomingEventsOddsUpdatedAt(), findAllInsightsAnalysisTimestamp()]);
    // analysisTimestamp is the world's (simulated) time, like the odds' capture time.
    const analysedAt = new Map(insights.map((i) => [String(i._id), this.clock.realOf(i.analysisTimestamp.getTime())]));
    for (const e of events) {
      const oddsReal = this.clock.realOf(e.oddsUpdatedAt.getTime());
      if (oddsReal < this.sinceReal) continue;
      const k = `${e._id}|${oddsReal}`;
      const entry = this.changes.get(k) ?? { oddsReal };
      const at = analysedAt.get(String(e._id));
      if (entry.lag === undefined && at !== undefined && at >= oddsReal) entry.lag = at - oddsReal;
      this.changes.set(k, entry);
    }
  }

  result(nowReal: number): { lag: Spread; pending: number } {
    const all = [...this.changes.values()];
    return { lag: spread(all.map((c) => c.lag ?? nowReal - c.oddsReal)), pending: all.filter((c) => c.lag === undefined).length };
  }
}

/**
 * Upcoming events that kicked off in the window, and how many had a first analysis
 * (Insight.createdAt, real) before their kickoff (startDateTime, simulated). Events postponed
 * before they started never kick off and are left out.
 */
export async function analysedBeforeKickoff(clock: Clock, fromReal: number, toReal: number): Promise<{ kickoffs: number; analysed: number; share: number }> {
  const events = await findEventsStartingBetween(new Date(clock.simOf(fromReal)), new Date(clock.simOf(toReal)));
  // By the feed's clock these have kicked off, whatever status a lagging ingest has stored yet.
  const played = events.filter((e) => e.status !== 'cancelled' && (e.status !== 'postponed' || e.startedAt));
  const insights = await findInsightsCreatedAtOfEvents(played.map((e) => e._id));
  const firstAnalysis = new Map(insights.map((i) => [String(i._id), (i as { createdAt?: Date }).createdAt?.getTime() ?? Infinity]));
  const analysed = played.filter((e) => (firstAnalysis.get(String(e._id)) ?? Infinity) < clock.realOf(e.startDateTime.getTime())).length;
  return { kickoffs: played.length, analysed, share: played.length ? analysed / played.length : NaN };
}

/**
 * Settlement lag of the bets (recommendations and picks) of events that ended in the window:
 * settlementDate minus (the event's end + SETTLEMENT_DELAY_MS). Overdue: unsettled more than
 * `graceMs` past that point.
 */
export async function settlementLag(
  clock: Clock,
  fromReal: number,
  nowReal: number,
  delayMs: number,
  graceMs: number,
): Promise<{ lag: Spread; bets: number; settled: number; overdue: number; firstSettledReal: number | null }> {
  const ended = await findEventsEndedSince(new Date(clock.simOf(fromReal)));
  const dueReal = new Map(ended.map((e) => [String(e._id), clock.realOf(e.endedAt!.getTime()) + delayMs]));
  const ids = [...dueReal.keys()];
  const [recs, picks, first] = await Promise.all([findRecommendationsSettlementOfEvents(ids), findPicksSettlementOfEvents(ids), findFirstSettledRecommendation()]);
  const bets = [
    ...recs.map((r) => ({ due: dueReal.get(r.eventId)!, settled: r.settled, at: r.settlementDate })),
    // A pick is due once its last event has ended; picks with an event still running are left out.
    ...picks.filter((p) => p.eventIds.every((id) => dueReal.has(id))).map((p) => ({ due: Math.max(...p.eventIds.map((id) => dueReal.get(id)!)), settled: p.settled, at: p.settlementDate })),
  ];
  const settled = bets.filter((b) => b.settled && b.at);
  return {
    lag: spread(settled.map((b) => b.at!.getTime() - b.due)),
    bets: bets.length,
    settled: settled.length,
    overdue: bets.filter((b) => !b.settled && nowReal - b.due > graceMs).length,
    firstSettledReal: first?.settlementDate ? first.settlementDate.getTime() : null,
  };
}
