import type { LocalizedText } from '../../sports';
import type { EfficiencyBreakdown } from '../efficiency';
import type { MarketFair } from '../fairPrice';
import type { Sentence } from '../narrative';
import type { MatchSimulation } from '../simulate';
import type { SportFitParams } from '../sportFit';
import { sportDefinition } from '../../sports/registry';
import { local, pct, round } from './format';
import type { MainMarketView } from './mainMarket';
import type { AnalysisEvent, AnalysisFit, InsightDraft, RecommendationDraft } from './types';
import type { PriceViews } from './views';

/** Everything the processed insight of one event is written from. */
export interface InsightContext {
  event: AnalysisEvent;
  fit: AnalysisFit | null;
  views: PriceViews;
  main: MainMarketView;
  recommendations: readonly RecommendationDraft[];
  simulation: MatchSimulation;
  expected: { home: number; away: number };
  ranking: readonly string[];
  /** Games in the fit, when the fit rates both teams. */
  matchesUsed: number | undefined;
}

const BAND_ES = { 'extremely efficient': 'extremadamente eficiente', efficient: 'eficiente', 'moderately efficient': 'moderadamente eficiente', inefficient: 'ineficiente' } as const;
const BAND_PT = { 'extremely efficient': 'extremamente eficiente', efficient: 'eficiente', 'moderately efficient': 'moderadamente eficiente', inefficient: 'ineficiente' } as const;

/** The processed insight: efficiency, value opportunities, risk factors, notes, the analysis' numbers and the simulation. */
export function insightOf(x: InsightContext): InsightDraft {
  const { event, main, recommendations } = x;
  return {
    marketEfficiencyScore: main.efficiency?.score ?? 0,
    valueOpportunities: {
      recommendations: recommendations.map((r) => ({
        recommendationId: r._id,
        betItemId: r.betItemId,
        edge: r.edgePercentage,
        market: r.betTypeSysname,
        outcome: r.outcomeLocalized,
        bookmaker: r.bookmaker,
        odds: r.odds,
        confidence: r.confidence,
      })),
    },
    riskFactors: insightRisks({ efficiency: main.efficiency, mainFair: main.fair, books: main.quotes.length, fitGames: x.matchesUsed, hasModel: !!x.views.model, w: x.views.w, modelMain: main.model }),
    aiNotes: aiNotes(main.efficiency, main.fair, x.views.w, recommendations),
    event: { homeTeam: event.homeTeam.name, awayTeam: event.awayTeam.name, commenceTime: event.startDateTime.toISOString(), league: event.competition.name },
    analysisInsight: analysisInsight(x),
    matchSimulation: x.simulation,
  };
}

