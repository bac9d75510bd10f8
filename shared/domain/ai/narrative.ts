import type { Confidence } from './staking';

/**
 * Short sentences for a recommendation's rationale, riskFactors and dataSupport, built only
 * from numbers the model actually used, in every locale. es and pt write decimal commas.
 */
export interface Sentence {
  en: string;
  es: string;
  pt: string;
}

export interface NarrativeInputs {
  homeTeam: string;
  awayTeam: string;
  /** The selection as bettors read it, per locale: "Arsenal", "Over 2.5". */
  selection: Sentence;
  odds: number;
  modelProbability: number;
  /** De-vigged market probability of the same outcome. */
  marketProbability: number;
  edgePercentage: number;
  kellyFraction: number;
  confidence: Confidence;
  /** Standard error of the model probability. */
  standardError: number;
  expectedScore?: { home: number; away: number };
  /** Weight of the statistical model against the market in the blend (0..1). */
  modelWeight?: number;
  devigMethod?: string;
  marginPercent?: number;
  matchesUsed?: number;
  bookmakers?: number;
  /** Simulation share of the selected outcome, when a simulation ran. */
  simulatedProbability?: number;
  simulationIterations?: number;
}

export interface Narrative {
  rationale: Sentence[];
  riskFactors: Sentence[];
  dataSupport: Sentence[];
}

const num = (x: number, digits: number) => ({ en: x.toFixed(digits), es: x.toFixed(digits).replace('.', ','), pt: x.toFixed(digits).replace('.', ',') });
const pct = (p: number, digits = 1) => num(100 * p, digits);

const CONFIDENCE: Record<Confidence, Sentence> = {
  High: { en: 'high', es: 'alta', pt: 'alta' },
  Medium: { en: 'medium', es: 'media', pt: 'média' },
  Low: { en: 'low', es: 'baja', pt: 'baixa' },
};

export function buildNarrative(x: NarrativeInputs): Narrative {
  const rationale: Sentence[] = [];
  const riskFactors: Sentence[] = [];
  const dataSupport: Sentence[] = [];
  const p = pct(x.modelProbability);
  const m = pct(x.marketProbability);
  const o = num(x.odds, 2);
  const e = num(x.edgePercentage, 1);
  rationale.push({
    en: `The model gives ${x.selection.en} a ${p.en}% chance against ${m.en}% implied by the market.`,
    es: `El modelo da a ${x.selection.es} un ${p.es}% de probabilidad frente al ${m.es}% implícito en el mercado.`,
    pt: `O modelo dá a ${x.selection.pt} ${p.pt}% de probabilidade contra ${m.pt}% implícito pelo mercado.`,
  });
  rationale.push({
    en: `At odds of ${o.en} that is an edge of ${e.en}%; quarter Kelly stakes ${pct(x.kellyFraction, 2).en}% of the bankroll.`,
    es: `A cuota ${o.es} eso supone una ventaja del ${e.es}%; un cuarto de Kelly apuesta el ${pct(x.kellyFraction, 2).es}% del bankroll.`,
    pt: `Com odd de ${o.pt} isso é uma vantagem de ${e.pt}%; um quarto de Kelly aposta ${pct(x.kellyFraction, 2).pt}% da banca.`,
  });
  if (x.expectedScore) {
    const h = num(x.expectedScore.home, 2);
    const a = num(x.expectedScore.away, 2);
    rationale.push({
      en: `Expected score: ${x.homeTeam} ${h.en} - ${a.en} ${x.awayTeam}.`,
      es: `Marcador esperado: ${x.homeTeam} ${h.es} - ${a.es} ${x.awayTeam}.`,
      pt: `Placar esperado: ${x.homeTeam} ${h.pt} - ${a.pt} ${x.awayTeam}.`,
    });
  }

  const se = pct(x.standardError);
  riskFactors.push({
    en: `Confidence is ${CONFIDENCE[x.confidence].en}: the probability carries a standard error of ${se.en} points.`,
    es: `La confianza es ${CONFIDENCE[x.confidence].es}: la probabilidad tiene un error estándar de ${se.es} puntos.`,
    pt: `A confiança é ${CONFIDENCE[x.confidence].pt}: a probabilidade tem um erro padrão de ${se.pt} pontos.`,
  });
  const gap = Math.abs(x.modelProbability - x.marketProbability);
  if (gap >= 0.05) {
    const g = pct(gap);
    riskFactors.push({
      en: `The model disagrees with the market by ${g.en} points; large gaps are more often model error than market error.`,
      es: `El modelo discrepa del mercado en ${g.es} puntos; las diferencias grandes suelen ser error del modelo más que del mercado.`,
      pt: `O modelo diverge do mercado em ${g.pt} pontos; grandes diferenças são mais vezes erro do modelo do que do mercado.`,
    });
  }
  if (x.odds >= 4) {
    riskFactors.push({
      en: `Long odds (${o.en}): results vary widely even when the edge is real.`,
      es: `Cuota alta (${o.es}): los resultados varían mucho aunque la ventaja sea real.`,
      pt: `Odd alta (${o.pt}): os resultados variam muito mesmo quando a vantagem é real.`,
    });
  }
  if (x.matchesUsed !== undefined && x.matchesUsed < 100) {
    riskFactors.push({
      en: `Only ${x.matchesUsed} past matches informed the team ratings.`,
      es: `Solo ${x.matchesUsed} partidos previos informaron las valoraciones de los equipos.`,
      pt: `Apenas ${x.matchesUsed} jogos anteriores informaram as avaliações das equipes.`,
    });
  }

  if (x.matchesUsed !== undefined) {
    dataSupport.push({
      en: `Team ratings fitted on ${x.matchesUsed} past matches, recent ones weighted more.`,
      es: `Valoraciones ajustadas con ${x.matchesUsed} partidos previos, con más peso para los recientes.`,
      pt: `Avaliações ajustadas com ${x.matchesUsed} jogos anteriores, com mais peso para os recentes.`,
    });
  }
  if (x.bookmakers !== undefined || x.marginPercent !== undefined) {
    const mg = num(x.marginPercent ?? 0, 1);
    const books = x.bookmakers ?? 1;
    const method = x.devigMethod ?? 'proportional';
    dataSupport.push({
      en: `Market view from ${books} bookmaker${books === 1 ? '' : 's'} with a ${mg.en}% margin removed (${method} method).`,
      es: `Visión del mercado de ${books} casa${books === 1 ? '' : 's'} de apuestas, sin el margen del ${mg.es}% (método ${method}).`,
      pt: `Visão do mercado de ${books} casa${books === 1 ? '' : 's'} de apostas, sem a margem de ${mg.pt}% (método ${method}).`,
    });
  }
  if (x.modelWeight !== undefined) {
    const w = pct(x.modelWeight, 0);
    dataSupport.push({
      en: `The statistical model carries ${w.en}% of the forecast, the market the rest.`,
      es: `El modelo estadístico pesa un ${w.es}% del pronóstico y el mercado el resto.`,
      pt: `O modelo estatístico pesa ${w.pt}% da previsão e o mercado o restante.`,
    });
  }
  if (x.simulatedProbability !== undefined && x.simulationIterations !== undefined) {
    const s = pct(x.simulatedProbability);
    dataSupport.push({
      en: `${x.simulationIterations} simulated matches: the selection won ${s.en}% of them.`,
      es: `${x.simulationIterations} partidos simulados: la selección ganó el ${s.es}% de ellos.`,
      pt: `${x.simulationIterations} jogos simulados: a seleção venceu ${s.pt}% deles.`,
    });
  }
  return { rationale, riskFactors, dataSupport };
}
