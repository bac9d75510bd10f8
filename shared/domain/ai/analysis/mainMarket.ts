import { marketEfficiency, type EfficiencyBreakdown } from '../efficiency';
import type { BookQuote, MarketFair } from '../fairPrice';
import { effectiveProbability } from '../pricing';
import { sportDefinition } from '../../sports/registry';
import type { TypedMarket } from './quotes';
import { distributionIn, type PriceViews } from './views';

/** The event's main market as the insight reports it: its quotes, fair price, model view and efficiency. */
export interface MainMarketView {
  sysname: string;
  main: TypedMarket | undefined;
  quotes: BookQuote[];
  fair: MarketFair | null;
  /** The model view's probability of each outcome, when there is a model. */
  model: number[] | null;
  efficiency: EfficiencyBreakdown | null;
}

export function mainMarketView(sportId: number, markets: readonly TypedMarket[], quotes: Map<string, BookQuote[]>, fairs: Map<string, MarketFair>, views: PriceViews): MainMarketView {
  const sysname = sportDefinition(sportId).mainMarket;
  const main = markets.find((m) => m.type.sysname === sysname);
  const mainQuotes = main ? (quotes.get(main.market.id) ?? []) : [];
  const grids = views.modelGrids;
  const distributions = main && grids ? main.type.outcomes.map((o) => distributionIn(grids, main.type, o.code, null, views.counts)) : null;
  const model = distributions?.every((d) => d !== null) ? distributions.map(effectiveProbability) : null;
  return {
    sysname,
    main,
    quotes: mainQuotes,
    fair: main ? (fairs.get(main.market.id) ?? null) : null,
    model,
    efficiency: mainQuotes.length ? marketEfficiency({ bookmakers: mainQuotes.map((q) => [...q.odds]), model: model ?? undefined }) : null,
  };
}
