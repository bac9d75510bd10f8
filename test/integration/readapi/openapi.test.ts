import { priceOf } from '../../../shared/domain/billing/costs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { betsRoutes } from '../../../api/routes/bets';
import { performanceRoutes } from '../../../api/routes/performance';
import { readRoutes } from '../../../api/routes/read';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { betItemId, marketId } from '../../../shared/domain/markets/catalog';
import { appendOddsHistoryIgnoringDuplicates } from '../../../shared/platform/db/repositories/events';
import { insertAiOutput, insertEvents, insertLiveEventData, insertLiveSnapshot, insertSettledRecommendation } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

/** The bet item whose price history odds-movement serves. */
const MOVING_ITEM = betItemId(marketId('1301', 'SOCCER_MATCH_RESULT', null), '1');
const SETTLEMENT_PATHS = ['/v2/bets/events/{eventId}/settle-bet', '/v2/bets/bet-items/{betItemId}/odds-movement', '/v2/ai/performance', '/v2/ai/performance/daily'];
const TRACK_RECORD_PATHS = ['/v2/ai/track-record', '/v2/ai/track-record/chain', '/v2/ai/track-record/heads', '/v2/ai/track-record/chart.svg', '/v2/ai/track-record/{recommendationId}/proof'];
/** Served as image/svg+xml (its 400 is JSON); and a proof's 200 needs a committed bet: test/integration/ai/track-record.test.ts checks both bodies. */
const NOT_JSON_200 = new Set(['/v2/ai/track-record/chart.svg', '/v2/ai/track-record/{recommendationId}/proof', '/v2/stream']);

/** The read API's paths (GET operations); the account API's (other methods, tag Account) are tested in test/integration/account/. */
const readPaths = (doc: { paths: Record<string, unknown> }) => Object.fromEntries(Object.entries(doc.paths).filter(([p]) => !p.startsWith('/v2/account')));

