export const LOCALES = ['en', 'es', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
/** A name in every supported locale; English is the fallback. */
export type LocalizedText = { en: string; es?: string | null; pt?: string | null };

/** One value per locale, each made by `f` (in LOCALES order). */
export function perLocale<T>(f: (locale: Locale) => T): Record<Locale, T> {
  return { en: f('en'), es: f('es'), pt: f('pt') };
}

export function localize(text: LocalizedText | undefined, locale: Locale): string {
  if (!text) return '';
  return text[locale] ?? text.en;
}
