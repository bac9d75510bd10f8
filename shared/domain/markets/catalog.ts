import { SPORT_LIST } from '../sports/registry';
import type { MarketType } from './kinds';

export * from './kinds';

/**
 * The market catalog: the one contract shared by ingestion (what the feed carries), the AI model
 * (what it prices), settlement (what it grades) and the API (how it is named). Each sport's
 * markets come from its definition (shared/domain/sports/), in id order; the conventions every
 * consumer relies on are in kinds.ts.
 */
export const MARKET_TYPES: readonly MarketType[] = SPORT_LIST.flatMap((sport) => sport.markets.map((m) => ({ ...m, sportId: sport.id })));

const BY_SYSNAME = new Map(MARKET_TYPES.map((t) => [t.sysname, t]));

export function marketType(sysname: string): MarketType | undefined {
  return BY_SYSNAME.get(sysname);
}

export function marketTypesForSport(sportId: number): MarketType[] {
  return MARKET_TYPES.filter((t) => t.sportId === sportId);
}
