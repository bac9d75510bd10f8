import { expect } from 'chai';
import { COST_TABLE, costTableDocument, openApiCosts, priceOf } from '../../../shared/domain/billing/costs';

describe('billing: cost table', () => {
  describe('happy', () => {
    const cases: [string, string, string | undefined, number | undefined][] = [
      ['GET', '/v2/matches', 'GET /v2/matches', 1],
      ['GET', '/v2/matches/123', 'GET /v2/matches/{eventId}', 1],
      ['GET', '/v2/matches/trending', 'GET /v2/matches/trending', 2],
      ['GET', '/v2/matches/live', 'GET /v2/matches/live', 2],
      ['GET', '/v2/matches/123-arsenal-chelsea/live-odds', 'GET /v2/matches/{eventId}/live-odds', 2],
      ['GET', '/v2/ai/value-opportunities', 'GET /v2/ai/value-opportunities', 5],
      ['GET', '/v2/ai/featured-picks', 'GET /v2/ai/featured-picks', 10],
      ['GET', '/v2/ai/performance/daily', 'GET /v2/ai/performance/daily', 1],
      ['GET', '/v2/bets/events/9/settle-bet', 'GET /v2/bets/events/{eventId}/settle-bet', 1],
      ['GET', '/v2/bets/bet-items/9-1-X/odds-movement', 'GET /v2/bets/bet-items/{betItemId}/odds-movement', 1],
      ['GET', '/v2/competitions', 'GET /v2/competitions', 0],
      ['GET', '/v2/health', 'GET /v2/health', 0],
      ['GET', '/v2/costs', 'GET /v2/costs', 0],
      ['HEAD', '/v2/matches', 'GET /v2/matches', 1],
      // Express matches case-insensitively and with one optional trailing slash: so does pricing.
      ['GET', '/V2/Matches/', 'GET /v2/matches', 1],
      ['GET', '/v2/MATCHES/TRENDING', 'GET /v2/matches/trending', 2],
    ];
    for (const [method, path, id, credits] of cases) {
      it(`${method} ${path} -> ${id} (${credits})`, () => {
        const p = priceOf(method, path);
        expect(p?.id).to.equal(id);
        expect(p?.credits).to.equal(credits);
      });
    }
  });

  describe('error', () => {
    for (const [method, path] of [
      ['GET', '/v2/nope'],
      ['GET', '/v2/matches//'],
      ['GET', '/v2//matches'],
      ['GET', '/v2/matches/1/2'],
      ['GET', '/v2/matches/1/live-odds/x'],
      ['POST', '/v2/matches'],
      ['DELETE', '/v2/matches/1'],
      ['GET', '/matches'],
    ]) {
      it(`${method} ${path} is not priced (falls through, unmetered)`, () => expect(priceOf(method, path)).to.equal(undefined));
    }
  });

  it('happy: contract conflicts resolved by the cost table; free rows are the public ones', () => {
    const byPath = Object.fromEntries(COST_TABLE.map((r) => [r.path, r.credits]));
    expect(byPath['/v2/matches/trending']).to.equal(2);
    expect(byPath['/v2/ai/value-opportunities']).to.equal(5);
    for (const free of ['/v2/health', '/v2/regions', '/v2/competitions', '/v2/stats', '/v2/openapi.json', '/v2/costs']) expect(byPath[free], free).to.equal(0);
    expect(new Set(COST_TABLE.map((r) => r.path)).size).to.equal(COST_TABLE.length);
    expect(costTableDocument().data.every((r) => r.keyRequired === r.credits > 0)).to.equal(true);
    const oa = openApiCosts();
    expect(oa.operations['/v2/ai/featured-picks']).to.deep.equal({ 'x-credits': 10, security: [{ apiKey: [] }] });
    expect(oa.operations['/v2/competitions'].security).to.deep.equal([]);
  });
});
