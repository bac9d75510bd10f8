import { BASKETBALL_DEFAULTS } from '../ai/sportModels';
import { normalModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Basketball: points as margin and total, overtime included. */
export const basketball = defineSport({
  id: 2,
  sysname: 'basketball',
  name: { en: 'Basketball', es: 'Baloncesto', pt: 'Basquete' },
  hasDraw: false,
  markets: [
    market('BASKETBALL_MONEYLINE', 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
    market('BASKETBALL_SPREAD', 'handicap', { en: 'Point Spread', es: 'Hándicap de Puntos', pt: 'Handicap de Pontos' }),
    market('BASKETBALL_TOTAL_POINTS', 'total', { en: 'Total Points Over/Under', es: 'Total de Puntos Más/Menos', pt: 'Total de Pontos Mais/Menos' }),
  ],
  listMarkets: ['BASKETBALL_MONEYLINE', 'BASKETBALL_SPREAD', 'BASKETBALL_TOTAL_POINTS'],
  mainMarket: 'BASKETBALL_MONEYLINE',
  model: normalModel([3, 220], 60, [100, 330], BASKETBALL_DEFAULTS),
  firstHalf: null,
  fit: { family: 'normal', counts: false },
  narrativeScore: true,
});
