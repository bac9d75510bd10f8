/**
 * Realistic documents for the read API, written through the mongoose models exactly as the
 * ingest worker stores them (denormalized events, reference documents, live data, AI output).
 * Deterministic: the same event id always gets the same prices.
 */
import { bumpCacheVersion } from '../../shared/platform/cache/versions';
import { deleteAllReadData, insertSeedDocuments, upsertReferenceDocuments } from '../../shared/platform/db/repositories/fixtures';
import { betItemId, hasLine, marketId, marketTypesForSport, type MarketType } from '../../shared/domain/markets/catalog';
import type { LocalizedText, SportId } from '../../shared/domain/sports';
import { renewProcessScope } from '../../shared/platform/processScope';
import { forgetOpportunities } from '../../shared/platform/opportunities/store';
import { forgetRecommendations } from '../../shared/platform/recommendations/store';
import { forgetInsights } from '../../shared/platform/insights/store';

type L = LocalizedText;
const t = (en: string, es = en, pt = es): L => ({ en, es, pt });

export const REGIONS = {
  england: { _id: 1, code: 'GB', name: t('England', 'Inglaterra', 'Inglaterra') },
  spain: { _id: 2, code: 'ES', name: t('Spain', 'España', 'Espanha') },
  usa: { _id: 3, code: 'US', name: t('United States', 'Estados Unidos', 'Estados Unidos') },
  brazil: { _id: 4, code: 'BR', name: t('Brazil', 'Brasil', 'Brasil') },
  world: { _id: 5, code: null, name: t('International', 'Internacional', 'Internacional') },
  germany: { _id: 6, code: 'DE', name: t('Germany', 'Alemania', 'Alemanha') },
} as const;

export const COMPETITIONS = {
  premierLeague: { _id: 10, regionId: 1, sportId: 1, priority: 100, name: t('Premier League', 'Premier League', 'Premier League') },
  laLiga: { _id: 11, regionId: 2, sportId: 1, priority: 90, name: t('LaLiga', 'LaLiga', 'LaLiga') },
  brasileirao: { _id: 12, regionId: 4, sportId: 1, priority: 60, name: t('Brazilian Serie A', 'Brasileirão Serie A', 'Brasileirão Série A') },
  championship: { _id: 13, regionId: 1, sportId: 1, priority: 40, name: t('Championship', 'Championship', 'Championship') },
  nba: { _id: 20, regionId: 3, sportId: 2, priority: 95, name: t('NBA', 'NBA', 'NBA') },
  atp: { _id: 30, regionId: 5, sportId: 3, priority: 70, name: t('ATP Masters 1000', 'ATP Masters 1000', 'ATP Masters 1000') },
  mlb: { _id: 40, regionId: 3, sportId: 4, priority: 65, name: t('MLB', 'MLB', 'MLB') },
  nhl: { _id: 70, regionId: 3, sportId: 7, priority: 55, name: t('NHL', 'NHL', 'NHL') },
  bundesligaHandball: { _id: 80, regionId: 6, sportId: 8, priority: 30, name: t('Handball-Bundesliga', 'Bundesliga de Balonmano', 'Bundesliga de Handebol') },
} as const;

