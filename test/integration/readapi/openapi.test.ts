import { priceOf } from '../../../shared/billing/costs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { readRoutes } from '../../../api/routes/read';
import { bumpCacheVersion } from '../../../shared/cache/versions';
import { clearReadData, insertAiOutput, insertEvents, insertLiveEventData, insertLiveSnapshot, seedReference } from '../../helpers/fixtures';
import { readApi, type ReadApi } from '../../helpers/readApi';

describe('OpenAPI document and docs page', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApi();
    await clearReadData();
    await seedReference();
    const soon = new Date(Date.now() + 3600_000);
    await insertEvents(
      { id: '1301', start: soon, views: 3 },
      { id: '1302', start: '2024-05-01T18:00:00Z', status: 'live' },
      { id: '1303', start: '2024-04-01T18:00:00Z', status: 'completed', voided: true },
    );
    await insertLiveSnapshot('1302', 'simulated');
    await insertLiveEventData('1302');
    await insertAiOutput('1301', soon);
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  it('happy: OpenAPI 3.1, document version 1.0.0, every endpoint under /v2', async () => {
    const doc = api.document;
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    expect(Object.keys(doc.paths).sort()).to.deep.equal(
      ['/v2/health', '/v2/matches', '/v2/matches/{eventId}', '/v2/matches/trending', '/v2/matches/live', '/v2/matches/{eventId}/live-odds', '/v2/competitions', '/v2/regions', '/v2/teams', '/v2/stats',
        '/v2/ai/featured-picks', '/v2/ai/processed-insights', '/v2/ai/value-opportunities', '/v2/ai/betting-recommendations'].sort(),
    );
  });

  it('happy: every operation states its price and key requirement from the cost table', async () => {
    for (const [path, item] of Object.entries<any>(api.document.paths)) {
      const priced = priceOf('GET', path.replace(/\{\w+\}/g, '123'))!;
      expect(priced, path).to.not.equal(undefined);
      expect(item.get['x-credits'], path).to.equal(priced.credits);
      expect(item.get.security, path).to.deep.equal(priced.public ? [] : [{ bearerAuth: [] }]);
      if (!priced.public) expect(item.get.responses, path).to.include.keys('401', '402', '403', '429');
    }
    expect(api.document.paths['/v2/ai/featured-picks'].get['x-credits']).to.equal(10);
    expect(api.document.paths['/v2/matches/trending'].get['x-credits']).to.equal(2);
  });

  it('happy: parameters are the validator\'s own schemas: names, defaults, maximums, enums and path patterns', async () => {
    for (const route of readRoutes()) {
      const op = api.document.paths[`/v2${route.path}`].get;
      const query = op.parameters.filter((p: { in: string }) => p.in === 'query');
      expect(query.map((p: { name: string }) => p.name), route.path).to.deep.equal(Object.keys(route.query.properties));
      for (const p of query) expect(p.schema, `${route.path} ${p.name}`).to.deep.equal(JSON.parse(JSON.stringify(route.query.properties[p.name])));
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

  it('happy: every schema in the document compiles, every $ref resolves', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addFormat('iana-timezone', { type: 'string', validate: () => true });
    ajv.addSchema(api.document, 'doc');
    for (const name of Object.keys(api.document.components.schemas)) expect(ajv.getSchema(`doc#/components/schemas/${name}`), name).to.be.a('function');
    for (const [path, item] of Object.entries<any>(api.document.paths)) {
      for (const status of Object.keys(item.get.responses)) {
        const pointer = `doc#/paths/${path.replace(/\//g, '~1')}/get/responses/${status}/content/application~1json/schema`;
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
      '/v2/matches/1301?wrap=none&locale=pt',
      '/v2/matches/1302',
      '/v2/matches/1303',
      '/v2/matches/trending',
      '/v2/matches/trending?status=upcoming,live,completed&locale=es',
      '/v2/matches/live',
      '/v2/matches/live?prioritize=true&locale=pt',
      '/v2/matches/1302/live-odds',
      '/v2/matches/1302-arsenal-chelsea/live-odds?locale=es',
      '/v2/competitions',
      '/v2/regions',
      '/v2/teams?search=a',
      '/v2/stats',
      '/v2/ai/featured-picks?today=true&timezone=Asia/Tokyo',
      '/v2/ai/processed-insights?status=upcoming,live,completed',
      '/v2/ai/value-opportunities?minEdge=2.5',
      '/v2/ai/betting-recommendations?settled=false&locale=pt',
      // errors
      '/v2/matches?limit=500',
      '/v2/matches/77777777',
      '/v2/matches/x',
      '/v2/matches/trending?status=x',
      '/v2/matches/live?limit=0',
      '/v2/matches/1301/live-odds',
      '/v2/matches/1301/live-odds?dataSource=%2A',
      '/v2/competitions?date=2024-01-01&startDate=2024-01-01',
      '/v2/regions?locale=fr',
      '/v2/teams?search=%24',
      '/v2/stats?x=1',
      '/v2/health?x=1',
      '/v2/ai/featured-picks?limit=0',
      '/v2/ai/processed-insights?status=x',
      '/v2/ai/value-opportunities?minEdge=1e2',
      '/v2/ai/betting-recommendations?page=0',
    ];
    api.validated.clear();
    for (const path of requests) {
      const res = await api.get(path);
      expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
    }
    // Every documented operation had a 200 and a 400 validated against its schemas.
    for (const path of Object.keys(api.document.paths)) {
      expect([...(api.validated.get(path) ?? [])], path).to.include.members([200, 400]);
    }
    expect([...api.validated.get('/v2/matches/{eventId}')!]).to.include(404);
    expect([...api.validated.get('/v2/matches/{eventId}/live-odds')!]).to.include(404);
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
