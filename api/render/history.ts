import { closingLineAt, closingMarkets, marketsAt, nothingStoredReason, oddsAt, openAt } from '../../shared/domain/events/oddsAt';
import type { Locale } from '../../shared/domain/sports';
import type { OddsHistoryOfEvent } from '../../shared/platform/db/repositories/history';
import { renderMarkets } from './markets';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * GET /v2/matches/{eventId}/odds: the event's markets as they stood at `at`, in the detail view's
 * market shape. `worldNow` is served beside `at` because both are on the world clock, which a
 * demo or replay runs apart from the wall clock: an `at` taken from the wall clock lands
 * elsewhere in the world's history, and the answer shows how far.
 */
export function renderOddsAt(eventId: string, stored: OddsHistoryOfEvent, at: Date, locale: Locale, worldNow: Date) {
  const state = oddsAt(stored.history, at);
  const closing = closingLineAt(stored.closingLine, stored.startedAt, at);
  return {
    eventId,
    dataSource: stored.dataSource,
    at: at.toISOString(),
    worldNow: worldNow.toISOString(),
    capturedAt: iso(state.capturedAt),
    previousAt: iso(state.previousAt),
    nextAt: iso(state.nextAt),
    firstCapturedAt: iso(state.firstAt),
    reason: nothingStoredReason(state),
    markets: renderMarkets(marketsAt(stored.markets, state.prices, openAt(stored.endedAt, at)), eventId, locale, undefined, { detail: true }),
    closingLine: closing && {
      capturedAt: new Date(closing.capturedAt).toISOString(),
      markets: renderMarkets(closingMarkets(closing), eventId, locale, undefined, { detail: true }),
    },
  };
}
