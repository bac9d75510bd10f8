import { hasLine, lineText, marketType } from '../markets/catalog';
import { localize } from '../sports';

/**
 * The names a bet item id carries, read from the market catalog: a stream's price messages name
 * each item as the read API's live forms do (`marketCaption` with the line, `caption` with the
 * line as bettors read it), so a reader needs no catalog of its own. Ids are the catalog's
 * (`<event>-<SYSNAME>[@<line>]-<code>`, shared/domain/markets/catalog.ts).
 */

export interface BetItemNames {
  marketCaption: string;
  caption: string;
}

/** What follows `<event>-`: the sysname, the line if any, the outcome code. */
const ITEM_TAIL = /^([A-Z0-9_]+)(?:@(-?\d+(?:\.\d+)?))?-([A-Z0-9]+)$/;

/** The English names of a bet item of `eventId`; null when the id is not the catalog's form or names no catalog market. */
export function betItemNames(eventId: string, itemId: string): BetItemNames | null {
  const m = itemId.startsWith(`${eventId}-`) ? ITEM_TAIL.exec(itemId.slice(eventId.length + 1)) : null;
  if (!m) return null;
  const [, sysname, lineRaw, code] = m;
  const type = marketType(sysname);
  const outcome = type?.outcomes.find((o) => o.code === code);
  if (!type || !outcome) return null;
  const line = lineRaw === undefined ? null : Number(lineRaw);
  const withLine = hasLine(type) && line !== null;
  const name = localize(type.name, 'en');
  const base = localize(outcome.caption, 'en');
  return {
    marketCaption: withLine ? `${name} ${lineText(type.kind, line)}` : name,
    caption: withLine ? `${base} ${lineText(type.kind, line, code)}` : base,
  };
}
