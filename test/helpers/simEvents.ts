import { marketId as makeMarketId, betItemId as makeBetItemId, marketType, type MarketType } from '../../shared/domain/markets/catalog';
import { priceOutcome, type PricingInputs } from '../../shared/domain/ai/pricing';
import { mulberry32, sampleNormal, type Rng } from '../../shared/domain/ai/random';
import { sportDefinition } from '../../shared/domain/sports/registry';

/**
 * Events shaped like the simulated provider's: true probabilities from a score model, and
 * several bookmakers (dataSources) quoting them each with its own margin and noise, seeded.
 */
export interface Book {
  name: string;
  /** Overround, 0.025 = 2.5 %. */
  margin: number;
  /** Standard deviation of the logit noise on each outcome's probability. */
  noise: number;
}

export const BOOKS: Book[] = [
  { name: 'sharpbook', margin: 0.025, noise: 0.02 },
  { name: 'softbet', margin: 0.06, noise: 0.12 },
  { name: 'bigbook', margin: 0.05, noise: 0.1 },
  { name: 'localodds', margin: 0.07, noise: 0.15 },
];

export interface MarketSpec {
  sysname: string;
  line?: number | null;
}

export const SOCCER_MARKETS: MarketSpec[] = [
  { sysname: 'SOCCER_MATCH_RESULT' },
  { sysname: 'SOCCER_UNDER_OVER', line: 2.5 },
  { sysname: 'SOCCER_UNDER_OVER', line: 1.5 },
  { sysname: 'SOCCER_UNDER_OVER', line: 3.25 },
  { sysname: 'SOCCER_BOTH_TEAMS_TO_SCORE' },
  { sysname: 'SOCCER_DOUBLE_CHANCE' },
  { sysname: 'SOCCER_ASIAN_HANDICAP', line: -0.25 },
  { sysname: 'SOCCER_ASIAN_HANDICAP', line: 0.5 },
  { sysname: 'SOCCER_CORNERS_UNDER_OVER', line: 9.5 },
  { sysname: 'SOCCER_CARDS_UNDER_OVER', line: 3.5 },
  { sysname: 'SOCCER_FIRST_HALF_RESULT' },
  { sysname: 'SOCCER_FIRST_HALF_UNDER_OVER', line: 0.5 },
];

const logit = (p: number) => Math.log(p / (1 - p));
const logistic = (v: number) => 1 / (1 + Math.exp(-v));

/** A book's odds for one market from the true effective probabilities of its outcomes. */
export function quote(truth: number[], book: Book, rng: Rng): number[] {
  const noisy = truth.map((p) => logistic(logit(Math.min(0.995, Math.max(0.005, p))) + book.noise * sampleNormal(rng)));
  // Overlapping outcomes (double chance) sum to more than one: keep the truth's total.
  const scale = truth.reduce((a, b) => a + b, 0) / noisy.reduce((a, b) => a + b, 0);
  return noisy.map((p) => Math.round((1 / (p * scale * (1 + book.margin))) * 100) / 100).map((o) => Math.max(1.01, o));
}

export interface SimEventInput {
  id: string;
  sportId: number;
  /** True parameters in the sport's parameter space (sportParams.ts). */
  x: number[];
  home: { id: number; name: string };
  away: { id: number; name: string };
  competition?: { id: number; name: string };
  regionId?: number;
  startDateTime: Date;
  markets: MarketSpec[];
  books?: Book[];
  seed: number;
  dataSource?: string;
}

export function trueInputs(sportId: number, x: number[]): PricingInputs {
  const sport = sportDefinition(sportId);
  return {
    sportId,
    fullTime: sport.model.grid(x, {}),
    firstHalf: sport.firstHalf?.(x, {}),
    corners: { home: 5.6, away: 4.6, dispersion: 12 },
    cards: { home: 1.8, away: 2.1, dispersion: 8 },
  };
}

/** An event document (shared/platform/db/models/event.ts shape) with bookPrices per bet item. */
export function simEvent(x: SimEventInput) {
  const rng = mulberry32(x.seed);
  const books = x.books ?? BOOKS;
  const inputs = trueInputs(x.sportId, x.x);
  const dataSource = x.dataSource ?? books[0].name;
  const name = (n: string) => ({ en: n, es: n, pt: n });
  const markets = x.markets.map((spec) => {
    const type = marketType(spec.sysname) as MarketType;
    const line = spec.line ?? null;
    const truth = type.outcomes.map((o) => priceOutcome(inputs, type.sysname, o.code, line).probability);
    const quotes = books.map((b) => quote(truth, b, rng));
    const id = makeMarketId(x.id, type.sysname, line);
    return {
      id,
      betTypeSysname: type.sysname,
      line,
      betItems: type.outcomes.map((o, k) => ({
        id: makeBetItemId(id, o.code),
        code: o.code,
        price: quotes[books.findIndex((b) => b.name === dataSource)][k],
        isAvailable: true,
        bookPrices: Object.fromEntries(books.map((b, j) => [b.name, quotes[j][k]])),
      })),
    };
  });
  const competition = x.competition ?? { id: 10, name: 'Sim League' };
  return {
    _id: x.id,
    sportId: x.sportId,
    competitionId: competition.id,
    regionId: x.regionId ?? 1,
    homeTeam: { id: x.home.id, name: name(x.home.name), regionId: x.regionId ?? 1 },
    awayTeam: { id: x.away.id, name: name(x.away.name), regionId: x.regionId ?? 1 },
    competition: { id: competition.id, name: name(competition.name) },
    region: { id: x.regionId ?? 1, name: name('Simland') },
    startDateTime: x.startDateTime,
    status: 'upcoming' as const,
    markets,
    dataSource,
    providerEventId: x.id,
    oddsUpdatedAt: new Date(x.startDateTime.getTime() - 3600_000),
  };
}
