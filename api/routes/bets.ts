import { findClosingValuesOfRecommendations, findPicksOfEvent, findRecommendationsOfEvent } from '../../shared/platform/db/repositories/ai';
import { findEventWithoutMarketsById, findLiveEventDataOfEvent, findPriceHistoryOfItem } from '../../shared/platform/db/repositories/events';
import { findSettledVersion } from '../../shared/platform/db/repositories/eventSettlements';
import { NO_CLOSING, pickClosingValue, type ClosingValue } from '../../shared/domain/settlement/clv';
import { settlementState, settlementStats } from '../../shared/domain/settlement/state';
import { ApiError, notFound } from '../errors';
import { oddsMovementParams, oddsMovementQuery, settleBetParams, settleBetQuery, settlementResponses } from '../schemas/settlement';
import { route } from './route';
import type { Answer, Infer, Route, RouteContext } from './spec';

type Locale = 'en' | 'es' | 'pt';
type Localized = { en: string; es?: string | null; pt?: string | null };
const localize = (t: Localized | undefined, locale: Locale) => (t ? (t[locale] ?? t.en) : undefined);

const SETTLEMENT_KEYS = ['settled', 'result', 'resultDetail', 'returnPerUnit', 'actualReturn', 'settlementDate', 'reasonCode', 'reason', 'corrections', 'settlementError'] as const;

function settlementOf(doc: object) {
  const out: Record<string, unknown> = {};
  for (const k of SETTLEMENT_KEYS) out[k] = Reflect.get(doc, k) ?? (k === 'corrections' ? [] : k === 'settled' ? false : null);
  return out;
}

/** A stored free-form document (mixed): served when it is an object. */
const recordOr = (v: unknown, fallback: Record<string, unknown>): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : fallback;

const RESULTS = ['won', 'lost', 'push'] as const;
const RESULT_DETAILS = ['won', 'lost', 'push', 'half_won', 'half_lost'] as const;
/** A stored grading as the schema's enum (a stored value is always one of them). */
const oneOf = <T extends string>(values: readonly T[], v: string | null | undefined): T | null => values.find((x) => x === v) ?? null;

function tally(items: { settled?: boolean | null; result?: string | null }[]) {
  const count = (r: string) => items.filter((i) => i.settled && i.result === r).length;
  const settled = items.filter((i) => i.settled).length;
  return { total: items.length, settled, unsettled: items.length - settled, won: count('won'), lost: count('lost'), push: count('push') };
}

const HISTORY_LIMIT = 5000;

type Context<Q, P, K extends keyof typeof settlementResponses> = RouteContext<Infer<Q>, Infer<P>, Infer<(typeof settlementResponses)[K]>>;

async function settleBet({
  query: { locale },
  params: { eventId },
  json,
}: Context<typeof settleBetQuery, typeof settleBetParams, 'settleBet'>): Promise<Answer<Infer<(typeof settlementResponses)['settleBet']>>> {
  const event = await findEventWithoutMarketsById(eventId);
  if (!event) throw notFound(`Event ${eventId} not found`);
  const [led, recs, picks, marker] = await Promise.all([findLiveEventDataOfEvent(eventId), findRecommendationsOfEvent(eventId), findPicksOfEvent(eventId), findSettledVersion(eventId)]);
  // A parlay's other legs are recommendations of other events: their closing values are read by id.
  const legIds = [...new Set(picks.flatMap((p) => p.legs.map((l) => l.recommendationId)))];
  const closing = new Map<string, ClosingValue>((await findClosingValuesOfRecommendations(legIds)).map((r) => [r._id, { closingOdds: r.closingOdds ?? null, clv: r.clv ?? null }]));
  const closingOf = (id: string): ClosingValue => closing.get(id) ?? NO_CLOSING;
  const state = settlementState(event);
  const { stats, source } = settlementStats(led, event.stats);
  const resultVersion = event.resultVersion ?? 0;
  const settledVersion = marker?.settledVersion ?? null;
  const settlementStateName = state.kind === 'ended' ? (settledVersion !== null && settledVersion >= resultVersion ? 'settled' : 'awaiting') : state.kind;
  return json({
    data: {
      eventId,
      status: event.status,
      voided: Boolean(event.voided),
      startDateTime: event.startDateTime,
      startedAt: event.startedAt ?? null,
      endedAt: event.endedAt ?? null,
      homeTeam: { id: event.homeTeam.id, name: localize(event.homeTeam.name, locale) },
      awayTeam: { id: event.awayTeam.id, name: localize(event.awayTeam.name, locale) },
      settlement: {
        state: settlementStateName,
        endState: state.kind === 'ended' ? state.endState : null,
        resultVersion,
        settledVersion,
        settledAt: marker?.settledAt ?? null,
      },
      finalResult: state.kind === 'ended' && stats ? { ...stats } : null,
      statsSource: source,
      liveEventData: led
        ? {
            eventId: led.eventId,
            ...settlementStats(led, null).stats,
            phaseSysname: led.phaseSysname ?? null,
            isLive: Boolean(led.isLive),
            liveDataJson: recordOr(led.liveDataJson, {}),
            updatedAt: 'updatedAt' in led && led.updatedAt instanceof Date ? led.updatedAt : null,
          }
        : null,
      recommendations: recs.map((r) => ({
        id: r._id,
        eventId: r.eventId,
        marketId: r.marketId,
        betItemId: r.betItemId,
        betTypeSysname: r.betTypeSysname,
        code: r.code,
        line: r.line ?? null,
        outcome: r.outcome,
        bookmaker: r.bookmaker,
        odds: r.odds,
        confidence: r.confidence,
        edgePercentage: r.edgePercentage,
        ...settlementOf(r),
        closingOdds: r.closingOdds ?? null,
        clv: r.clv ?? null,
      })),
      picks: picks.map((p) => ({
        id: p._id,
        pickType: p.pickType,
        totalOdds: p.totalOdds,
        confidence: p.confidence,
        edgePercentage: p.edgePercentage,
        ...settlementOf(p),
        ...pickClosingValue(p.legs.map((l) => closingOf(l.recommendationId))),
        legs: p.legs.map((l) => ({
          recommendationId: l.recommendationId,
          eventId: l.eventId,
          market: l.market,
          outcome: l.outcome,
          odds: l.odds,
          point: l.point ?? null,
          result: oneOf(RESULTS, l.result),
          resultDetail: oneOf(RESULT_DETAILS, l.resultDetail),
          returnPerUnit: l.returnPerUnit ?? null,
          ...closingOf(l.recommendationId),
        })),
      })),
      summary: { recommendations: tally(recs), picks: tally(picks) },
    },
  });
}

