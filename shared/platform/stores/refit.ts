import { findInsightBlendInputsByEventIds, upsertModelFitUnlessNewerWindow } from '../db/repositories/ai';
import { findEventMarketsOfSportSince } from '../db/repositories/eventForms';
import { findCompletedEventScoresOfSport } from '../db/repositories/events';

/** The refit's store (shared/app/ai/refitPorts.ts) on MongoDB. */
export function refitStore() {
  return {
    findCompletedGames: findCompletedEventScoresOfSport,
    findBlendInputs: findInsightBlendInputsByEventIds,
    findRecentQuotes: findEventMarketsOfSportSince,
    writeFitUnlessNewerWindow: upsertModelFitUnlessNewerWindow,
  };
}
