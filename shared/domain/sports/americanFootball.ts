import { AMERICAN_FOOTBALL_DEFAULTS } from '../ai/sportModels';
import { normalModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** American football: points as margin and total, overtime included. */
export const americanFootball = defineSport({
  id: 6,
  sysname: 'american-football',
  name: { en: 'American Football', es: 'Fútbol Americano', pt: 'Futebol Americano' },
  hasDraw: false,
  markets: [
    market('AMERICAN_FOOTBALL_MONEYLINE', 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
    market('AMERICAN_FOOTBALL_SPREAD', 'handicap', { en: 'Point Spread', es: 'Hándicap de Puntos', pt: 'Handicap de Pontos' }),
    market('AMERICAN_FOOTBALL_TOTAL_POINTS', 'total', { en: 'Total Points Over/Under', es: 'Total de Puntos Más/Menos', pt: 'Total de Pontos Mais/Menos' }),
  ],
  listMarkets: ['AMERICAN_FOOTBALL_MONEYLINE', 'AMERICAN_FOOTBALL_SPREAD', 'AMERICAN_FOOTBALL_TOTAL_POINTS'],
  mainMarket: 'AMERICAN_FOOTBALL_MONEYLINE',
  model: normalModel([2.5, 45], 50, [10, 100], AMERICAN_FOOTBALL_DEFAULTS),
  firstHalf: null,
  fit: { family: 'normal', counts: false },
  narrativeScore: true,
});
