import { findSportDefinition, SPORT_LIST } from './registry';

export { isSportId, SPORT_IDS, type SportId } from './ids';
export { LOCALES, localize, perLocale, type Locale, type LocalizedText } from './locales';
export { findSportDefinition, sportDefinition, SPORT_DEFINITIONS, SPORT_NAMES, type SportName } from './registry';
export type { SportDefinition } from './definition';

/** A sport as the API names it: id, name and whether its matches can end in a draw. */
export type Sport = Pick<(typeof SPORT_LIST)[number], 'id' | 'sysname' | 'name' | 'hasDraw'>;

/** Every sport, in id order (ids are part of the public API contract: never renumber). */
export const SPORTS: readonly Sport[] = SPORT_LIST;

export function sportById(id: number): Sport | undefined {
  return findSportDefinition(id);
}

export function sportByName(name: string): Sport | undefined {
  return SPORTS.find((s) => s.sysname === name);
}
