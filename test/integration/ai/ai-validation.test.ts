import { expect } from 'chai';
import { startApi, type TestServer } from '../../helpers/api';

/** Every bad parameter of the /v2/ai endpoints is a 400 naming it, before any database access. */
describe('/v2/ai request validation', () => {
  let api: TestServer;
  before(async () => (api = await startApi()));
  after(() => api.close());

  const bad: [string, RegExp][] = [
    ['/v2/ai/featured-picks?locale=fr', /locale must be one of en, es, pt|locale/],
    ['/v2/ai/featured-picks?limit=0', /limit/],
    ['/v2/ai/featured-picks?limit=51', /limit/],
    ['/v2/ai/featured-picks?limit=1e1', /limit must be an integer/],
    ['/v2/ai/featured-picks?today=maybe', /today/],
    ['/v2/ai/featured-picks?timezone=Mars/Phobos', /timezone/],
    ['/v2/ai/featured-picks?regionId=abc', /regionId/],
    ['/v2/ai/featured-picks?competitionId=1&competitionId=2', /competitionId/],
    ['/v2/ai/featured-picks?sport=soccer', /unknown query parameter "sport"/],
    ['/v2/ai/processed-insights?status=finished', /status/],
    ['/v2/ai/processed-insights?eventId=%24where', /eventId/],
    ['/v2/ai/processed-insights?teamNames[$ne]=x', /teamNames/],
    ['/v2/ai/processed-insights?limit=-1', /limit/],
    ['/v2/ai/processed-insights?locale=de', /locale/],
    ['/v2/ai/value-opportunities?minEdge=abc', /minEdge/],
    ['/v2/ai/value-opportunities?minEdge=-1', /minEdge/],
    ['/v2/ai/value-opportunities?minEdge=0x10', /minEdge/],
    ['/v2/ai/value-opportunities?confidence=Certain', /confidence/],
    ['/v2/ai/betting-recommendations?settled=yes', /settled/],
    ['/v2/ai/betting-recommendations?result=maybe', /result/],
    ['/v2/ai/betting-recommendations?page=0', /page/],
    ['/v2/ai/betting-recommendations?limit=101', /limit/],
    ['/v2/ai/betting-recommendations?eventId[$gt]=', /eventId/],
    ['/v2/ai/betting-recommendations?locale=', /locale/],
  ];
  for (const [path, names] of bad) {
    it(`error: ${decodeURIComponent(path)} is 400 naming the parameter`, async () => {
      const res = await api.get(path);
      expect(res.status).to.equal(400);
      expect(Object.keys(res.body).sort()).to.deep.equal(['code', 'error', 'message', 'requestId', 'statusCode']);
      expect(res.body).to.include({ code: 'invalid_parameter', requestId: res.headers.get('x-request-id') });
      expect(res.body).to.include({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).to.match(names);
    });
  }

  it('happy: valid parameters of every endpoint answer 200 even with no data', async () => {
    for (const path of [
      '/v2/ai/featured-picks?today=true&tomorrow=false&timezone=America/Sao_Paulo&locale=pt&limit=3&regionId=5&competitionId=7',
      '/v2/ai/processed-insights?teamNames=a,b&status=upcoming&status=completed&limit=2&timezone=Europe/Madrid&locale=es',
      '/v2/ai/value-opportunities?minEdge=3.5&confidence=High&limit=5',
      '/v2/ai/betting-recommendations?settled=true&result=push&confidence=Low&page=3&limit=10',
    ]) {
      const res = await api.get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    }
  });
});
