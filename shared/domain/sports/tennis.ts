import { setsModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Tennis: the score is sets, best of three unless the competition says five. */
export const tennis = defineSport({
  id: 3,
  sysname: 'tennis',
  name: { en: 'Tennis', es: 'Tenis', pt: 'Tênis' },
  hasDraw: false,
  markets: [
    market('TENNIS_MATCH_WINNER', 'winner2', { en: 'Match Winner', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
    market('TENNIS_SET_HANDICAP', 'handicap', { en: 'Set Handicap', es: 'Hándicap de Sets', pt: 'Handicap de Sets' }),
    market('TENNIS_TOTAL_SETS', 'total', { en: 'Total Sets Over/Under', es: 'Total de Sets Más/Menos', pt: 'Total de Sets Mais/Menos' }),
  ],
  listMarkets: ['TENNIS_MATCH_WINNER', 'TENNIS_SET_HANDICAP', 'TENNIS_TOTAL_SETS'],
  mainMarket: 'TENNIS_MATCH_WINNER',
  model: setsModel(3),
  firstHalf: null,
  fit: { family: 'sets', counts: false },
  narrativeScore: false,
});