export const TEAMS = {
  arsenal: { _id: 100, sportId: 1, regionId: 1, name: t('Arsenal') },
  chelsea: { _id: 101, sportId: 1, regionId: 1, name: t('Chelsea') },
  liverpool: { _id: 102, sportId: 1, regionId: 1, name: t('Liverpool') },
  manCity: { _id: 103, sportId: 1, regionId: 1, name: t('Manchester City', 'Manchester City', 'Manchester City') },
  leeds: { _id: 104, sportId: 1, regionId: 1, name: t('Leeds United') },
  sunderland: { _id: 105, sportId: 1, regionId: 1, name: t('Sunderland') },
  realMadrid: { _id: 110, sportId: 1, regionId: 2, name: t('Real Madrid') },
  atletico: { _id: 111, sportId: 1, regionId: 2, name: t('Atlético Madrid', 'Atlético de Madrid', 'Atlético de Madrid') },
  barcelona: { _id: 112, sportId: 1, regionId: 2, name: t('Barcelona', 'FC Barcelona', 'Barcelona') },
  sevilla: { _id: 113, sportId: 1, regionId: 2, name: t('Sevilla', 'Sevilla FC', 'Sevilla') },
  saoPaulo: { _id: 120, sportId: 1, regionId: 4, name: t('São Paulo') },
  flamengo: { _id: 121, sportId: 1, regionId: 4, name: t('Flamengo') },
  lakers: { _id: 200, sportId: 2, regionId: 3, name: t('Los Angeles Lakers', 'Los Ángeles Lakers', 'Los Angeles Lakers') },
  celtics: { _id: 201, sportId: 2, regionId: 3, name: t('Boston Celtics') },
  alcaraz: { _id: 300, sportId: 3, regionId: 2, name: t('Carlos Alcaraz') },
  sinner: { _id: 301, sportId: 3, regionId: 5, name: t('Jannik Sinner') },
  yankees: { _id: 400, sportId: 4, regionId: 3, name: t('New York Yankees', 'Yanquis de Nueva York', 'New York Yankees') },
  redSox: { _id: 401, sportId: 4, regionId: 3, name: t('Boston Red Sox', 'Medias Rojas de Boston', 'Boston Red Sox') },
  rangers: { _id: 700, sportId: 7, regionId: 3, name: t('New York Rangers') },
  bruins: { _id: 701, sportId: 7, regionId: 3, name: t('Boston Bruins') },
  kiel: { _id: 800, sportId: 8, regionId: 6, name: t('THW Kiel') },
  flensburg: { _id: 801, sportId: 8, regionId: 6, name: t('SG Flensburg-Handewitt') },
} as const;

export type TeamFixture = (typeof TEAMS)[keyof typeof TEAMS];
export type CompetitionFixture = (typeof COMPETITIONS)[keyof typeof COMPETITIONS];

/** Lower-case, accent-free names in every locale, as ingest stores Team.searchNames. */
export const searchNames = (name: L) => [
  ...new Set(
    Object.values(name).map((n) =>
      String(n)
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase(),
    ),
  ),
];

/** Regions, competitions and teams (idempotent). */
export async function seedReference(): Promise<void> {
  await upsertReferenceDocuments({
    regions: Object.values(REGIONS),
    competitions: Object.values(COMPETITIONS),
    teams: Object.values(TEAMS).map((tm) => ({ ...tm, searchNames: searchNames(tm.name) })),
  });
}

/** A small seeded generator (mulberry32) so prices are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const seedOf = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
const price = (p: number, margin = 1.06) => Math.max(1.01, Math.round(100 / (p * margin)) / 100);

/** Typical total and its spread per sport and stat: prices of every line follow one distribution. */
const TOTALS: Record<number, { mean: number; scale: number; lines: number[]; handicaps: number[] }> = {
  1: { mean: 2.6, scale: 0.9, lines: [1.5, 2.5, 3.5], handicaps: [-0.5, 0.25] },
  2: { mean: 222, scale: 12, lines: [221.5], handicaps: [-4.5] },
  3: { mean: 2.4, scale: 0.5, lines: [2.5], handicaps: [-1.5] },
  4: { mean: 8.7, scale: 2.5, lines: [8.5], handicaps: [-1.5] },
  5: { mean: 3.7, scale: 0.7, lines: [3.5], handicaps: [-1.5] },
  6: { mean: 45, scale: 9, lines: [44.5], handicaps: [-3.5] },
  7: { mean: 5.9, scale: 1.3, lines: [5.5], handicaps: [-1.5] },
  8: { mean: 56, scale: 4, lines: [56.5], handicaps: [-2.5] },
};
const logistic = (x: number) => 1 / (1 + Math.exp(-x));

