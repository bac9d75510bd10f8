import { eventIdOf, type WebhookEvent } from './events';

/**
 * Each event's `data` from what the service stored (pure), with the subject its id is derived
 * from. docs/webhooks.md shows an example of each; api/schemas/webhooks.ts publishes their schemas.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : null);

/** A change feed `recommendation` entry (shared/platform/stores/analysis.ts writes its data) as `recommendation.created`; null when it names no recommendation. */
export function recommendationCreated(change: { eventId: string; at: Date; data: unknown }): WebhookEvent | null {
  if (!isRecord(change.data)) return null;
  const d = change.data;
  const id = str(d.recommendationId);
  if (!id) return null;
  return {
    id: eventIdOf('recommendation.created', id),
    type: 'recommendation.created',
    timestamp: change.at,
    data: {
      id,
      eventId: change.eventId,
      marketId: str(d.marketId),
      betItemId: str(d.betItemId),
      betTypeSysname: str(d.betTypeSysname),
      code: str(d.code),
      line: num(d.line),
      outcome: str(d.outcome),
      bookmaker: str(d.bookmaker),
      odds: num(d.odds),
      probability: num(d.probability),
      fairOdds: num(d.fairOdds),
      edgePercentage: num(d.edgePercentage),
      confidence: str(d.confidence),
      kellyFraction: num(d.kellyFraction),
      eventStartAt: iso(d.eventStartAt),
      createdAt: change.at.toISOString(),
    },
  };
}

/** A settled recommendation as its webhook reads it. */
export interface SettledRecommendationRow {
  _id: string;
  eventId: string;
  betItemId?: string | null;
  code?: string | null;
  outcome?: string | null;
  bookmaker?: string | null;
  odds?: number | null;
  result?: string | null;
  resultDetail?: string | null;
  returnPerUnit?: number | null;
  settledVersion?: number | null;
  settlementDate?: Date | null;
  closingOdds?: number | null;
  clv?: number | null;
}

/**
 * `recommendation.settled`: its result, the return per unit staked and the closing line (the
 * benchmark's closing price of the outcome and the closing-line value), one event per grading:
 * a corrected result (a later settled version) is another event.
 */
export function recommendationSettled(r: SettledRecommendationRow, fallbackAt: Date): WebhookEvent {
  const version = r.settledVersion ?? 0;
  const at = r.settlementDate ?? fallbackAt;
  return {
    id: eventIdOf('recommendation.settled', `${r._id}@${version}`),
    type: 'recommendation.settled',
    timestamp: at,
    data: {
      id: r._id,
      eventId: r.eventId,
      betItemId: r.betItemId ?? null,
      code: r.code ?? null,
      outcome: r.outcome ?? null,
      bookmaker: r.bookmaker ?? null,
      odds: r.odds ?? null,
      result: r.result ?? null,
      resultDetail: r.resultDetail ?? null,
      returnPerUnit: r.returnPerUnit ?? null,
      settledVersion: version,
      settledAt: at.toISOString(),
      closingLine: { closingOdds: r.closingOdds ?? null, clv: r.clv ?? null },
    },
  };
}

type Localized = { en: string } | string | null | undefined;
const english = (t: Localized): string | null => (t === null || t === undefined ? null : typeof t === 'string' ? t : t.en);

/** A stored featured pick as its webhook reads it. */
export interface PickRow {
  _id: string;
  pickType: string;
  featuredDate: string;
  startsAt: Date;
  totalOdds: number;
  probability: number;
  edgePercentage: number;
  confidence: string;
  kellyFraction: number;
  event?: { id?: string; homeTeam?: { name?: Localized }; awayTeam?: { name?: Localized }; startDateTime?: string; competition?: { caption?: Localized } } | null;
  legs: { recommendationId: string; eventId: string; betItemId: string; market: string; outcome: string; code: string; bookmaker: string; odds: number; point?: number | null }[];
  createdAt?: Date | null;
}

/** `pick.created`: the pick, its main event's English names and its legs. */
export function pickCreated(p: PickRow, fallbackAt: Date): WebhookEvent {
  const at = p.createdAt ?? fallbackAt;
  return {
    id: eventIdOf('pick.created', p._id),
    type: 'pick.created',
    timestamp: at,
    data: {
      id: p._id,
      pickType: p.pickType,
      featuredDate: p.featuredDate,
      startsAt: p.startsAt.toISOString(),
      totalOdds: p.totalOdds,
      probability: p.probability,
      edgePercentage: p.edgePercentage,
      confidence: p.confidence,
      kellyFraction: p.kellyFraction,
      event: p.event
        ? {
            id: p.event.id ?? null,
            homeTeam: english(p.event.homeTeam?.name),
            awayTeam: english(p.event.awayTeam?.name),
            competition: english(p.event.competition?.caption),
            startDateTime: p.event.startDateTime ?? null,
          }
        : null,
      legs: p.legs.map((l) => ({
        recommendationId: l.recommendationId,
        eventId: l.eventId,
        betItemId: l.betItemId,
        market: l.market,
        outcome: l.outcome,
        code: l.code,
        bookmaker: l.bookmaker,
        odds: l.odds,
        point: l.point ?? null,
      })),
    },
  };
}

/**
 * `balance.low`, once per low-balance window: the latest top-up's ledger position and the level
 * crossed name it (a top-up or another level is another window), so the sweep that finds the
 * balance still low names the same event again.
 */
export function balanceLow(input: { accountId: string; balance: number; level: number; topUpSeq: number; autoRecharge: { enabled: boolean; threshold: number }; at: Date }): WebhookEvent {
  return {
    id: eventIdOf('balance.low', `${input.accountId}|s${input.topUpSeq}|l${input.level}`),
    type: 'balance.low',
    timestamp: input.at,
    accountId: input.accountId,
    data: { accountId: input.accountId, balance: input.balance, level: input.level, autoRecharge: input.autoRecharge },
  };
}

/** `recharge.succeeded`: one per attempt (its id is the attempt's). */
export function rechargeSucceeded(input: {
  accountId: string;
  attemptId: string;
  credits: number;
  amountCents: number;
  currency: string;
  mode: string;
  chargeId: string | null;
  at: Date;
}): WebhookEvent {
  return {
    id: eventIdOf('recharge.succeeded', input.attemptId),
    type: 'recharge.succeeded',
    timestamp: input.at,
    accountId: input.accountId,
    data: { accountId: input.accountId, attemptId: input.attemptId, credits: input.credits, amountCents: input.amountCents, currency: input.currency, mode: input.mode, chargeId: input.chargeId },
  };
}

/**
 * `recharge.failed`: a declined attempt (`willRetry` with the retry's time after the first), or
 * settings that could not be charged; `autoRechargeDisabled` says whether auto-recharge is off now.
 */
export function rechargeFailed(input: {
  accountId: string;
  /** The attempt, or the window when nothing was charged. */
  subject: string;
  attempt: number | null;
  code: string;
  message: string;
  willRetry: boolean;
  nextAttemptAt: Date | null;
  autoRechargeDisabled: boolean;
  at: Date;
}): WebhookEvent {
  return {
    id: eventIdOf('recharge.failed', input.subject),
    type: 'recharge.failed',
    timestamp: input.at,
    accountId: input.accountId,
    data: {
      accountId: input.accountId,
      attempt: input.attempt,
      code: input.code,
      message: input.message,
      willRetry: input.willRetry,
      nextAttemptAt: input.nextAttemptAt ? input.nextAttemptAt.toISOString() : null,
      autoRechargeDisabled: input.autoRechargeDisabled,
    },
  };
}
