import type { LocalizedText } from '../sports';

/** What the analysis and the featured picks both read of an event: who plays, where, when. */
export interface EventHeader {
  id: string;
  homeTeam: { id: number; name: LocalizedText };
  awayTeam: { id: number; name: LocalizedText };
  competition: { id: number; name: LocalizedText };
  competitionId: number;
  regionId: number;
  startDateTime: Date;
}

/** The fields naming one recommendation's bet, shared by its draft and its stored document. */
export interface RecommendationIdentity {
  _id: string;
  eventId: string;
  marketId: string;
  betItemId: string;
  betTypeSysname: string;
  code: string;
}

/** The price a stored recommendation stands by: what the API renders and the track record commits. */
export interface RecommendationPrice {
  bookmaker: string;
  odds: number;
  probability: number;
  fairOdds: number;
  confidence: string;
  edgePercentage: number;
  kellyFraction: number;
}

/** Only the price fields of a recommendation, in the order the API and the committed record write them. */
export function recommendationPrice(r: RecommendationPrice): RecommendationPrice {
  return { bookmaker: r.bookmaker, odds: r.odds, probability: r.probability, fairOdds: r.fairOdds, confidence: r.confidence, edgePercentage: r.edgePercentage, kellyFraction: r.kellyFraction };
}
