import { dcScoreGrid } from '../ai/dixonColes';
import { firstHalfGrid } from '../ai/sportModels';
import { logScoresModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Soccer: Dixon-Coles goals, with corners, cards and the first half beside the full-time score. */
export const soccer = defineSport({
  id: 1,
  sysname: 'soccer',
  name: { en: 'Soccer', es: 'Fútbol', pt: 'Futebol' },
  hasDraw: true,
  markets: [
    market('SOCCER_MATCH_RESULT', 'result3', { en: 'Match Result', es: 'Resultado del Partido', pt: 'Resultado Final' }),
    market('SOCCER_UNDER_OVER', 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
    market('SOCCER_BOTH_TEAMS_TO_SCORE', 'btts', { en: 'Both Teams to Score', es: 'Ambos Equipos Marcan', pt: 'Ambas as Equipes Marcam' }),
    market('SOCCER_DOUBLE_CHANCE', 'doubleChance', { en: 'Double Chance', es: 'Doble Oportunidad', pt: 'Dupla Chance' }),
    market('SOCCER_ASIAN_HANDICAP', 'handicap', { en: 'Asian Handicap', es: 'Hándicap Asiático', pt: 'Handicap Asiático' }),
    market('SOCCER_CORNERS_UNDER_OVER', 'total', { en: 'Total Corners Over/Under', es: 'Total de Córners Más/Menos', pt: 'Total de Escanteios Mais/Menos' }, 'corners'),
    market('SOCCER_CARDS_UNDER_OVER', 'total', { en: 'Total Cards Over/Under', es: 'Total de Tarjetas Más/Menos', pt: 'Total de Cartões Mais/Menos' }, 'cards'),
    market('SOCCER_FIRST_HALF_RESULT', 'result3', { en: 'First Half Result', es: 'Resultado del Primer Tiempo', pt: 'Resultado do Primeiro Tempo' }, 'score', '1H'),
    market('SOCCER_FIRST_HALF_UNDER_OVER', 'total', { en: 'First Half Goals Over/Under', es: 'Goles del Primer Tiempo Más/Menos', pt: 'Gols do Primeiro Tempo Mais/Menos' }, 'score', '1H'),
  ],
  // The contract's list and live forms carry these two only.
  listMarkets: ['SOCCER_MATCH_RESULT', 'SOCCER_UNDER_OVER'],
  mainMarket: 'SOCCER_MATCH_RESULT',
  model: logScoresModel([1.45, 1.15], 0.05, 8, (x, o) => dcScoreGrid(Math.exp(x[0]), Math.exp(x[1]), o.rho ?? -0.05)),
  firstHalf: (x, o) => firstHalfGrid(Math.exp(x[0]), Math.exp(x[1]), o.rho ?? -0.05),
  fit: { family: 'goals', counts: true },
  narrativeScore: true,
});
