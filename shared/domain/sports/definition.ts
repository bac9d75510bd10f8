import type { ScoreGrid } from '../ai/scoreGrid';
import type { GridOptions, SportParamModel } from '../ai/sportParams';
import type { MarketDef } from '../markets/kinds';
import type { SportId } from './ids';

/** How a sport's refit rates teams: attack and defence of goals, margin and pace of points, sets won. */
export type SportFamily = 'goals' | 'normal' | 'sets';

/**
 * One sport, whole: everything the domain and the API need to know of it. The registry
 * (registry.ts) holds one per SportId; the catalog, the score model and its parameters, the refit,
 * the analysis and the renderers take their part from there (the simulator keeps its own
 * per-sport file, keyed by the same SportId: shared/platform/providers/simulated/sports/).
 */
export interface SportDefinition<Id extends SportId = SportId, Name extends string = string, Market extends string = string> {
  /** Served as each event's sportId: part of the public contract, never renumbered. */
  id: Id;
  /** The name queries and responses use (`sport=soccer`): part of the contract, never renamed. */
  sysname: Name;
  name: { en: string; es: string; pt: string };
  hasDraw: boolean;
  /** Its markets in the catalog, in the order the API lists them. */
  markets: readonly MarketDef<Market>[];
  /** The markets the list and live forms carry (the detail form carries them all). */
  listMarkets: readonly NoInfer<Market>[];
  /** The market whose de-vigged price drives the efficiency score and the blend-weight fit. */
  mainMarket: NoInfer<Market>;
  /** Its score model: the parameters the market is inverted into and the ratings are read as. */
  model: SportParamModel;
  /** The first-half score from the model's parameters, for a sport with first-half markets. */
  firstHalf: ((x: readonly number[], options: GridOptions) => ScoreGrid) | null;
  /** How the refit rates its teams, and whether it fits corner and card counts beside the score. */
  fit: { family: SportFamily; counts: boolean };
  /** A recommendation's narrative quotes the expected score (not for sets: "1.9 sets to 1.4" says little). */
  narrativeScore: boolean;
}

/**
 * Keeps the literal id and name of a definition (the registry's SportName is their union), and
 * holds its list and main markets to its own markets' names.
 */
export function defineSport<const Id extends SportId, const Name extends string, const Market extends string>(definition: SportDefinition<Id, Name, Market>): SportDefinition<Id, Name, Market> {
  return definition;
}
