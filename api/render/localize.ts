import { LOCALES, localize, type Locale, type LocalizedText } from '../../shared/domain/sports';

const LOCALE_KEYS = new Set<string>(LOCALES);

/** A stored {en, es?, pt?} name (and nothing else). */
export function isLocalizedText(v: unknown): v is LocalizedText {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && 'en' in v && typeof v.en === 'string' && keys.every((k) => LOCALE_KEYS.has(k));
}

/** A name that may be stored localized or as plain text. */
export function text(v: unknown, locale: Locale): string | null {
  if (typeof v === 'string') return v;
  if (isLocalizedText(v)) return localize(v, locale);
  return null;
}

/**
 * Free-form documents written by other workers (insights, simulations, news, a pick's event):
 * every localized name inside is served in the requested locale; dates become ISO strings.
 */
export function localizeDeep(value: unknown, locale: Locale, depth = 0): unknown {
  if (depth > 32 || value === null || value === undefined) return value ?? null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => localizeDeep(v, locale, depth + 1));
  if (typeof value !== 'object') return value;
  if (isLocalizedText(value)) return localize(value, locale);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '_id' || k === '__v') continue;
    out[k] = localizeDeep(v, locale, depth + 1);
  }
  return out;
}
