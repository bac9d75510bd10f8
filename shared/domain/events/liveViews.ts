import { phaseText } from '../i18n/phases';
import { lineText, marketType } from '../markets/catalog';
import type { EventStats } from '../stats';

/**
 * The contract's live forms, built at read time from what ingest stores apart (pure): the flat
 * live stats with their live bet items (GET /matches/live) and one provider's live-odds snapshot
 * (GET /matches/{id}/live-odds, the detail view). Ingest writes an event's prices only when they
 * move and its live data only when the score, phase, detail or clock track change; the
 * provider's freshness (the instant of its last complete poll) is written once per poll. So the
 * instant a snapshot describes is the provider's freshness, a price's change "since the previous
 * snapshot" is its move when that move happened at that instant (else 0), and a running clock is
 * read at that instant from its last reading and rate.
 */

export interface ViewBetItem {
  id: string;
  code: string;
  price: number;
  isAvailable?: boolean | null;
  bookPrices?: Record<string, number> | null;
}

export interface ViewMarket {
  id: string;
  betTypeSysname: string;
  line?: number | null;
  betItems: ViewBetItem[];
}

/** One bet item's prices before a move. */
export interface PreviousPrices {
  id: string;
  price?: number | null;
  bookPrices?: Record<string, number | null>;
}

const previousById = (prices: PricesView) => new Map((prices.previous ?? []).map((p) => [p.id, p]));

/** An event's stored prices (EventPrices). */
export interface PricesView {
  dataSource: string;
  markets: ViewMarket[];
  /** Each bet item that moved at `movedAt`, with its prices before (a null price: unknown). */
  previous?: readonly PreviousPrices[] | null;
  movedAt: Date;
}

/** An event's stored live data (LiveEventData), the fields the views read. */
export type LiveDataView = Partial<EventStats> & {
  phaseSysname?: string | null;
  isLive?: boolean | null;
  isInPlay?: boolean | null;
  elapsedSeconds?: number | null;
  elapsedAt?: Date | null;
  clockRate?: number | null;
};

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The instant the latest snapshot describes: the provider's freshness, or (none recorded) the prices' own last move. */
export function snapshotInstant(prices: Pick<PricesView, 'movedAt'>, freshness: Date | null): Date;
export function snapshotInstant(prices: Pick<PricesView, 'movedAt'> | null, freshness: Date | null): Date | null;
export function snapshotInstant(prices: Pick<PricesView, 'movedAt'> | null, freshness: Date | null): Date | null {
  return freshness ?? prices?.movedAt ?? null;
}

/** A price's change since the previous snapshot: its move if that happened at `at`, else 0; null when the price before is unknown. */
function changeOf(price: number, before: number | null | undefined, movedAt: Date, at: Date): number | null {
  if (movedAt.getTime() !== at.getTime()) return 0;
  if (before === undefined) return 0;
  if (before === null) return null;
  return round2(price - before);
}

function itemCaption(sysname: string, code: string, line: number | null): string {
  const type = marketType(sysname);
  const outcome = type?.outcomes.find((o) => o.code === code)?.caption.en ?? code;
  return type && line !== null && (type.kind === 'total' || type.kind === 'handicap') ? `${outcome} ${lineText(type.kind, line, code)}` : outcome;
}

/** The game clock at `at`: its last reading, run on at its rate while in play. */
export function clockAt(live: Pick<LiveDataView, 'elapsedSeconds' | 'elapsedAt' | 'clockRate' | 'isInPlay'>, at: Date): number | null {
  if (live.elapsedSeconds === null || live.elapsedSeconds === undefined) return null;
  if (!live.isInPlay || live.clockRate === null || live.clockRate === undefined || !live.elapsedAt) return live.elapsedSeconds;
  return Math.round(live.elapsedSeconds + (live.clockRate * Math.max(0, at.getTime() - live.elapsedAt.getTime())) / 1000);
}

