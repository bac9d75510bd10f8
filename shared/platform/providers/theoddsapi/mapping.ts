import { countryCode } from '../../../domain/i18n/names';
import { SPORT_IDS, type SportId } from '../../../domain/sports/ids';
import { hashInt, providerEventId } from '../../../domain/providers/ids';
import type { FeedCompetition, FeedMarket, FeedOdds } from '../../../domain/providers/types';

/**
 * The Odds API v4 documents and how they map onto our feed. Pure functions: the adapter does
 * the HTTP, these do the meaning.
 */

export interface ApiSport {
  key: string;
  group: string;
  title: string;
  description: string;
  active: boolean;
  has_outrights: boolean;
}

export interface ApiOutcome {
  name: string;
  price: number;
  point?: number;
}

export interface ApiMarket {
  key: string;
  last_update?: string;
  outcomes: ApiOutcome[];
}

export interface ApiBookmaker {
  key: string;
  title: string;
  last_update: string;
  markets: ApiMarket[];
}

export interface ApiOddsEvent {
  id: string;
  sport_key: string;
  sport_title: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  bookmakers: ApiBookmaker[];
}

export interface ApiScoreEvent {
  id: string;
  sport_key: string;
  sport_title: string;
  commence_time: string;
  completed: boolean;
  home_team: string;
  away_team: string;
  scores: { name: string; score: string }[] | null;
  last_update: string | null;
}

export const PROVIDER = 'theoddsapi';

/** The API's featured markets we read (`h2h3`: its h2h of a sport with draws). */
type ApiMarketKey = 'h2h' | 'h2h3' | 'spreads' | 'totals';

/**
 * Each of our sports as The Odds API names it (its group, and its keys' prefix) and the market
 * type each featured market of it is for us (one it has not, we do not carry).
 */
const API_SPORTS: Readonly<Record<SportId, { group: string; prefix: string; markets: Partial<Record<ApiMarketKey, string>> }>> = {
  1: { group: 'Soccer', prefix: 'soccer', markets: { h2h3: 'SOCCER_MATCH_RESULT', spreads: 'SOCCER_ASIAN_HANDICAP', totals: 'SOCCER_UNDER_OVER' } },
  2: { group: 'Basketball', prefix: 'basketball', markets: { h2h: 'BASKETBALL_MONEYLINE', spreads: 'BASKETBALL_SPREAD', totals: 'BASKETBALL_TOTAL_POINTS' } },
  // The API's tennis spreads and totals are in games; our tennis markets are in sets.
  3: { group: 'Tennis', prefix: 'tennis', markets: { h2h: 'TENNIS_MATCH_WINNER' } },
  4: { group: 'Baseball', prefix: 'baseball', markets: { h2h: 'BASEBALL_MONEYLINE', spreads: 'BASEBALL_RUN_LINE', totals: 'BASEBALL_TOTAL_RUNS' } },
  5: { group: 'Volleyball', prefix: 'volleyball', markets: { h2h: 'VOLLEYBALL_MATCH_WINNER' } },
  6: { group: 'American Football', prefix: 'americanfootball', markets: { h2h: 'AMERICAN_FOOTBALL_MONEYLINE', spreads: 'AMERICAN_FOOTBALL_SPREAD', totals: 'AMERICAN_FOOTBALL_TOTAL_POINTS' } },
  7: { group: 'Ice Hockey', prefix: 'icehockey', markets: { h2h: 'ICE_HOCKEY_MONEYLINE', spreads: 'ICE_HOCKEY_PUCK_LINE', totals: 'ICE_HOCKEY_TOTAL_GOALS' } },
  8: { group: 'Handball', prefix: 'handball', markets: { h2h3: 'HANDBALL_MATCH_RESULT', spreads: 'HANDBALL_HANDICAP', totals: 'HANDBALL_TOTAL_GOALS' } },
};

const BY_GROUP: ReadonlyMap<string, SportId> = new Map(SPORT_IDS.map((id) => [API_SPORTS[id].group, id]));
const BY_PREFIX: ReadonlyMap<string, SportId> = new Map(SPORT_IDS.map((id) => [API_SPORTS[id].prefix, id]));

export function sportIdOf(key: string, group?: string): SportId | undefined {
  return (group && BY_GROUP.get(group)) || BY_PREFIX.get(key.split('_')[0]);
}