function linesFor(type: MarketType): (number | null)[] {
  if (!hasLine(type)) return [null];
  if (type.stat === 'corners') return [9.5];
  if (type.stat === 'cards') return [4.5];
  if (type.period === '1H') return [0.5, 1.5];
  return type.kind === 'total' ? TOTALS[type.sportId].lines : TOTALS[type.sportId].handicaps;
}

/** Probability of each outcome (in catalog order) given the home side's strength. */
function outcomeProbabilities(type: MarketType, line: number | null, strength: number, r: () => number): number[] {
  const t = TOTALS[type.sportId];
  switch (type.kind) {
    case 'result3': {
      const draw = 0.22 + r() * 0.06;
      const home = (1 - draw) * logistic(strength * 2);
      return [home, draw, 1 - home - draw];
    }
    case 'winner2':
      return [logistic(strength * 2), 1 - logistic(strength * 2)];
    case 'total': {
      const [mean, scale] = type.stat === 'corners' ? [10, 2.5] : type.stat === 'cards' ? [4.2, 1.6] : type.period === '1H' ? [1.1, 0.7] : [t.mean, t.scale];
      const over = logistic((mean - line!) / scale);
      return [over, 1 - over];
    }
    case 'handicap': {
      const home = logistic(strength * 2 + (line! / t.scale) * 1.5);
      return [home, 1 - home];
    }
    case 'btts': {
      const yes = 0.45 + r() * 0.15;
      return [yes, 1 - yes];
    }
    case 'doubleChance': {
      const draw = 0.25,
        home = (1 - draw) * logistic(strength * 2),
        away = 1 - home - draw;
      return [home + draw, home + away, draw + away];
    }
  }
}

/** Every catalog market of the sport with prices carrying a bookmaker margin (6 %, another book 8 %). */
export function marketsFor(eventId: string, sportId: number) {
  const r = rng(seedOf(eventId));
  const strength = (r() - 0.5) * 1.2;
  return marketTypesForSport(sportId).flatMap((type) =>
    linesFor(type).map((line) => {
      const id = marketId(eventId, type.sysname, line);
      const probs = outcomeProbabilities(type, line, strength, r);
      const margin = type.kind === 'doubleChance' ? 1.03 : 1.06;
      return {
        id,
        betTypeSysname: type.sysname,
        line,
        betItems: type.outcomes.map((o, i) => {
          const best = price(probs[i], margin);
          return { id: betItemId(id, o.code), code: o.code, price: best, isAvailable: true, bookPrices: { simulated: best, 'sim-book-b': price(probs[i], margin + 0.02) } };
        }),
      };
    }),
  );
}

export interface EventFixture {
  id: string;
  competition?: CompetitionFixture;
  home?: TeamFixture;
  away?: TeamFixture;
  start: Date | string;
  status?: 'upcoming' | 'live' | 'completed' | 'postponed' | 'cancelled';
  views?: number;
  stats?: Record<string, number | string | null> | null;
  liveStats?: Record<string, unknown> | null;
  voided?: boolean;
  markets?: ReturnType<typeof marketsFor>;
  dataSource?: string;
}

const DEFAULT_TEAMS: Record<number, [TeamFixture, TeamFixture, CompetitionFixture]> = {
  1: [TEAMS.arsenal, TEAMS.chelsea, COMPETITIONS.premierLeague],
  2: [TEAMS.lakers, TEAMS.celtics, COMPETITIONS.nba],
  3: [TEAMS.alcaraz, TEAMS.sinner, COMPETITIONS.atp],
  4: [TEAMS.yankees, TEAMS.redSox, COMPETITIONS.mlb],
  7: [TEAMS.rangers, TEAMS.bruins, COMPETITIONS.nhl],
  8: [TEAMS.kiel, TEAMS.flensburg, COMPETITIONS.bundesligaHandball],
};

