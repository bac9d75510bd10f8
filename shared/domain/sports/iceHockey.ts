import { iceHockeyGrid } from '../ai/sportModels';
import { logScoresModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Ice hockey: regulation goals, with the overtime or shootout winner's goal counted. */
export const iceHockey = defineSport({
  id: 7,
  sysname: 'ice-hockey',
  name: { en: 'Ice Hockey', es: 'Hockey sobre Hielo', pt: 'Hóquei no Gelo' },
  hasDraw: false,
  markets: [
    market('ICE_HOCKEY_MONEYLINE', 'winner2', { en: 'Moneyline (incl. OT)', es: 'Ganador (incl. prórroga)', pt: 'Vencedor (incl. prorrogação)' }),
    market('ICE_HOCKEY_PUCK_LINE', 'handicap', { en: 'Puck Line', es: 'Hándicap de Goles', pt: 'Handicap de Gols' }),
    market('ICE_HOCKEY_TOTAL_GOALS', 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
  ],
  listMarkets: ['ICE_HOCKEY_MONEYLINE', 'ICE_HOCKEY_PUCK_LINE', 'ICE_HOCKEY_TOTAL_GOALS'],
  mainMarket: 'ICE_HOCKEY_MONEYLINE',
  model: logScoresModel([3.1, 2.8], 0.3, 10, (x) => iceHockeyGrid({ home: Math.exp(x[0]), away: Math.exp(x[1]) })),
  firstHalf: null,
  fit: { family: 'goals', counts: false },
  narrativeScore: true,
});