describe('OpenAPI document and docs page', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApiWith();
    const soon = new Date(Date.now() + 3600_000);
    await insertEvents(
      { id: '1301', start: soon, views: 3 },
      { id: '1302', start: '2024-05-01T18:00:00Z', status: 'live' },
      { id: '1303', start: '2024-04-01T18:00:00Z', status: 'completed', voided: true },
    );
    await insertLiveSnapshot('1302', 'simulated');
    await insertLiveEventData('1302');
    await insertAiOutput('1301', soon);
    await insertSettledRecommendation('1303');
    await appendOddsHistoryIgnoringDuplicates(
      [1.9, 1.85, 1.95].map((price, i) => {
        const at = new Date(Date.now() - (3 - i) * 60_000);
        return { _id: `1301|simulated|${at.getTime()}`, eventId: '1301', dataSource: 'simulated', at, items: [{ id: MOVING_ITEM, price }] };
      }),
    );
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  it('happy: OpenAPI 3.1, document version 1.0.0, every endpoint under /v2', async () => {
    const doc = api.document;
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    expect(Object.keys(readPaths(doc)).sort()).to.deep.equal(
      [
        '/v2/health',
        '/v2/matches',
        '/v2/matches/{eventId}',
        '/v2/matches/trending',
        '/v2/matches/live',
        '/v2/matches/{eventId}/live-odds',
        '/v2/matches/{eventId}/odds',
        '/v2/competitions',
        '/v2/regions',
        '/v2/teams',
        '/v2/stats',
        '/v2/stream',
        '/v2/ai/featured-picks',
        '/v2/ai/processed-insights',
        '/v2/ai/value-opportunities',
        '/v2/ai/betting-recommendations',
        ...SETTLEMENT_PATHS,
        ...TRACK_RECORD_PATHS,
      ].sort(),
    );
  });

  it('happy: every operation states its price and key requirement from the cost table', async () => {
    for (const [path, item] of Object.entries<any>(readPaths(api.document))) {
      const priced = priceOf('GET', path.replace(/\{\w+\}/g, '123'))!;
      expect(priced, path).to.not.equal(undefined);
      expect(item.get['x-credits'], path).to.equal(priced.credits);
      expect(item.get.security, path).to.deep.equal(priced.public ? [] : [{ bearerAuth: [] }]);
      if (!priced.public) expect(item.get.responses, path).to.include.keys('401', '402', '403', '429');
    }
    expect(api.document.paths['/v2/ai/featured-picks'].get['x-credits']).to.equal(10);
    expect(api.document.paths['/v2/matches/trending'].get['x-credits']).to.equal(2);
    for (const path of SETTLEMENT_PATHS) {
      const op = api.document.paths[path].get;
      expect(op['x-credits'], path).to.equal(priceOf('GET', path)!.credits).and.to.equal(1);
      expect(op.security, path).to.deep.equal([{ bearerAuth: [] }]);
      expect(op.description.split('\n\n')[0], path).to.match(/Costs 1 credit per request\.$/);
    }
  });

  it("happy: parameters are the validator's own schemas: names, defaults, maximums, enums and path patterns", async () => {
    for (const route of [...readRoutes(), ...performanceRoutes(), ...betsRoutes()]) {
      const op = api.document.paths[`/v2${route.path}`].get;
      const query = op.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(
        query.map((p: { name: string }) => p.name),
        route.path,
      ).to.deep.equal(Object.keys(route.query?.properties ?? {}));
      for (const p of query) expect(p.schema, `${route.path} ${p.name}`).to.deep.equal(JSON.parse(JSON.stringify(route.query?.properties[p.name])));
      const path = op.parameters.filter((p: { in: string }) => p.in === 'path');
      expect(path.map((p: { name: string }) => p.name)).to.deep.equal(Object.keys(route.params?.properties ?? {}));
      for (const p of path) expect(p.required).to.equal(true);
    }
    const list = Object.fromEntries(api.document.paths['/v2/matches'].get.parameters.map((p: { name: string; schema: object }) => [p.name, p]));
    expect(list.limit.schema).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 100 });
    expect(list.page.schema).to.include({ type: 'integer', minimum: 1, default: 1 });
    expect(list.status.schema.default).to.deep.equal(['upcoming', 'live']);
    expect(list.status).to.include({ style: 'form', explode: true });
    expect(list.locale.schema).to.deep.include({ enum: ['en', 'es', 'pt'], default: 'en' });
    expect(list.sportName.schema.enum).to.have.length(8);
    expect(list.date.schema.format).to.equal('date');
    const trending = Object.fromEntries(api.document.paths['/v2/matches/trending'].get.parameters.map((p: { name: string; schema: object }) => [p.name, p]));
    expect(trending.timezone.schema.default).to.equal('UTC');
    const performance = api.document.paths['/v2/ai/performance'].get.parameters;
    expect(performance.map((p: { name: string }) => p.name)).to.deep.equal(['days']);
    expect(performance[0].schema).to.include({ type: 'integer', minimum: 1, maximum: 365, default: 30 });
    expect(api.document.paths['/v2/bets/events/{eventId}/settle-bet'].get.parameters[0]).to.deep.include({ name: 'eventId', in: 'path', required: true });
    expect(api.document.paths['/v2/bets/bet-items/{betItemId}/odds-movement'].get.parameters.map((p: { name: string }) => p.name)).to.deep.equal(['betItemId', 'dataSource']);
    for (const path of SETTLEMENT_PATHS.slice(0, 2)) expect(api.document.paths[path].get.responses, path).to.have.property('404');
  });

  it('happy: metered endpoints declare the bearer key and 401/402/403; competitions, regions, stats and health are keyless', async () => {
    const { paths, components } = api.document;
    expect(components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    for (const p of ['/v2/matches', '/v2/matches/{eventId}', '/v2/matches/trending', '/v2/matches/live', '/v2/matches/{eventId}/live-odds', '/v2/teams']) {
      expect(paths[p].get.security, p).to.deep.equal([{ bearerAuth: [] }]);
      expect(Object.keys(paths[p].get.responses), p).to.include.members(['200', '400', '401', '402', '403']);
    }
    for (const p of ['/v2/competitions', '/v2/regions', '/v2/stats', '/v2/health']) expect(paths[p].get.security, p).to.deep.equal([]);
    expect(paths['/v2/matches/{eventId}'].get.responses).to.have.property('404');
    expect(paths['/v2/matches/{eventId}'].get.parameters[0].schema.pattern).to.equal('^[0-9]{1,19}$');
  });

  it('happy: one Recommendation and one Pick schema serve the event detail and the /v2/ai responses', () => {
    const { components, paths } = api.document;
    const body = (path: string) => paths[path].get.responses['200'].content['application/json'].schema;
    expect(components.schemas).to.include.keys('Recommendation', 'PickLeg', 'Pick');
    expect(Object.keys(components.schemas).filter((n) => /^Ai/.test(n))).to.deep.equal([]);
    expect(components.schemas.DetailEvent.properties.bettingRecommendations.items).to.deep.equal({ $ref: '#/components/schemas/Recommendation' });
    expect(components.schemas.DetailEvent.properties.featuredPick.oneOf[0]).to.deep.equal({ $ref: '#/components/schemas/Pick' });
    expect(body('/v2/ai/featured-picks').properties.data.items).to.deep.equal({ $ref: '#/components/schemas/Pick' });
    expect(body('/v2/ai/betting-recommendations').properties.data.items).to.deep.equal({ $ref: '#/components/schemas/Recommendation' });
    expect(body('/v2/ai/value-opportunities').properties.opportunities.items).to.deep.equal({ $ref: '#/components/schemas/Recommendation' });
    expect(components.schemas.PickLeg.required).to.include.members(['recommendationId', 'eventId', 'betItemId']);
    const detailParams = paths['/v2/matches/{eventId}'].get.parameters.map((p: { name: string }) => p.name);
    expect(detailParams).to.include('timezone');
  });

  it('happy: every schema in the document compiles, every $ref resolves', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat('iana-timezone', { type: 'string', validate: () => true });
    ajv.addSchema(api.document, 'doc');
    for (const name of Object.keys(api.document.components.schemas)) expect(ajv.getSchema(`doc#/components/schemas/${name}`), name).to.be.a('function');
    for (const [path, item] of Object.entries<any>(readPaths(api.document))) {
      for (const [status, response] of Object.entries<any>(item.get.responses)) {
        const mediaType = Object.keys(response.content)[0].replace(/\//g, '~1');
        const pointer = `doc#/paths/${path.replace(/\//g, '~1')}/get/responses/${status}/content/${mediaType}/schema`;
        expect(ajv.getSchema(pointer), `${path} ${status}`).to.be.a('function');
      }
    }
  });

  it('happy: the responses actually served validate against the document, for every endpoint and error', async () => {
    const requests = [
      '/v2/health',
      '/v2/matches',
      '/v2/matches?status=completed&locale=es',
      '/v2/matches?status=live,upcoming,completed&limit=2&page=2',
      '/v2/matches/1301',
      '/v2/matches/1301?wrap=data&locale=pt',
      '/v2/matches/1301?timezone=America/Sao_Paulo',
      '/v2/matches/1302',
      '/v2/matches/1303',
      '/v2/matches/trending',
      '/v2/matches/trending?status=upcoming,live,completed&locale=es',
      '/v2/matches/live',
      '/v2/matches/live?prioritize=true&locale=pt',
      '/v2/matches/1302/live-odds',
      '/v2/matches/1302-arsenal-chelsea/live-odds?locale=es',
      `/v2/matches/1301/odds?at=${new Date().toISOString()}`,
      '/v2/competitions',
      '/v2/regions',
      '/v2/teams?search=a',
      '/v2/stats',
      '/v2/ai/featured-picks?today=true&timezone=Asia/Tokyo',
      '/v2/ai/processed-insights?status=upcoming,live,completed',
      '/v2/ai/value-opportunities?minEdge=2.5',
      '/v2/ai/betting-recommendations?settled=false&locale=pt',
      '/v2/bets/events/1301/settle-bet',
      '/v2/bets/events/1302/settle-bet?locale=es',
      '/v2/bets/events/1303/settle-bet?locale=pt',
      `/v2/bets/bet-items/${MOVING_ITEM}/odds-movement`,
      '/v2/ai/performance',
      '/v2/ai/performance?days=7',
      '/v2/ai/performance/daily?days=3',
      '/v2/ai/track-record',
      '/v2/ai/track-record?days=7&sport=soccer&confidence=High',
      '/v2/ai/track-record/chain',
      '/v2/ai/track-record/heads',
      '/v2/ai/track-record/rec-unknown/proof',
      // errors
      '/v2/matches?limit=500',
      '/v2/matches/77777777',
      '/v2/matches/x',
      '/v2/matches/trending?status=x',
      '/v2/matches/live?limit=0',
      '/v2/matches/1301/live-odds',
      '/v2/matches/1301/live-odds?dataSource=%2A',
      '/v2/matches/1301/odds?at=x',
      '/v2/competitions?date=2024-01-01&startDate=2024-01-01',
      '/v2/regions?locale=fr',
      '/v2/teams?search=%24',
      '/v2/stats?x=1',
      '/v2/stream?channels=x',
      '/v2/health?x=1',
      '/v2/ai/featured-picks?limit=0',
      '/v2/ai/processed-insights?status=x',
      '/v2/ai/value-opportunities?minEdge=1e2',
      '/v2/ai/betting-recommendations?page=0',
      '/v2/bets/events/77777777/settle-bet',
      '/v2/bets/events/x/settle-bet',
      '/v2/bets/events/1301/settle-bet?locale=fr',
      `/v2/bets/bet-items/${MOVING_ITEM}/odds-movement?dataSource=sim-book-b`,
      `/v2/bets/bet-items/${MOVING_ITEM}/odds-movement?dataSource=%2A`,
      '/v2/bets/bet-items/%24x/odds-movement',
      '/v2/ai/performance?days=0',
      '/v2/ai/performance/daily?days=366',
      '/v2/ai/track-record?days=0',
      '/v2/ai/track-record/chain?limit=0',
      '/v2/ai/track-record/heads?limit=0',
      '/v2/ai/track-record/chart.svg?kind=pie',
      `/v2/ai/track-record/${'x'.repeat(301)}/proof`,
    ];
    api.validated.clear();
    for (const path of requests) {
      const res = await api.get(path);
      expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
    }
    // Every documented operation had a 200 and a 400 validated against its schemas.
    for (const path of Object.keys(readPaths(api.document))) {
      expect([...(api.validated.get(path) ?? [])], path).to.include.members(NOT_JSON_200.has(path) ? [400] : [200, 400]);
    }
    expect([...api.validated.get('/v2/ai/track-record/{recommendationId}/proof')!]).to.include(404);
    const chart = await api.get('/v2/ai/track-record/chart.svg?kind=calibration');
    expect(chart.status).to.equal(200);
    expect(chart.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect([...api.validated.get('/v2/matches/{eventId}')!]).to.include(404);
    expect([...api.validated.get('/v2/matches/{eventId}/live-odds')!]).to.include(404);
    for (const path of SETTLEMENT_PATHS.slice(0, 2)) expect([...api.validated.get(path)!], path).to.include(404);
  });

  it('happy: settlement and performance bodies as documented: graded fields, price movement, the 404 naming the sources with history', async () => {
    const settled = await api.get('/v2/bets/events/1303/settle-bet');
    expect(settled.status).to.equal(200);
    expect(settled.body.data.recommendations.find((r: { id: string }) => r.id === 'rec-1303-settled')).to.deep.include({
      settled: true,
      result: 'won',
      resultDetail: 'won',
      returnPerUnit: 1.8,
      actualReturn: 1.8,
      reasonCode: 'graded',
    });
    const moved = await api.get(`/v2/bets/bet-items/${MOVING_ITEM}/odds-movement`);
    expect(moved.body.data).to.deep.include({ betItemId: MOVING_ITEM, eventId: '1301', dataSource: 'simulated', min: 1.85, max: 1.95, change: 0.05, points: 3, truncated: false });
    const elsewhere = await api.get(`/v2/bets/bet-items/${MOVING_ITEM}/odds-movement?dataSource=sim-book-b`);
    expect(elsewhere.status).to.equal(404);
    expect(elsewhere.body).to.deep.include({ statusCode: 404, error: 'Not Found', dataSources: ['simulated'] });
    const daily = await api.get('/v2/ai/performance/daily?days=3');
    expect(daily.body.days).to.have.length(3);
    expect(daily.body.period).to.equal('3 days');
  });

  it('error: settlement and performance parameters are 400s naming the parameter, before any lookup', async () => {
    for (const [path, message] of [
      ['/v2/bets/events/x/settle-bet', /eventId/],
      ['/v2/bets/events/1301/settle-bet?limit=1', /unknown query parameter "limit"/],
      [`/v2/bets/bet-items/${MOVING_ITEM}/odds-movement?dataSource=a&dataSource=b`, /dataSource/],
      ['/v2/ai/performance?days=366', /days/],
      ['/v2/ai/performance/daily?days=1e1', /days must be an integer/],
    ] as const) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.message, path).to.match(message);
    }
  });

  it('security: the document and the docs page are served locally, without a CDN', async () => {
    const redirect = await fetch(`${api.url}/v2/docs`, { redirect: 'manual' });
    expect(redirect.status).to.equal(301);
    expect(redirect.headers.get('location')).to.equal('/v2/docs/');
    const page = await fetch(`${api.url}/v2/docs/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const html = await page.text();
    expect(html).to.include('swagger-ui-bundle.js');
    expect(html).to.not.match(/https?:\/\//);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css', 'index.css']) {
      const res = await fetch(`${api.url}/v2/docs/${asset}`);
      expect(res.status, asset).to.equal(200);
      expect((await res.arrayBuffer()).byteLength, asset).to.be.greaterThan(100);
    }
    const init = await (await fetch(`${api.url}/v2/docs/swagger-initializer.js`)).text();
    expect(init).to.include("url: '../openapi.json'");
    const missing = await fetch(`${api.url}/v2/docs/nope.js`);
    expect(missing.status).to.equal(404);
  });
});