async function oddsMovement({
  query: q,
  params: { betItemId },
  json,
  app,
}: Context<typeof oddsMovementQuery, typeof oddsMovementParams, 'oddsMovement'>): Promise<Answer<Infer<(typeof settlementResponses)['oddsMovement']>>> {
  const dataSource = q.dataSource ?? app.config.PROVIDERS[0];
  const all = await findPriceHistoryOfItem(betItemId);
  const points = all.filter((p) => p.dataSource === dataSource);
  const newest = points.slice(-(HISTORY_LIMIT + 1)).reverse();
  if (newest.length === 0) {
    const sources = [...new Set(all.map((p) => p.dataSource))].sort();
    const extra = sources.length ? { dataSources: sources } : {};
    const hint = sources.length ? `; history exists for dataSource ${sources.join(', ')}` : '';
    throw new ApiError('NOT_FOUND', `No odds history for bet item ${betItemId} from dataSource ${dataSource}${hint}`, extra);
  }
  const truncated = newest.length > HISTORY_LIMIT;
  const rows = newest.slice(0, HISTORY_LIMIT).reverse();
  const first = truncated ? points[0] : rows[0];
  const last = rows[rows.length - 1];
  const prices = rows.map((r) => r.price).concat(first.price);
  const change = Math.round((last.price - first.price) * 10000) / 10000;
  return json({
    data: {
      betItemId,
      eventId: last.eventId,
      dataSource,
      opening: { price: first.price, at: first.at },
      current: { price: last.price, at: last.at },
      min: Math.min(...prices),
      max: Math.max(...prices),
      change,
      changePercent: Math.round(((last.price - first.price) / first.price) * 10000) / 100,
      points: truncated ? points.length : rows.length,
      history: rows.map((r) => ({ price: r.price, at: r.at })),
      truncated,
    },
  });
}

/** /v2/bets: an event's settlement, and a bet item's price history (mounted and documented by spec.ts). */
export function betsRoutes(): Route[] {
  return [
    route({
      path: '/bets/events/{eventId}/settle-bet',
      price: '/v2/bets/events/{eventId}/settle-bet',
      operationId: 'settleBet',
      summary: 'Settlement of an event',
      description:
        "The event's settlement state (pending, unplayed, awaiting, settled) and result version, the final counts it was graded from and their source, " +
        'its LiveEventData, and every recommendation and pick on the event with its grading (result, half results, return per unit, corrections), with totals. ' +
        '404 when the event does not exist.',
      tag: 'Settlement',
      auth: 'key',
      params: settleBetParams,
      query: settleBetQuery,
      response: settlementResponses.settleBet,
      errors: [404],
      handler: settleBet,
    }),
    route({
      path: '/bets/bet-items/{betItemId}/odds-movement',
      price: '/v2/bets/bet-items/{betItemId}/odds-movement',
      operationId: 'oddsMovement',
      summary: 'Odds movement of a bet item',
      description:
        'Price history of one bet item at one provider (dataSource), oldest first: opening, current, min, max and change. ' +
        `At most the latest ${HISTORY_LIMIT} changes are listed (truncated says when there are older ones). ` +
        '404 when that provider has no history for the item; the error then carries dataSources, the providers that do.',
      tag: 'Settlement',
      auth: 'key',
      params: oddsMovementParams,
      query: oddsMovementQuery,
      response: settlementResponses.oddsMovement,
      errors: [404],
      handler: oddsMovement,
    }),
  ];
}
