import type { SportId } from '../../../../domain/sports';
import { americanFootball } from './americanFootball';
import { baseball } from './baseball';
import { basketball } from './basketball';
import { handball } from './handball';
import { iceHockey } from './iceHockey';
import { soccer } from './soccer';
import type { SimSport } from './sport';
import { tennis } from './tennis';
import { volleyball } from './volleyball';

/** The simulator's sports by id: everything sport-specific is in the sport's own file. */
export const SIM_SPORTS: Readonly<Record<SportId, SimSport>> = { 1: soccer, 2: basketball, 3: tennis, 4: baseball, 5: volleyball, 6: americanFootball, 7: iceHockey, 8: handball };

export const simSport = (id: SportId): SimSport => SIM_SPORTS[id];
