import type { FeedEvent } from '../providers/types';
import type { ClosingLine, PrevEvent, StoredMarket } from './stored';

export type { ClosingBetItem, ClosingLine, ClosingMarket } from './stored';

/*
 * The closing line (stored.ts): at kickoff, each market's last pre-match price per book, kept on
 * the event so settlement can grade every recommendation against it (CLV). Pure.
 */

/**
 * The markets still quoted before kickoff (a market withdrawn earlier, such as a moved handicap
 * line, has no closing price), each with every outcome's consensus and per-book price.
 */
export function closingLineOf(markets: readonly StoredMarket[], capturedAt: Date): ClosingLine {
  return {
    capturedAt,
    markets: markets
      .filter((m) => m.betItems.some((it) => it.isAvailable))
      .map((m) => ({
        id: m.id,
        betTypeSysname: m.betTypeSysname,
        line: m.line,
        betItems: m.betItems.map((it) => ({ id: it.id, code: it.code, price: it.price, bookPrices: { ...(it.bookPrices ?? {}) } })),
      })),
  };
}

/**
 * The closing line to store when this poll sees the event kick off: it was upcoming at the last
 * poll, has started now, and the stored (last pre-match) markets are what the books closed at.
 * Null otherwise, so it is written once, at the transition (an event first seen already
 * started has no closing line).
 */
export function closingAtKickoff(prev: PrevEvent | undefined, prevMarkets: readonly StoredMarket[] | undefined, e: Pick<FeedEvent, 'status' | 'startedAt' | 'startDateTime'>): ClosingLine | null {
  if (!prev || prev.status !== 'upcoming' || e.status === 'upcoming' || !e.startedAt || !prevMarkets?.length) return null;
  const line = closingLineOf(prevMarkets, e.startedAt);
  return line.markets.length ? line : null;
}