function aiNotes(efficiency: EfficiencyBreakdown | null, mainFair: MarketFair | null, w: number, recommendations: readonly RecommendationDraft[]): Sentence {
  const best = recommendations[0];
  const bandText = efficiency ? { en: efficiency.band, es: BAND_ES[efficiency.band], pt: BAND_PT[efficiency.band] } : null;
  return {
    en: [
      efficiency && bandText ? `Market efficiency ${efficiency.score}/100 (${bandText.en}).` : 'No complete main market to measure efficiency on.',
      mainFair ? `Fair prices from ${mainFair.sharpBook} with its ${pct(mainFair.margin)}% margin removed (${mainFair.method}).` : '',
      w > 0 ? `The fitted model carries ${pct(w, 0)}% of the forecast.` : "The forecast is the market's: the model has not earned a weight yet.",
      best
        ? `${recommendations.length} value bet${recommendations.length === 1 ? '' : 's'}; best ${best.outcomeLocalized.en} at ${best.odds} (${best.bookmaker}), edge ${best.edgePercentage.toFixed(1)}%.`
        : 'No price beats the fair odds by the minimum edge.',
    ]
      .filter(Boolean)
      .join(' '),
    es: [
      efficiency && bandText ? `Eficiencia del mercado ${local(String(efficiency.score)).es}/100 (${bandText.es}).` : 'No hay un mercado principal completo para medir la eficiencia.',
      mainFair ? `Precios justos de ${mainFair.sharpBook} sin su margen del ${local(pct(mainFair.margin)).es}% (${mainFair.method}).` : '',
      w > 0 ? `El modelo ajustado pesa un ${pct(w, 0)}% del pronóstico.` : 'El pronóstico es el del mercado: el modelo aún no ha ganado peso.',
      best
        ? `${recommendations.length} apuesta${recommendations.length === 1 ? '' : 's'} de valor; la mejor ${best.outcomeLocalized.es} a ${local(String(best.odds)).es} (${best.bookmaker}), ventaja ${local(best.edgePercentage.toFixed(1)).es}%.`
        : 'Ninguna cuota supera la cuota justa en la ventaja mínima.',
    ]
      .filter(Boolean)
      .join(' '),
    pt: [
      efficiency && bandText ? `Eficiência do mercado ${local(String(efficiency.score)).pt}/100 (${bandText.pt}).` : 'Não há um mercado principal completo para medir a eficiência.',
      mainFair ? `Preços justos de ${mainFair.sharpBook} sem a margem de ${local(pct(mainFair.margin)).pt}% (${mainFair.method}).` : '',
      w > 0 ? `O modelo ajustado pesa ${pct(w, 0)}% da previsão.` : 'A previsão é a do mercado: o modelo ainda não ganhou peso.',
      best
        ? `${recommendations.length} aposta${recommendations.length === 1 ? '' : 's'} de valor; a melhor ${best.outcomeLocalized.pt} a ${local(String(best.odds)).pt} (${best.bookmaker}), vantagem ${local(best.edgePercentage.toFixed(1)).pt}%.`
        : 'Nenhuma odd supera a odd justa pela vantagem mínima.',
    ]
      .filter(Boolean)
      .join(' '),
  };
}

function analysisInsight(x: InsightContext): Record<string, unknown> {
  const { event, fit, expected, ranking } = x;
  const { inversion, targets, model: view, w } = x.views;
  const { sysname: mainSysname, main, fair: mainFair, model: mainModel, efficiency } = x.main;
  const consensus = mainFair?.consensus;
  const home = String(event.homeTeam.id);
  const away = String(event.awayTeam.id);
  const describe = sportDefinition(event.sportId).model.describe;
  return {
    sportModel: { sportId: event.sportId, family: fit?.params.family ?? null, grid: 'fair = (1 - blendWeight) x market grid + blendWeight x model grid' },
    market: inversion ? { parameters: describe(inversion.x), residual: round(inversion.residual, 6), targets: targets.length } : null,
    model: view && fit ? { parameters: describe(view.x), knownTeams: view.known, gamesUsed: fit.gamesUsed, fittedAt: fit.fittedAt.toISOString() } : null,
    blendWeight: w,
    expectedScore: { home: round(expected.home, 3), away: round(expected.away, 3) },
    mainMarket:
      main && mainFair
        ? {
            sysname: mainSysname,
            sharpBook: mainFair.sharpBook,
            devigMethod: mainFair.method,
            marginPercent: round(100 * mainFair.margin, 3),
            bookmakers: mainFair.books,
            fairProbabilities: Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(mainFair.probabilities[k], 5)])),
            consensusProbabilities: consensus ? Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(consensus[k], 5)])) : null,
            modelProbabilities: mainModel ? Object.fromEntries(main.type.outcomes.map((o, k) => [o.code, round(mainModel[k], 5)])) : null,
          }
        : null,
    efficiency,
    teams: teamsInsight(fit?.params ?? null, home, away, event),
    // What the refit compares after the event: the market's and the model's main-market view.
    blendInputs: mainFair && mainModel ? { market: mainFair.probabilities.map((x) => round(x, 6)), model: mainModel.map((x) => round(x, 6)) } : null,
    bookRanking: ranking.slice(0, 10),
  };
}