/** The counts of a live event's second half (1-0): its live stats and its LiveEventData agree. */
export const LIVE_COUNTS = {
  homeGoals: 1,
  awayGoals: 0,
  homeGoalsFirstHalf: 1,
  awayGoalsFirstHalf: 0,
  homeCorners: 4,
  awayCorners: 1,
  homeYellowCards: 1,
  awayYellowCards: 0,
  homeRedCards: 0,
  awayRedCards: 0,
} as const;

/** A full event document as ingest stores it. */
export function eventDoc(f: EventFixture) {
  const competition = f.competition ?? COMPETITIONS.premierLeague;
  const [dh, da] = DEFAULT_TEAMS[competition.sportId] ?? DEFAULT_TEAMS[1];
  const home = f.home ?? dh;
  const away = f.away ?? da;
  const region = Object.values(REGIONS).find((r) => r._id === competition.regionId)!;
  const status = f.status ?? 'upcoming';
  const start = new Date(f.start);
  const finalStats = {
    homeGoals: 2,
    awayGoals: 1,
    homeGoalsFirstHalf: 1,
    awayGoalsFirstHalf: 0,
    homeCorners: 7,
    awayCorners: 3,
    homeYellowCards: 2,
    awayYellowCards: 3,
    homeRedCards: 0,
    awayRedCards: 1,
    phase: 'FT',
  };
  const liveNow = { ...LIVE_COUNTS, phase: '2H' };
  return {
    _id: f.id,
    sportId: competition.sportId,
    competitionId: competition._id,
    regionId: competition.regionId,
    homeTeam: { id: home._id, name: home.name, regionId: home.regionId },
    awayTeam: { id: away._id, name: away.name, regionId: away.regionId },
    competition: { id: competition._id, name: competition.name },
    region: { id: region._id, name: region.name },
    startDateTime: start,
    status,
    voided: f.voided ?? false,
    startedAt: status === 'live' || status === 'completed' ? start : null,
    views: f.views ?? 0,
    priority: competition.priority,
    markets: f.markets ?? marketsFor(f.id, competition.sportId),
    stats: f.stats !== undefined ? f.stats : status === 'completed' ? finalStats : status === 'live' ? liveNow : null,
    liveStats: f.liveStats !== undefined ? f.liveStats : status === 'live' ? liveStatsFor(f.id, competition.sportId, start) : null,
    dataSource: f.dataSource ?? 'simulated',
    providerEventId: `sim-${f.id}`,
  };
}

/** The flat live stats ingest writes on a live event (the contract's live endpoint). */
export function liveStatsFor(eventId: string, sportId: number, start: Date) {
  const mr = sportId === 1 ? 'SOCCER_MATCH_RESULT' : marketTypesForSport(sportId)[0].sysname;
  const mid = marketId(eventId, mr, null);
  return {
    id: eventId,
    homeGoals: 1,
    awayGoals: 0,
    homeCorners: 4,
    awayCorners: 1,
    homeYellowCards: 1,
    awayYellowCards: 0,
    homeRedCards: 0,
    awayRedCards: 0,
    elapsedSeconds: 3720,
    phaseSysname: 'SECOND_HALF',
    phaseCaptionLong: t('Second half', 'Segundo tiempo', 'Segundo tempo'),
    phaseCaption: '2H',
    referenceTime: new Date(start.getTime() + 3720_000),
    isLive: true,
    isInPlay: true,
    liveBetItems: [
      {
        betItemId: betItemId(mid, '1'),
        marketSysname: mr,
        marketCaption: 'Match Result',
        code: '1',
        caption: 'Home',
        price: 1.45,
        priceChange: -0.1,
        isAvailable: true,
        timestamp: String(start.getTime() + 3700_000),
      },
      {
        betItemId: betItemId(mid, '2'),
        marketSysname: mr,
        marketCaption: 'Match Result',
        code: '2',
        caption: 'Away',
        price: 6.5,
        priceChange: 0.75,
        isAvailable: true,
        timestamp: String(start.getTime() + 3700_000),
      },
      ...(sportId === 1
        ? [
            {
              betItemId: betItemId(marketId(eventId, 'SOCCER_UNDER_OVER', 2.5), 'O'),
              marketSysname: 'SOCCER_UNDER_OVER',
              marketCaption: 'Over/Under 2.5',
              code: 'O',
              caption: 'Over',
              price: 2.3,
              priceChange: 0,
              isAvailable: false,
              timestamp: String(start.getTime() + 3700_000),
            },
          ]
        : []),
    ],
  };
}

