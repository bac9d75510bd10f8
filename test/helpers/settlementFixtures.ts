/**
 * Builds what ingest and the AI worker would have stored for settlement to act on: ended events
 * with their LiveEventData, recommendations and picks, written straight through the models.
 */
import { findRecommendationsByIds } from '../../shared/platform/db/repositories/ai';
import { findEventById } from '../../shared/platform/db/repositories/eventForms';
import { insertSeedDocuments } from '../../shared/platform/db/repositories/fixtures';
import { forgetRecommendations } from '../../shared/platform/recommendations/store';
import type { ClosingLine } from '../../shared/domain/ingest/closing';
import type { EventStats } from '../../shared/domain/stats';

export const FINAL_2_1: EventStats = {
  homeGoals: 2,
  awayGoals: 1,
  homeGoalsFirstHalf: 1,
  awayGoalsFirstHalf: 0,
  homeCorners: 7,
  awayCorners: 3,
  homeYellowCards: 2,
  awayYellowCards: 3,
  homeRedCards: 0,
  awayRedCards: 1,
};

let seq = 0;
/** A numeric event id unique within the test run (each run has its own database). */
export function nextEventId(): string {
  seq += 1;
  return String(700000 + seq);
}

export interface EventSpec {
  id?: string;
  sportId?: number;
  status?: 'upcoming' | 'live' | 'completed' | 'postponed' | 'cancelled';
  voided?: boolean;
  /** Whether the event kicked off (startedAt set); default true unless upcoming. */
  started?: boolean;
  start?: Date;
  /** When it ended; default an hour ago (well past the settlement delay). */
  endedAt?: Date | null;
  /** LiveEventData counts; null = no LiveEventData document at all. Default FINAL_2_1. */
  led?: Partial<EventStats> | null;
  /** Event.stats (list-view final counts); default the same counts as the LiveEventData. */
  eventStats?: Partial<EventStats> | null;
  resultVersion?: number;
  /** Event.closingLine as ingest captures it at kickoff; default none. */
  closingLine?: ClosingLine | null;
}

/** A closing line of the match-result market only, Pinnacle's prices as given (bet item ids as createRecommendations writes them). */
export function matchResultClosingLine(eventId: string, pinnacle: [number, number, number], at = new Date(Date.now() - 3 * 3600_000)): ClosingLine {
  return {
    capturedAt: at,
    markets: [
      {
        id: `${eventId}-SOCCER_MATCH_RESULT`,
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        line: null,
        betItems: ['1', 'X', '2'].map((code, i) => ({ id: `${eventId}-SOCCER_MATCH_RESULT-${code}`, code, price: pinnacle[i], bookPrices: { pinnacle: pinnacle[i] } })),
      },
    ],
  };
}

export interface BetSpec {
  key: string;
  betTypeSysname: string;
  code: string;
  line?: number | null;
  odds?: number;
  confidence?: 'High' | 'Medium' | 'Low';
  edgePercentage?: number;
  /** When the AI worker wrote it (world time); default: not set. */
  createdAt?: Date;
}

export const recId = (eventId: string, key: string) => `rec-${eventId}-${key}`;

export async function createEvent(spec: EventSpec = {}): Promise<string> {
  const id = spec.id ?? nextEventId();
  const status = spec.status ?? 'completed';
  const start = spec.start ?? new Date(Date.now() - 3 * 3600_000);
  const started = spec.started ?? status !== 'upcoming';
  const led = spec.led === undefined ? FINAL_2_1 : spec.led;
  const eventStats = spec.eventStats === undefined ? led : spec.eventStats;
  await insertSeedDocuments('events', [
    {
      _id: id,
      sportId: spec.sportId ?? 1,
      competitionId: 1,
      regionId: 1,
      homeTeam: { id: 1, name: { en: 'Home FC', es: 'Local FC' } },
      awayTeam: { id: 2, name: { en: 'Away FC', es: 'Visitante FC' } },
      competition: { id: 1, name: { en: 'League' } },
      region: { id: 1, name: { en: 'England' } },
      startDateTime: start,
      startedAt: started ? start : null,
      endedAt: spec.endedAt === undefined ? (status === 'upcoming' || status === 'live' ? null : new Date(Date.now() - 3600_000)) : spec.endedAt,
      status,
      voided: spec.voided ?? false,
      stats: eventStats ? { ...eventStats, phase: 'FT' } : null,
      resultVersion: spec.resultVersion ?? 0,
      closingLine: spec.closingLine ?? null,
      dataSource: 'simulated',
    },
  ]);
  if (led) await insertSeedDocuments('liveEventData', [{ _id: id, eventId: id, ...led, phaseSysname: 'FT', isLive: false, dataSource: 'simulated' }]);
  return id;
}

export async function createRecommendations(eventId: string, bets: BetSpec[], eventStartAt?: Date): Promise<string[]> {
  const event = await findEventById(eventId);
  const start = eventStartAt ?? event!.startDateTime;
  const docs = bets.map((b) => ({
    _id: recId(eventId, b.key),
    eventId,
    marketId: `${eventId}-${b.betTypeSysname}${b.line === undefined || b.line === null ? '' : `@${b.line}`}`,
    betItemId: `${eventId}-${b.betTypeSysname}${b.line === undefined || b.line === null ? '' : `@${b.line}`}-${b.code}`,
    betTypeSysname: b.betTypeSysname,
    code: b.code,
    line: b.line ?? null,
    sportId: event!.sportId,
    outcome: b.code,
    bookmaker: 'simulated',
    odds: b.odds ?? 2,
    probability: 0.5,
    fairOdds: 1.9,
    confidence: b.confidence ?? 'Medium',
    edgePercentage: b.edgePercentage ?? 5,
    kellyFraction: 0.02,
    eventStartAt: start,
    ...(b.createdAt ? { createdAt: b.createdAt } : {}),
  }));
  await insertSeedDocuments('recommendations', docs);
  await forgetRecommendations(); // written behind the list's read model: its next reader rebuilds it
  return docs.map((d) => d._id);
}

/** A pick over existing recommendations (legs copied from them, as the AI worker does). */
export async function createPick(id: string, recommendationIds: string[]): Promise<string> {
  const recs = await findRecommendationsByIds(recommendationIds);
  const ordered = recommendationIds.map((rid) => recs.find((r) => r._id === rid)!);
  const eventIds = [...new Set(ordered.map((r) => r.eventId))];
  await insertSeedDocuments('picks', [
    {
      _id: id,
      pickType: ordered.length === 1 ? 'single' : 'parlay',
      legs: ordered.map((r) => ({
        recommendationId: r._id,
        eventId: r.eventId,
        betItemId: r.betItemId,
        market: r.betTypeSysname,
        outcome: r.outcome,
        code: r.code,
        bookmaker: r.bookmaker,
        odds: r.odds,
        point: r.line ?? null,
        edgePercentage: r.edgePercentage,
        confidence: r.confidence,
      })),
      eventIds,
      totalOdds: ordered.reduce((p, r) => p * r.odds, 1),
      probability: 0.3,
      edgePercentage: 4,
      confidence: 'Medium',
      kellyFraction: 0.01,
      event: { id: eventIds[0] },
      featuredOrder: 1,
      featuredDate: ordered[0].eventStartAt.toISOString().slice(0, 10),
      startsAt: ordered[0].eventStartAt,
    },
  ]);
  return id;
}
