import { baseballGrid } from '../ai/sportModels';
import { logScoresModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Baseball: overdispersed runs, extra innings decide a tie. */
export const baseball = defineSport({
  id: 4,
  sysname: 'baseball',
  name: { en: 'Baseball', es: 'Béisbol', pt: 'Beisebol' },
  hasDraw: false,
  markets: [
    market('BASEBALL_MONEYLINE', 'winner2', { en: 'Moneyline', es: 'Ganador del Partido', pt: 'Vencedor da Partida' }),
    market('BASEBALL_RUN_LINE', 'handicap', { en: 'Run Line', es: 'Línea de Carreras', pt: 'Linha de Corridas' }),
    market('BASEBALL_TOTAL_RUNS', 'total', { en: 'Total Runs Over/Under', es: 'Total de Carreras Más/Menos', pt: 'Total de Corridas Mais/Menos' }),
  ],
  listMarkets: ['BASEBALL_MONEYLINE', 'BASEBALL_RUN_LINE', 'BASEBALL_TOTAL_RUNS'],
  mainMarket: 'BASEBALL_MONEYLINE',
  model: logScoresModel([4.6, 4.3], 0.5, 20, (x, o) => baseballGrid({ home: Math.exp(x[0]), away: Math.exp(x[1]), dispersion: o.dispersion ?? 4 })),
  firstHalf: null,
  fit: { family: 'goals', counts: false },
  narrativeScore: true,
});
