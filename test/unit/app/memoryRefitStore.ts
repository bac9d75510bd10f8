import type { BlendInputRow, CompletedGameRow, ModelFitWrite, RecentQuotesRow, RefitStore } from '../../../shared/app/ai/refitPorts';

/** A refit's store in memory: the sport's games, stored analyses and quotes, and fits kept unless a newer window's is stored. */
export class MemoryRefitStore implements RefitStore {
  games: (CompletedGameRow & { sportId: number })[] = [];
  insights: BlendInputRow[] = [];
  quotes: (RecentQuotesRow & { sportId: number; startDateTime: Date })[] = [];
  fits = new Map<number, ModelFitWrite>();

  async findCompletedGames(sportId: number, since: Date, until: Date) {
    return this.games.filter((g) => g.sportId === sportId && g.startDateTime >= since && g.startDateTime <= until);
  }
  async findBlendInputs(eventIds: readonly string[]) {
    return this.insights.filter((i) => eventIds.includes(i._id));
  }
  async findRecentQuotes(sportId: number, since: Date, limit: number) {
    return this.quotes.filter((q) => q.sportId === sportId && q.startDateTime >= since).slice(0, limit);
  }
  async writeFitUnlessNewerWindow(sportId: number, fit: ModelFitWrite) {
    const stored = this.fits.get(sportId);
    if (stored && stored.window > fit.window) return false;
    this.fits.set(sportId, fit);
    return true;
  }
}