const COUNT_KEYS = ['homeGoals', 'awayGoals', 'homeCorners', 'awayCorners', 'homeYellowCards', 'awayYellowCards', 'homeRedCards', 'awayRedCards'] as const;

/**
 * The flat live stats of a live event (null before its first live data): counts and phase from
 * the live data, the clock and referenceTime at the provider's freshness, every price of the
 * event as a live bet item.
 */
export function liveStatsView(eventId: string, live: LiveDataView | null, prices: PricesView | null, freshness: Date | null) {
  if (!live) return null;
  const reference = freshness ?? live.elapsedAt ?? prices?.movedAt ?? null;
  const at = snapshotInstant(prices, freshness);
  const phase = live.phaseSysname ?? 'IN_PROGRESS';
  const text = phaseText(phase);
  const counts = Object.fromEntries(COUNT_KEYS.map((k) => [k, live[k] ?? null]));
  return {
    id: eventId,
    ...counts,
    elapsedSeconds: reference ? clockAt(live, reference) : (live.elapsedSeconds ?? null),
    phaseSysname: phase,
    phaseCaption: text.short,
    phaseCaptionLong: text.long,
    referenceTime: reference ? reference.toISOString() : null,
    isLive: true,
    isInPlay: live.isInPlay ?? true,
    capturedAt: at ? at.toISOString() : null,
    liveBetItems: prices && at ? liveBetItems(prices, at) : [],
  };
}

function liveBetItems(prices: PricesView, at: Date) {
  const ts = String(at.getTime());
  const previous = previousById(prices);
  return prices.markets.flatMap((m) =>
    m.betItems.map((it) => ({
      betItemId: it.id,
      marketId: m.id,
      marketSysname: m.betTypeSysname,
      marketCaption: marketType(m.betTypeSysname)?.name.en ?? m.betTypeSysname,
      code: it.code,
      caption: itemCaption(m.betTypeSysname, it.code, m.line ?? null),
      line: m.line ?? null,
      price: it.price,
      priceChange: changeOf(it.price, previous.get(it.id)?.price, prices.movedAt, at) ?? 0,
      isAvailable: it.isAvailable !== false,
      timestamp: ts,
    })),
  );
}

/** The dataSources an event's prices can be served as: the provider's consensus, then each book, sorted. */
export function snapshotSources(prices: PricesView): string[] {
  const books = new Set<string>();
  for (const m of prices.markets) for (const it of m.betItems) for (const b of Object.keys(it.bookPrices ?? {})) books.add(b);
  books.delete(prices.dataSource);
  return [prices.dataSource, ...[...books].sort()];
}

/**
 * One dataSource's live-odds snapshot: the provider's consensus under its own name, or one book's
 * prices; null when that source quotes nothing of the event.
 */
export function snapshotView(prices: PricesView, dataSource: string, freshness: Date | null, stale: boolean) {
  const at = snapshotInstant(prices, freshness);
  const consensus = dataSource === prices.dataSource;
  const previous = previousById(prices);
  let quoted = false;
  const liveMarkets = prices.markets
    .map((m) => ({
      marketId: m.id,
      marketSysname: m.betTypeSysname,
      marketCaption: marketType(m.betTypeSysname)?.name.en ?? m.betTypeSysname,
      line: m.line ?? null,
      betItems: m.betItems.flatMap((it) => {
        const price = consensus ? it.price : it.bookPrices?.[dataSource];
        if (price === undefined || price === null) return [];
        quoted = true;
        const prev = previous.get(it.id);
        const before = prev === undefined ? undefined : consensus ? prev.price : prev.bookPrices?.[dataSource];
        return [{ betItemId: it.id, code: it.code, price, priceChange: changeOf(price, before, prices.movedAt, at), isAvailable: it.isAvailable !== false }];
      }),
    }))
    .filter((m) => m.betItems.length > 0);
  if (!quoted && !consensus) return null;
  return { dataSource, capturedAt: at, stale, liveMarkets };
}
