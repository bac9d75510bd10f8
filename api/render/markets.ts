import { hasLine, lineText, MARKET_TYPES, marketType, type MarketType } from '../../shared/domain/markets/catalog';
import { localize, SPORT_DEFINITIONS, SPORT_IDS, type Locale } from '../../shared/domain/sports';
import { text } from './localize';
import type { StoredMarket } from '../../shared/domain/ingest/stored';

/** Markets of the list and live forms: each sport's own choice (its definition's listMarkets). */
export const LIST_MARKET_TYPES: ReadonlySet<string> = new Set(SPORT_IDS.flatMap((id) => SPORT_DEFINITIONS[id].listMarkets));

/** Markets of the trending form (the contract: only these two). */
export const TRENDING_MARKET_TYPES: ReadonlySet<string> = new Set(['SOCCER_MATCH_RESULT', 'SOCCER_UNDER_OVER']);

const CATALOG_ORDER = new Map(MARKET_TYPES.map((t, i) => [t.sysname, i]));

/** Catalog order, then line: the same event always lists its markets the same way. */
export function sortMarkets<M extends StoredMarket>(markets: readonly M[]): M[] {
  return [...markets].sort(
    (a, b) =>
      (CATALOG_ORDER.get(a.betTypeSysname) ?? 1e6) - (CATALOG_ORDER.get(b.betTypeSysname) ?? 1e6) ||
      a.betTypeSysname.localeCompare(b.betTypeSysname) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.id.localeCompare(b.id),
  );
}

/** Localized outcome caption, with the line as bettors read it ("Over 2.5", "Local -0.5"). */
export function outcomeCaption(type: MarketType | undefined, code: string, line: number | null | undefined, locale: Locale, fallback?: unknown): string {
  const def = type?.outcomes.find((o) => o.code === code);
  if (!type || !def) return text(fallback, locale) ?? code;
  const base = localize(def.caption, locale);
  return hasLine(type) && line !== null && line !== undefined ? `${base} ${lineText(type.kind, line, code)}` : base;
}

/** Localized market name; with `withLine`, the line is appended ("Total Goals Over/Under 2.5"). */
export function marketCaption(sysname: string, locale: Locale, line?: number | null, withLine = false, fallback?: unknown): string {
  const type = marketType(sysname);
  if (!type) return text(fallback, locale) ?? sysname;
  const name = localize(type.name, locale);
  return withLine && hasLine(type) && line !== null && line !== undefined ? `${name} ${lineText(type.kind, line)}` : name;
}

/** The line a catalog market id carries (`<event>-<SYSNAME>@<line>`), when stored without one. */
export function lineFromId(id: string | null | undefined): number | null {
  const m = id ? /@(-?\d+(?:\.\d+)?)(?:-|$)/.exec(id) : null;
  return m ? Number(m[1]) : null;
}

export const oddsText = (price: number) => price.toFixed(2);

export interface RenderMarketOptions {
  /** Detail form: market.eventId and betItems[].marketId. */
  detail?: boolean;
}

export function renderMarket(m: StoredMarket, eventId: string, locale: Locale, opts: RenderMarketOptions = {}) {
  const type = marketType(m.betTypeSysname);
  const line = m.line ?? lineFromId(m.id);
  const withLine = type && hasLine(type) && line !== null;
  return {
    id: m.id,
    ...(opts.detail ? { eventId } : {}),
    betTypeSysname: m.betTypeSysname,
    caption: marketCaption(m.betTypeSysname, locale),
    line: line ?? null,
    betItems: m.betItems.map((b) => ({
      id: b.id,
      ...(opts.detail ? { marketId: m.id } : {}),
      code: b.code,
      caption: outcomeCaption(type, b.code, line, locale),
      ...(withLine ? { instanceCaption: lineText(type.kind, line, b.code) } : {}),
      price: b.price,
      oddsText: oddsText(b.price),
      isAvailable: b.isAvailable !== false,
    })),
  };
}

export function renderMarkets(markets: readonly StoredMarket[] | undefined, eventId: string, locale: Locale, only?: ReadonlySet<string>, opts?: RenderMarketOptions) {
  const chosen = only ? (markets ?? []).filter((m) => only.has(m.betTypeSysname)) : (markets ?? []);
  return sortMarkets(chosen).map((m) => renderMarket(m, eventId, locale, opts));
}