export async function insertEvents(...fixtures: EventFixture[]) {
  const docs = fixtures.map(eventDoc);
  await insertSeedDocuments('events', docs);
  return docs;
}

/** A provider's live-odds snapshot of a live soccer event. */
export async function insertLiveSnapshot(eventId: string, dataSource: string, capturedAt = new Date(), priceShift = 0) {
  const mr = marketId(eventId, 'SOCCER_MATCH_RESULT', null);
  const uo = marketId(eventId, 'SOCCER_UNDER_OVER', 2.5);
  await insertSeedDocuments('liveOddsSnapshots', [
    {
      _id: `${eventId}|${dataSource}`,
      eventId,
      dataSource,
      capturedAt,
      stale: false,
      liveMarkets: [
        {
          marketId: mr,
          marketSysname: 'SOCCER_MATCH_RESULT',
          marketCaption: 'Match Result',
          betItems: [
            { code: '1', price: 1.5 + priceShift, priceChange: -0.05, isAvailable: true },
            { code: 'X', price: 3.9 + priceShift, priceChange: 0.2, isAvailable: true },
            { code: '2', price: 7.0 + priceShift, priceChange: 0.5, isAvailable: true },
          ],
        },
        {
          marketId: uo,
          marketSysname: 'SOCCER_UNDER_OVER',
          marketCaption: 'Over/Under 2.5',
          betItems: [
            { code: 'O', price: 2.25 + priceShift, isAvailable: true },
            { code: 'U', price: 1.62 + priceShift, priceChange: -0.02, isAvailable: true },
          ],
        },
      ],
    },
  ]);
}

export async function insertLiveEventData(eventId: string) {
  await insertSeedDocuments('liveEventData', [
    {
      _id: eventId,
      eventId,
      ...LIVE_COUNTS,
      phaseSysname: 'SECOND_HALF',
      isLive: true,
      liveDataJson: { minute: 62, possession: { home: 58, away: 42 } },
      dataSource: 'simulated',
    },
  ]);
}

