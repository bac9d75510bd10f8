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
