// Sport ids are part of the public API contract (served as each event's sportId): never renumber.
export const SPORTS = [
  { id: 1, sysname: 'soccer', name: { en: 'Soccer', es: 'Fútbol', pt: 'Futebol' }, hasDraw: true },
  { id: 2, sysname: 'basketball', name: { en: 'Basketball', es: 'Baloncesto', pt: 'Basquete' }, hasDraw: false },
  { id: 3, sysname: 'tennis', name: { en: 'Tennis', es: 'Tenis', pt: 'Tênis' }, hasDraw: false },
  { id: 4, sysname: 'baseball', name: { en: 'Baseball', es: 'Béisbol', pt: 'Beisebol' }, hasDraw: false },
  { id: 5, sysname: 'volleyball', name: { en: 'Volleyball', es: 'Voleibol', pt: 'Vôlei' }, hasDraw: false },
  { id: 6, sysname: 'american-football', name: { en: 'American Football', es: 'Fútbol Americano', pt: 'Futebol Americano' }, hasDraw: false },
  { id: 7, sysname: 'ice-hockey', name: { en: 'Ice Hockey', es: 'Hockey sobre Hielo', pt: 'Hóquei no Gelo' }, hasDraw: false },
  { id: 8, sysname: 'handball', name: { en: 'Handball', es: 'Balonmano', pt: 'Handebol' }, hasDraw: true },
] as const;

export type Sport = (typeof SPORTS)[number];
export type SportName = Sport['sysname'];
export type SportId = Sport['id'];

export const LOCALES = ['en', 'es', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
/** A name in every supported locale; English is the fallback. */
export type LocalizedText = { en: string; es?: string | null; pt?: string | null };

/** One value per locale, each made by `f` (in LOCALES order). */
export function perLocale<T>(f: (locale: Locale) => T): Record<Locale, T> {
  return { en: f('en'), es: f('es'), pt: f('pt') };
}

export const SPORT_NAMES: SportName[] = SPORTS.map((s) => s.sysname);

export function sportById(id: number): Sport | undefined {
  return SPORTS.find((s) => s.id === id);
}

export function sportByName(name: string): Sport | undefined {
  return SPORTS.find((s) => s.sysname === name);
}

export function localize(text: LocalizedText | undefined, locale: Locale): string {
  if (!text) return '';
  return text[locale] ?? text.en;
}