function insightRisks(x: {
  efficiency: EfficiencyBreakdown | null;
  mainFair: MarketFair | null;
  books: number;
  fitGames?: number;
  hasModel: boolean;
  w: number;
  modelMain: number[] | null;
}): Sentence[] {
  const out: Sentence[] = [];
  if (!x.mainFair)
    out.push({
      en: 'No bookmaker quotes the whole main market: fair prices come from the score model alone.',
      es: 'Ninguna casa cotiza el mercado principal completo: los precios justos salen solo del modelo.',
      pt: 'Nenhuma casa cota o mercado principal completo: os preços justos vêm só do modelo.',
    });
  if (x.books === 1)
    out.push({
      en: 'Only one bookmaker prices this event: no second opinion on the fair price.',
      es: 'Solo una casa cotiza este evento: no hay segunda opinión sobre el precio justo.',
      pt: 'Apenas uma casa cota este evento: não há segunda opinião sobre o preço justo.',
    });
  if (x.efficiency && x.efficiency.dispersionPoints >= 2) {
    const d = x.efficiency.dispersionPoints.toFixed(1);
    out.push({
      en: `Bookmakers disagree by ${d} points on average: prices may be stale or news may be moving the market.`,
      es: `Las casas discrepan ${d.replace('.', ',')} puntos de media: puede haber cuotas desfasadas o noticias moviendo el mercado.`,
      pt: `As casas divergem ${d.replace('.', ',')} pontos em média: pode haver odds desatualizadas ou notícias movendo o mercado.`,
    });
  }
  if (x.efficiency && x.efficiency.marginPercent >= 6) {
    const m = x.efficiency.marginPercent.toFixed(1);
    out.push({
      en: `High bookmaker margin (${m}%): little of the price is left for the bettor.`,
      es: `Margen alto de las casas (${m.replace('.', ',')}%): queda poco valor para el apostante.`,
      pt: `Margem alta das casas (${m.replace('.', ',')}%): sobra pouco valor para o apostador.`,
    });
  }
  if (!x.hasModel)
    out.push({
      en: 'No fitted team ratings for this sport yet: the analysis rests on prices alone.',
      es: 'Aún no hay valoraciones ajustadas para este deporte: el análisis se basa solo en las cuotas.',
      pt: 'Ainda não há avaliações ajustadas para este esporte: a análise se baseia só nas odds.',
    });
  else if (x.fitGames !== undefined && x.fitGames < 100)
    out.push({
      en: `Team ratings rest on only ${x.fitGames} completed games.`,
      es: `Las valoraciones se basan en solo ${x.fitGames} partidos completados.`,
      pt: `As avaliações se baseiam em apenas ${x.fitGames} jogos concluídos.`,
    });
  const fair = x.mainFair;
  if (fair && x.modelMain) {
    const gap = Math.max(...x.modelMain.map((m, k) => Math.abs(m - fair.probabilities[k])));
    if (gap >= 0.08) {
      const g = (100 * gap).toFixed(1);
      out.push({
        en: `Model and market differ by up to ${g} points on the result: one of them misses something (injuries, lineups).`,
        es: `Modelo y mercado difieren hasta ${g.replace('.', ',')} puntos en el resultado: a uno de los dos se le escapa algo (lesiones, alineaciones).`,
        pt: `Modelo e mercado diferem até ${g.replace('.', ',')} pontos no resultado: um deles deixa escapar algo (lesões, escalações).`,
      });
    }
  }
  return out;
}

function teamsInsight(params: SportFitParams | null, home: string, away: string, event: AnalysisEvent): Record<string, unknown> {
  const side = (id: string, name: LocalizedText) => {
    const base: Record<string, unknown> = { id: Number(id), name };
    if (!params) return { ...base, rated: false };
    if (params.family === 'goals') {
      const i = params.dc.teams.indexOf(id);
      if (i < 0) return { ...base, rated: false };
      return {
        ...base,
        rated: true,
        attack: round(Math.exp(params.dc.attack[i]), 4),
        defence: round(Math.exp(params.dc.defence[i]), 4),
        note: "multipliers of the average team's scoring rate (attack) and of the rate it concedes (defence)",
      };
    }
    const i = params.teams.indexOf(id);
    if (i < 0) return { ...base, rated: false };
    if (params.family === 'normal')
      return { ...base, rated: true, strength: round(params.strength[i], 3), pace: round(params.pace[i], 3), note: 'points above an average team on margin (strength) and on total (pace)' };
    return { ...base, rated: true, setRating: round(params.rating[i], 4), note: 'log-odds of winning a set against an average opponent' };
  };
  return { home: side(home, event.homeTeam.name), away: side(away, event.awayTeam.name) };
}
