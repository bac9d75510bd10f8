/**
 * Where the API contract we inherited says two things, the one we serve. Published in the OpenAPI
 * document (`x-contract-choices`, and in each operation's description) and explained at length in
 * docs/contract-choices.md, which a test keeps in step with this list.
 */
export interface ContractChoice {
  id: string;
  /** What the contract says, both ways. */
  question: string;
  /** What this API does: one sentence, quoted verbatim in docs/contract-choices.md. */
  reading: string;
  /** Operations the choice concerns (their descriptions carry it). */
  operations: readonly string[];
}

export const CONTRACT_CHOICES: readonly ContractChoice[] = [
  {
    id: 'detail-wrapped-in-data',
    question: 'The event detail example wraps the event in `data`; its schema shows the bare event.',
    reading: 'GET /v2/matches/{eventId} answers {data: Event}, as the example and every other endpoint; there is no bare form.',
    operations: ['matchDetail'],
  },
  {
    id: 'malformed-event-id',
    question: 'The detail documents 404 for an event that does not exist; it says nothing of an id that cannot be one.',
    reading:
      'An eventId that is not a numeric id (live-odds also takes id-slug) is a 400 naming eventId, refused before any database access and never charged; a well-formed id of no stored event is a 404.',
    operations: ['matchDetail', 'liveOdds', 'settleBet', 'matchOddsAt'],
  },
  {
    id: 'trending-cost',
    question: 'Trending costs 1 credit on its endpoint page and 2 in the cost table.',
    reading: 'GET /v2/matches/trending costs 2 credits, as the cost table says.',
    operations: ['trendingMatches'],
  },
  {
    id: 'value-opportunities-cost',
    question: 'Value opportunities cost 2 credits on their endpoint page and 5 in the cost table.',
    reading: 'GET /v2/ai/value-opportunities costs 5 credits, as the cost table says.',
    operations: ['valueOpportunities'],
  },
  {
    id: 'payment-required-vs-forbidden',
    question: 'A request the balance cannot pay is documented as 403 on one page and 402 on another.',
    reading:
      'A balance of 0 answers 402 Payment Required; a balance above 0 but under the cost answers 403 "Insufficient credits. This endpoint costs <n> credits."; both bodies carry creditsRequired and creditsRemaining.',
    operations: [],
  },
  {
    id: 'efficiency-scale',
    question: 'The market efficiency score is described on a 0 to 100 scale with bands in whole points; its example value is 0.85.',
    reading: 'marketEfficiencyScore is on the 0 to 100 scale (85, not 0.85), so the documented bands read as written.',
    operations: ['processedInsights'],
  },
  {
    id: 'stats-object',
    question: 'The event list schema calls stats an array; the fields it describes make an object.',
    reading: 'stats is an object of the described fields, or null before kickoff.',
    operations: ['listMatches', 'matchDetail', 'trendingMatches', 'liveMatches'],
  },
  {
    id: 'validation-before-credits',
    question: 'The contract does not order its 400, 402 and 403 answers.',
    reading: 'A request with a bad parameter is a 400 even when the balance could not pay for it: parameters are checked before the debit, so a refused request never touches the balance.',
    operations: [],
  },
  {
    id: 'transport-errors',
    question: 'The contract lists 400, 401, 402, 403, 404, 429, 500 and 503; it does not say how a request the HTTP layer cannot accept is answered.',
    reading:
      'A request line over 16 KB is a 414, headers over 16 KB a 431, raw non-ASCII bytes or a malformed header a 400, another method than GET or HEAD on a known path a 405, an unsupported Expect a 417: all in the error shape, and the connection is closed without a reset.',
    operations: [],
  },
];

/** The choices an operation's description mentions. */
export const choicesOf = (operationId: string) => CONTRACT_CHOICES.filter((c) => c.operations.includes(operationId));