/** AI output for an event: a recommendation, its single pick and an insight. */
export async function insertAiOutput(eventId: string, start: Date) {
  const mid = marketId(eventId, 'SOCCER_UNDER_OVER', 2.5);
  const rec = {
    _id: `rec-${eventId}-O`,
    eventId,
    marketId: mid,
    betItemId: betItemId(mid, 'O'),
    betTypeSysname: 'SOCCER_UNDER_OVER',
    code: 'O',
    line: 2.5,
    sportId: 1,
    outcome: 'Over 2.5',
    bookmaker: 'simulated',
    odds: 2.1,
    probability: 0.52,
    fairOdds: 1.92,
    confidence: 'Medium',
    edgePercentage: 9.2,
    kellyFraction: 0.021,
    rationale: [t('Both sides average 1.6 expected goals', 'Ambos promedian 1,6 goles esperados', 'Ambos têm média de 1,6 gols esperados')],
    riskFactors: [t('Rotation risk', 'Riesgo de rotaciones', 'Risco de rodízio')],
    dataSupport: [t('Last 10 head-to-head matches', 'Últimos 10 enfrentamientos', 'Últimos 10 confrontos')],
    eventStartAt: start,
  };
  await insertSeedDocuments('recommendations', [rec]);
  await forgetRecommendations(); // written behind the list's read model: its next reader rebuilds it
  await insertSeedDocuments('picks', [
    {
      _id: `pick-${eventId}`,
      pickType: 'single',
      legs: [
        {
          recommendationId: rec._id,
          eventId,
          betItemId: rec.betItemId,
          market: 'SOCCER_UNDER_OVER',
          outcome: 'Over 2.5',
          code: 'O',
          bookmaker: 'simulated',
          odds: 2.1,
          point: 2.5,
          edgePercentage: 9.2,
          confidence: 'Medium',
        },
      ],
      eventIds: [eventId],
      totalOdds: 2.1,
      probability: 0.52,
      edgePercentage: 9.2,
      confidence: 'Medium',
      kellyFraction: 0.021,
      rationale: [t('Value on goals', 'Valor en goles', 'Valor em gols')],
      event: {
        id: eventId,
        homeTeam: { id: 100, name: TEAMS.arsenal.name },
        awayTeam: { id: 101, name: TEAMS.chelsea.name },
        commenceTime: start,
        startDateTime: start,
        competition: { caption: COMPETITIONS.premierLeague.name },
        competitionId: 10,
        status: 'upcoming',
        league: COMPETITIONS.premierLeague.name,
      },
      featuredOrder: 1,
      featuredDate: start.toISOString().slice(0, 10),
      startsAt: start,
      analysisInsight: { summary: t('Open game expected', 'Se espera un partido abierto', 'Jogo aberto esperado') },
      matchSimulation: { runs: 10000, mostLikelyScore: '2-1' },
      eventNews: { injuries: [t('Saka doubtful', 'Saka en duda', 'Saka em dúvida')], weather: null },
    },
  ]);
  await insertSeedDocuments('insights', [
    {
      _id: eventId,
      eventId,
      status: 'upcoming',
      startDateTime: start,
      marketEfficiencyScore: 84,
      event: { homeTeam: 'Arsenal', awayTeam: 'Chelsea', commenceTime: start, league: 'Premier League' },
      analysisInsight: { home: { form: 'WWDLW' }, away: { form: 'LDWWL' }, note: t('Home side stronger', 'Local más fuerte', 'Mandante mais forte') },
      analysisTimestamp: new Date(start.getTime() - 3600_000),
    },
  ]);
}

/**
 * A graded recommendation on an old event (outside every performance window, so no rollup sees
 * it): settle-bet has a graded bet to show.
 */
export async function insertSettledRecommendation(eventId: string): Promise<void> {
  const mid = marketId(eventId, 'SOCCER_MATCH_RESULT', null);
  await insertSeedDocuments('recommendations', [
    {
      _id: `rec-${eventId}-settled`,
      eventId,
      marketId: mid,
      betItemId: betItemId(mid, '1'),
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      code: '1',
      sportId: 1,
      outcome: 'Arsenal',
      bookmaker: 'simulated',
      odds: 1.8,
      probability: 0.6,
      fairOdds: 1.67,
      confidence: 'High',
      edgePercentage: 8,
      kellyFraction: 0.05,
      eventStartAt: new Date('2024-04-01T18:00:00Z'),
      settled: true,
      result: 'won',
      resultDetail: 'won',
      returnPerUnit: 1.8,
      actualReturn: 1.8,
      settlementDate: new Date('2024-04-01T21:00:00Z'),
      settledVersion: 0,
      reasonCode: 'graded',
      reason: 'Final score 2-1',
    },
  ]);
  await forgetRecommendations();
  await forgetInsights();
}

export async function clearReadData(): Promise<void> {
  await deleteAllReadData();
  await forgetOpportunities(); // the AI worker's read model of what was just removed
  await forgetRecommendations();
  await forgetInsights();
  renewProcessScope(); // counts kept from the data just removed (shared/platform/processScope.ts)
  await bumpCacheVersion('events'); // pages and the listing of the data just removed
}

export const SPORT_OF: Record<string, SportId> = { soccer: 1, basketball: 2, tennis: 3, baseball: 4, 'ice-hockey': 7, handball: 8 };
