import type { LocalizedText, SportId } from '../sports';

/**
 * The market catalog: the one contract shared by ingestion (what the feed carries),
 * the AI model (what it prices), settlement (what it grades) and the API (how it is named).
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

function m(sysname: string, sportId: SportId, kind: MarketKind, name: LocalizedText, stat: MarketStat = 'score', period: MarketPeriod = 'FT'): MarketType {
  return { sysname, sportId, kind, stat, period, name, outcomes: KIND_OUTCOMES[kind] };
}

export const MARKET_TYPES: readonly MarketType[] = [
  // 1 soccer
  m('SOCCER_MATCH_RESULT', 1, 'result3', { en: 'Match Result', es: 'Resultado del Partido', pt: 'Resultado Final' }),
  m('SOCCER_UNDER_OVER', 1, 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
  m('SOCCER_BOTH_TEAMS_TO_SCORE', 1, 'btts', { en: 'Both Teams to Score', es: 'Ambos Equipos Marcan', pt: 'Ambas as Equipes Marcam' }),
  m('SOCCER_DOUBLE_CHANCE', 1, 'doubleChance', { en: 'Double Chance', es: 'Doble Oportunidad', pt: 'Dupla Chance' }),
  m('SOCCER_ASIAN_HANDICAP', 1, 'handicap', { en: 'Asian Handicap', es: 'Hándicap Asiático', pt: 'Handicap Asiático' }),
  m('SOCCER_CORNERS_UNDER_OVER', 1, 'total', { en: 'Total Corners Over/Under', es: 'Total de Córners Más/Menos', pt: 'Total de Escanteios Mais/Menos' }, 'corners'),
  m('SOCCER_CARDS_UNDER_OVER', 1, 'total', { en: 'Total Cards Over/Under', es: 'Total de Tarjetas Más/Menos', pt: 'Total de Cartões Mais/Menos' }, 'cards'),
  m('SOCCER_FIRST_HALF_RESULT', 1, 'result3', { en: 'First Half Result', es: 'Resultado del Primer Tiempo', pt: 'Resultado do Primeiro Tempo' }, 'score', '1H'),
  m('SOCCER_FIRST_HALF_UNDER_OVER', 1, 'total', { en: 'First Half Goals Over/Under', es: 'Goles del Primer Tiempo Más/Menos', pt: 'Gols do Primeiro Tempo Mais/Menos' }, 'score', '1H'),
  // 2 basketball (score = points, overtime included)
  m('BASKETBALL_MONEYLINE', 2, 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
  m('BASKETBALL_SPREAD', 2, 'handicap', { en: 'Point Spread', es: 'Hándicap de Puntos', pt: 'Handicap de Pontos' }),
  m('BASKETBALL_TOTAL_POINTS', 2, 'total', { en: 'Total Points Over/Under', es: 'Total de Puntos Más/Menos', pt: 'Total de Pontos Mais/Menos' }),
  // 3 tennis (score = sets)
  m('TENNIS_MATCH_WINNER', 3, 'winner2', { en: 'Match Winner', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
  m('TENNIS_SET_HANDICAP', 3, 'handicap', { en: 'Set Handicap', es: 'Hándicap de Sets', pt: 'Handicap de Sets' }),
  m('TENNIS_TOTAL_SETS', 3, 'total', { en: 'Total Sets Over/Under', es: 'Total de Sets Más/Menos', pt: 'Total de Sets Mais/Menos' }),
  // 4 baseball (score = runs)
  m('BASEBALL_MONEYLINE', 4, 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
  m('BASEBALL_RUN_LINE', 4, 'handicap', { en: 'Run Line', es: 'Línea de Carreras', pt: 'Linha de Corridas' }),
  m('BASEBALL_TOTAL_RUNS', 4, 'total', { en: 'Total Runs Over/Under', es: 'Total de Carreras Más/Menos', pt: 'Total de Corridas Mais/Menos' }),
  // 5 volleyball (score = sets)
  m('VOLLEYBALL_MATCH_WINNER', 5, 'winner2', { en: 'Match Winner', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
  m('VOLLEYBALL_SET_HANDICAP', 5, 'handicap', { en: 'Set Handicap', es: 'Hándicap de Sets', pt: 'Handicap de Sets' }),
  m('VOLLEYBALL_TOTAL_SETS', 5, 'total', { en: 'Total Sets Over/Under', es: 'Total de Sets Más/Menos', pt: 'Total de Sets Mais/Menos' }),
  // 6 american football (score = points, overtime included)
  m('AMERICAN_FOOTBALL_MONEYLINE', 6, 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
  m('AMERICAN_FOOTBALL_SPREAD', 6, 'handicap', { en: 'Point Spread', es: 'Hándicap de Puntos', pt: 'Handicap de Pontos' }),
  m('AMERICAN_FOOTBALL_TOTAL_POINTS', 6, 'total', { en: 'Total Points Over/Under', es: 'Total de Puntos Más/Menos', pt: 'Total de Pontos Mais/Menos' }),
  // 7 ice hockey (score = goals including overtime and shootout winner goal)
  m('ICE_HOCKEY_MONEYLINE', 7, 'winner2', { en: 'Moneyline (incl. OT)', es: 'Ganador (incl. prórroga)', pt: 'Vencedor (incl. prorrogação)' }),
  m('ICE_HOCKEY_PUCK_LINE', 7, 'handicap', { en: 'Puck Line', es: 'Hándicap de Goles', pt: 'Handicap de Gols' }),
  m('ICE_HOCKEY_TOTAL_GOALS', 7, 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
  // 8 handball (score = goals, regulation time)
  m('HANDBALL_MATCH_RESULT', 8, 'result3', { en: 'Match Result', es: 'Resultado del Partido', pt: 'Resultado Final' }),
  m('HANDBALL_HANDICAP', 8, 'handicap', { en: 'Handicap', es: 'Hándicap', pt: 'Handicap' }),
  m('HANDBALL_TOTAL_GOALS', 8, 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
];

const BY_SYSNAME = new Map(MARKET_TYPES.map((t) => [t.sysname, t]));

export function marketType(sysname: string): MarketType | undefined {
  return BY_SYSNAME.get(sysname);
}

export function marketTypesForSport(sportId: number): MarketType[] {
  return MARKET_TYPES.filter((t) => t.sportId === sportId);
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
