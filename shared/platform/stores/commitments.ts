import { findRecommendationsByIds, findSettledPicksOfEvents, findSettledRecommendationsOfEvents } from '../db/repositories/ai';
import { findChainHeads, findLastLink, findLinkedKeys, findLinkOf, findLinksFrom, findSettlementLinksOf, insertChainHead, insertLinksInOrder } from '../db/repositories/commitments';

/** The commitments chain's store (shared/app/commitments/ports.ts) on MongoDB. */
export function commitmentStore() {
  return {
    findLastLink,
    findLinkedKeys,
    insertLinksInOrder,
    findLinkOf,
    findLinksFrom,
    findSettlementLinksOf,
    insertChainHead,
    findChainHeads,
    findRecommendations: findRecommendationsByIds,
    findSettledRecommendations: findSettledRecommendationsOfEvents,
    findSettledPicks: findSettledPicksOfEvents,
  };
}
