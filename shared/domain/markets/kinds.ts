import type { SportId } from '../sports/ids';
import type { LocalizedText } from '../sports/locales';

/**
 * The kinds of market the catalog (catalog.ts) is made of, their outcomes and how they are named;
 * each sport's markets are in its definition (shared/domain/sports/).
 *
 * Conventions every consumer relies on:
 * - `stat: 'score'` reads homeGoals/awayGoals (the sport's score unit: goals, points, sets, runs),
 *   `'corners'` reads home/awayCorners, `'cards'` reads yellow + red cards of both teams.
 * - `period: '1H'` reads homeGoalsFirstHalf/awayGoalsFirstHalf instead of the full-time score.
 * - total lines are the threshold on home + away; handicap lines are applied to the HOME side
 *   (code '1' wins when home + line > away; code '2' is the away side at -line).
 * - quarter lines (x.25, x.75) are allowed on totals and handicaps; they split the stake.
 */
export type MarketKind = 'result3' | 'winner2' | 'total' | 'handicap' | 'btts' | 'doubleChance';
export type MarketStat = 'score' | 'corners' | 'cards';
export type MarketPeriod = 'FT' | '1H';

export interface OutcomeDef {
  code: string;
  caption: LocalizedText;
}

export interface MarketType {
  sysname: string;
  sportId: SportId;
  kind: MarketKind;
  stat: MarketStat;
  period: MarketPeriod;
  name: LocalizedText;
  outcomes: OutcomeDef[];
}

const O = {
  home: { code: '1', caption: { en: 'Home', es: 'Local', pt: 'Casa' } },
  draw: { code: 'X', caption: { en: 'Draw', es: 'Empate', pt: 'Empate' } },
  away: { code: '2', caption: { en: 'Away', es: 'Visitante', pt: 'Fora' } },
  over: { code: 'O', caption: { en: 'Over', es: 'Más de', pt: 'Mais de' } },
  under: { code: 'U', caption: { en: 'Under', es: 'Menos de', pt: 'Menos de' } },
  yes: { code: 'Y', caption: { en: 'Yes', es: 'Sí', pt: 'Sim' } },
  no: { code: 'N', caption: { en: 'No', es: 'No', pt: 'Não' } },
  homeOrDraw: { code: '1X', caption: { en: 'Home or Draw', es: 'Local o Empate', pt: 'Casa ou Empate' } },
  homeOrAway: { code: '12', caption: { en: 'Home or Away', es: 'Local o Visitante', pt: 'Casa ou Fora' } },
  drawOrAway: { code: 'X2', caption: { en: 'Draw or Away', es: 'Empate o Visitante', pt: 'Empate ou Fora' } },
} satisfies Record<string, OutcomeDef>;

const KIND_OUTCOMES: Record<MarketKind, OutcomeDef[]> = {
  result3: [O.home, O.draw, O.away],
  winner2: [O.home, O.away],
  total: [O.over, O.under],
  handicap: [O.home, O.away],
  btts: [O.yes, O.no],
  doubleChance: [O.homeOrDraw, O.homeOrAway, O.drawOrAway],
};

/** The outcome codes of each market kind, in display order. */
const codesOf = (kind: MarketKind): readonly string[] => KIND_OUTCOMES[kind].map((o) => o.code);
export const OUTCOME_CODES: Readonly<Record<MarketKind, readonly string[]>> = {
  result3: codesOf('result3'),
  winner2: codesOf('winner2'),
  total: codesOf('total'),
  handicap: codesOf('handicap'),
  btts: codesOf('btts'),
  doubleChance: codesOf('doubleChance'),
};

/** A market of a sport's definition (shared/domain/sports/<sport>.ts); the catalog adds the sport's id. */
export type MarketDef<S extends string = string> = Omit<MarketType, 'sportId' | 'sysname'> & { sysname: S };

export function market<const S extends string>(sysname: S, kind: MarketKind, name: LocalizedText, stat: MarketStat = 'score', period: MarketPeriod = 'FT'): MarketDef<S> {
  return { sysname, kind, stat, period, name, outcomes: KIND_OUTCOMES[kind] };
}

export function hasLine(type: MarketType): boolean {
  return type.kind === 'total' || type.kind === 'handicap';
}

/** Stable ids: the same market and line of the same event always get the same id across polls. */
export function marketId(eventId: string, sysname: string, line?: number | null): string {
  return line === undefined || line === null ? `${eventId}-${sysname}` : `${eventId}-${sysname}@${line}`;
}

export function betItemId(marketIdValue: string, code: string): string {
  return `${marketIdValue}-${code}`;
}

/** Display text of a line as bettors read it: "2.5", "-0.25", "+1.5". */
export function lineText(kind: MarketKind, line: number, code?: string): string {
  if (kind !== 'handicap') return String(line);
  const side = code === '2' ? -line : line;
  return side > 0 ? `+${side}` : String(side);
}
