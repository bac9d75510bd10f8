import { setsModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Volleyball: the score is sets, best of five. */
export const volleyball = defineSport({
  id: 5,
  sysname: 'volleyball',
  name: { en: 'Volleyball', es: 'Voleibol', pt: 'Vôlei' },
  hasDraw: false,
  markets: [
    market('VOLLEYBALL_MATCH_WINNER', 'winner2', { en: 'Match Winner', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
    market('VOLLEYBALL_SET_HANDICAP', 'handicap', { en: 'Set Handicap', es: 'Hándicap de Sets', pt: 'Handicap de Sets' }),
    market('VOLLEYBALL_TOTAL_SETS', 'total', { en: 'Total Sets Over/Under', es: 'Total de Sets Más/Menos', pt: 'Total de Sets Mais/Menos' }),
  ],
  listMarkets: ['VOLLEYBALL_MATCH_WINNER', 'VOLLEYBALL_SET_HANDICAP', 'VOLLEYBALL_TOTAL_SETS'],
  mainMarket: 'VOLLEYBALL_MATCH_WINNER',
  model: setsModel(5),
  firstHalf: null,
  fit: { family: 'sets', counts: false },
  narrativeScore: false,
});
