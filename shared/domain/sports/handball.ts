import { countScoreGrid } from '../ai/sportModels';
import { logScoresModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

/** Handball: goals in regulation time, draws possible. */
export const handball = defineSport({
  id: 8,
  sysname: 'handball',
  name: { en: 'Handball', es: 'Balonmano', pt: 'Handebol' },
  hasDraw: true,
  markets: [
    market('HANDBALL_MATCH_RESULT', 'result3', { en: 'Match Result', es: 'Resultado del Partido', pt: 'Resultado Final' }),
    market('HANDBALL_HANDICAP', 'handicap', { en: 'Handicap', es: 'Hándicap', pt: 'Handicap' }),
    market('HANDBALL_TOTAL_GOALS', 'total', { en: 'Total Goals Over/Under', es: 'Total de Goles Más/Menos', pt: 'Total de Gols Mais/Menos' }),
  ],
  listMarkets: ['HANDBALL_MATCH_RESULT', 'HANDBALL_HANDICAP', 'HANDBALL_TOTAL_GOALS'],
  mainMarket: 'HANDBALL_MATCH_RESULT',
  model: logScoresModel([28, 26], 5, 60, (x) => countScoreGrid({ home: Math.exp(x[0]), away: Math.exp(x[1]) })),
  firstHalf: null,
  fit: { family: 'goals', counts: false },
  narrativeScore: true,
});
