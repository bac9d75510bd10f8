import type { ClosingLine } from '../ingest/closing';
import type { StoredMarket } from '../ingest/stored';

/**
 * An event's odds as they stood at a past instant, folded from its stored price history (one
 * document per reprice holding only the bet items whose consensus moved then: oddshistory,
 * docs/ingestion.md). Pure: GET /v2/matches/{eventId}/odds reads the documents and renders this.
 */

/** One stored reprice: the source's instant and the consensus of each bet item that moved then. */
export interface Reprice {
  at: Date;
  items: readonly { id: string; price: number }[];
}

/** The stored instants around a requested one. */
export interface StoredInstants {
  /** The latest stored instant at or before the requested one; null before the first. */
  capturedAt: Date | null;
  /** The stored instant before `capturedAt`; null when none (or no `capturedAt`). */
  previousAt: Date | null;
  /** The first stored instant after the requested one; null when none yet. */
  nextAt: Date | null;
  /** The first stored instant of the whole history (where it starts, whatever the instant asked); null when nothing is stored. */
  firstAt: Date | null;
}

export interface OddsAt extends StoredInstants {
  /** Each bet item's price at the instant: its latest stored price at or before it. Items not priced by then are absent. */
  prices: Map<string, number>;
}

/** The prices at `at` and the stored instants around it. The history may come in any order. */
export function oddsAt(history: readonly Reprice[], at: Date): OddsAt {
  const t = at.getTime();
  const sorted = [...history].sort((a, b) => a.at.getTime() - b.at.getTime());
  const prices = new Map<string, number>();
  const instants: number[] = [];
  let nextAt: Date | null = null;
  for (const r of sorted) {
    const rt = r.at.getTime();
    if (rt > t) {
      nextAt = r.at;
      break;
    }
    // Two reprices at one instant (not written by ingest, whose id is the instant) count as one instant, the later one's prices winning.
    if (instants[instants.length - 1] !== rt) instants.push(rt);
    for (const item of r.items) prices.set(item.id, item.price);
  }
  const last = instants.length - 1;
  return {
    capturedAt: last >= 0 ? new Date(instants[last]) : null,
    previousAt: last >= 1 ? new Date(instants[last - 1]) : null,
    nextAt,
    firstAt: sorted.length ? sorted[0].at : null,
    prices,
  };
}

/**
 * Why an instant has nothing to serve: it precedes the first stored price (the history starts at
 * `firstAt`), or the event has no stored price at all (never quoted yet). Null when a state is
 * served. An instant after the event ended is not one: its last prices are served, unavailable.
 */
export type NothingStoredReason = 'before_first_capture' | 'no_prices_stored';

export function nothingStoredReason(state: Pick<StoredInstants, 'capturedAt' | 'firstAt'>): NothingStoredReason | null {
  if (state.capturedAt) return null;
  return state.firstAt ? 'before_first_capture' : 'no_prices_stored';
}

/**
 * The event's markets as they stood: each bet item at its price of the instant (`prices`), items
 * not priced by then left out, and markets left with no item left out. `open`: whether the event
 * was still open at the instant (every market closes when it ends); the history records prices,
 * not suspensions, so an item priced at the instant counts as available while the event was open.
 * `markets` are the event's stored markets (a market the source stopped quoting stays stored), so
 * they name every item the history holds.
 */
export function marketsAt(markets: readonly StoredMarket[], prices: ReadonlyMap<string, number>, open: boolean): StoredMarket[] {
  const out: StoredMarket[] = [];
  for (const m of markets) {
    const betItems = m.betItems.flatMap((it) => {
      const price = prices.get(it.id);
      return price === undefined ? [] : [{ id: it.id, code: it.code, price, isAvailable: open }];
    });
    if (betItems.length) out.push({ id: m.id, betTypeSysname: m.betTypeSysname, line: m.line, betItems });
  }
  return out;
}

/** Whether an event that ended at `endedAt` (null: not ended) was still open at `at`. */
export const openAt = (endedAt: Date | null | undefined, at: Date): boolean => !endedAt || at.getTime() < endedAt.getTime();

/**
 * The closing line served at `at`: the one captured at kickoff, once the event had started at or
 * before `at` (null before kickoff, and for an event that has none: first seen already started).
 */
export function closingLineAt(line: ClosingLine | null | undefined, startedAt: Date | null | undefined, at: Date): ClosingLine | null {
  if (!line || !startedAt || startedAt.getTime() > at.getTime()) return null;
  return line;
}

/** A closing line's markets in the stored markets' shape: every outcome as quoted at the close, at its consensus. */
export function closingMarkets(line: ClosingLine): StoredMarket[] {
  return line.markets.map((m) => ({
    id: m.id,
    betTypeSysname: m.betTypeSysname,
    line: m.line,
    betItems: m.betItems.map((it) => ({ id: it.id, code: it.code, price: it.price, isAvailable: true })),
  }));
}
