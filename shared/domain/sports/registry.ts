import { americanFootball } from './americanFootball';
import { baseball } from './baseball';
import { basketball } from './basketball';
import type { SportDefinition } from './definition';
import { handball } from './handball';
import { iceHockey } from './iceHockey';
import { SPORT_IDS, isSportId, type SportId } from './ids';
import { soccer } from './soccer';
import { tennis } from './tennis';
import { volleyball } from './volleyball';

/**
 * Every sport's definition by its id: the one place a sport is told apart from another. A SportId
 * without its definition, or a definition without one of its parts, does not compile.
 */
const DEFINITIONS = { 1: soccer, 2: basketball, 3: tennis, 4: baseball, 5: volleyball, 6: americanFootball, 7: iceHockey, 8: handball } satisfies {
  readonly [K in SportId]: SportDefinition<K>;
};

export const SPORT_DEFINITIONS: { readonly [K in SportId]: SportDefinition<K> } = DEFINITIONS;

/** The sports' names as the contract spells them (`sport=`). */
export type SportName = (typeof DEFINITIONS)[SportId]['sysname'];

/** The sports' names, in id order. */
export const SPORT_NAMES: SportName[] = SPORT_IDS.map((id) => DEFINITIONS[id].sysname);

/** Every definition, in id order. */
export const SPORT_LIST: readonly SportDefinition[] = SPORT_IDS.map((id) => SPORT_DEFINITIONS[id]);

/** The definition of a stored or requested sport id, when the service carries that sport. */
export function findSportDefinition(id: number): SportDefinition | undefined {
  return isSportId(id) ? SPORT_DEFINITIONS[id] : undefined;
}

/** The definition of a sport the caller knows is carried (an analysed event's, a refit's): a RangeError otherwise. */
export function sportDefinition(id: number): SportDefinition {
  const definition = findSportDefinition(id);
  if (!definition) throw new RangeError(`no sport ${id}`);
  return definition;
}