/** Competitions we know by name and region; others are named by the API's title. */
const KNOWN: Record<string, { name: string; region: string; priority: number }> = {
  soccer_epl: { name: 'Premier League', region: 'GB-ENG', priority: 100 },
  soccer_spain_la_liga: { name: 'LaLiga', region: 'ES', priority: 95 },
  soccer_italy_serie_a: { name: 'Serie A', region: 'IT', priority: 90 },
  soccer_germany_bundesliga: { name: 'Bundesliga', region: 'DE', priority: 90 },
  soccer_france_ligue_one: { name: 'Ligue 1', region: 'FR', priority: 85 },
  soccer_portugal_primeira_liga: { name: 'Primeira Liga', region: 'PT', priority: 70 },
  soccer_netherlands_eredivisie: { name: 'Eredivisie', region: 'NL', priority: 65 },
  soccer_brazil_campeonato: { name: 'Brasileirão Série A', region: 'BR', priority: 80 },
  soccer_argentina_primera_division: { name: 'Liga Profesional', region: 'AR', priority: 65 },
  soccer_mexico_ligamx: { name: 'Liga MX', region: 'MX', priority: 60 },
  soccer_usa_mls: { name: 'MLS', region: 'US', priority: 60 },
  soccer_uefa_champs_league: { name: 'UEFA Champions League', region: 'EU', priority: 100 },
  soccer_uefa_europa_league: { name: 'UEFA Europa League', region: 'EU', priority: 80 },
  soccer_efl_champ: { name: 'Championship', region: 'GB-ENG', priority: 60 },
  soccer_spl: { name: 'Premiership', region: 'GB-SCT', priority: 50 },
  basketball_nba: { name: 'NBA', region: 'US', priority: 100 },
  basketball_euroleague: { name: 'EuroLeague', region: 'EU', priority: 80 },
  basketball_ncaab: { name: 'NCAA Basketball', region: 'US', priority: 60 },
  americanfootball_nfl: { name: 'NFL', region: 'US', priority: 100 },
  americanfootball_ncaaf: { name: 'NCAA Football', region: 'US', priority: 70 },
  americanfootball_cfl: { name: 'CFL', region: 'CA', priority: 40 },
  icehockey_nhl: { name: 'NHL', region: 'US', priority: 100 },
  icehockey_sweden_hockey_league: { name: 'SHL', region: 'SE', priority: 55 },
  icehockey_liiga: { name: 'Liiga', region: 'FI', priority: 50 },
  baseball_mlb: { name: 'MLB', region: 'US', priority: 100 },
  baseball_npb: { name: 'NPB', region: 'JP', priority: 70 },
  baseball_kbo: { name: 'KBO', region: 'KR', priority: 60 },
  handball_germany_bundesliga: { name: 'Handball-Bundesliga', region: 'DE', priority: 70 },
};

/** A region for an unknown sport key: a country named in it (soccer_japan_j_league -> JP), else INT. */
function regionFromKey(key: string): string {
  const words = key.split('_').slice(1);
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const code = countryCode(words.slice(i, i + n).join(' '));
      if (code) return code;
    }
  }
  return 'INT';
}

export function competitionOf(key: string, title: string): FeedCompetition {
  const known = KNOWN[key];
  return {
    id: hashInt(`${PROVIDER}-competition|${key}`, 1_000_000, 999_999_999),
    name: known?.name ?? title,
    regionCode: known?.region ?? regionFromKey(key),
    priority: known?.priority ?? 30,
  };
}

export function eventIdOf(apiId: string): string {
  return providerEventId(PROVIDER, apiId);
}

/** Our market type for one of the API's featured markets in a sport, or undefined if we do not carry it. */
export function sysnameOf(sportId: SportId, apiMarket: string, threeWay: boolean): string | undefined {
  const key: ApiMarketKey | undefined = apiMarket === 'h2h' ? (threeWay ? 'h2h3' : 'h2h') : apiMarket === 'spreads' || apiMarket === 'totals' ? apiMarket : undefined;
  return key && API_SPORTS[sportId].markets[key];
}

/** Outcome code of an API outcome: by team name, Draw, Over, Under. */
function codeOf(apiMarket: string, outcome: ApiOutcome, home: string, away: string): string | undefined {
  if (apiMarket === 'totals') return outcome.name === 'Over' ? 'O' : outcome.name === 'Under' ? 'U' : undefined;
  if (outcome.name === home) return '1';
  if (outcome.name === away) return '2';
  if (outcome.name === 'Draw') return 'X';
  return undefined;
}

/**
 * One event's odds: every bookmaker becomes a dataSource; a spread or total quoted at different
 * lines becomes one market per line. `at` is the latest bookmaker update (the API's own
 * timestamp), so two workers reading the same response write the same history rows.
 */
export function oddsOf(sportId: SportId, ev: ApiOddsEvent): FeedOdds {
  const books = ev.bookmakers.map((b) => b.key);
  const markets = new Map<string, FeedMarket & { prices: Map<string, (number | null)[]> }>();
  let latest = 0;
  ev.bookmakers.forEach((book, bi) => {
    latest = Math.max(latest, Date.parse(book.last_update) || 0);
    for (const m of book.markets) {
      const threeWay = m.key === 'h2h' && m.outcomes.some((o) => o.name === 'Draw');
      const sysname = sysnameOf(sportId, m.key, threeWay);
      if (!sysname) continue;
      let line: number | null = null;
      if (m.key === 'spreads') line = m.outcomes.find((o) => o.name === ev.home_team)?.point ?? null;
      if (m.key === 'totals') line = m.outcomes[0]?.point ?? null;
      if (m.key !== 'h2h' && (line === null || !Number.isFinite(line))) continue;
      const k = `${sysname}@${line}`;
      let entry = markets.get(k);
      if (!entry) {
        entry = { betTypeSysname: sysname, line, sourceCaption: m.key, items: [], prices: new Map() };
        markets.set(k, entry);
      }
      for (const o of m.outcomes) {
        const code = codeOf(m.key, o, ev.home_team, ev.away_team);
        if (!code || !(o.price >= 1)) continue;
        let arr = entry.prices.get(code);
        if (!arr) {
          arr = books.map(() => null);
          entry.prices.set(code, arr);
        }
        arr[bi] = o.price;
      }
    }
  });
  const out: FeedMarket[] = [];
  for (const m of markets.values()) {
    out.push({ betTypeSysname: m.betTypeSysname, line: m.line, sourceCaption: m.sourceCaption, items: [...m.prices].map(([code, prices]) => ({ code, prices })) });
  }
  return { eventId: eventIdOf(ev.id), at: new Date(latest || Date.parse(ev.commence_time)), bookmakers: books, markets: out };
}

export function scoreOf(ev: ApiScoreEvent): { home: number | null; away: number | null } {
  const find = (team: string) => {
    const s = ev.scores?.find((x) => x.name === team)?.score;
    const n = s === undefined ? NaN : Number(s);
    return Number.isInteger(n) && n >= 0 ? n : null;
  };
  return { home: find(ev.home_team), away: find(ev.away_team) };
}
