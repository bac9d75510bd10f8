import { expect } from 'chai';
import mongoose from 'mongoose';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { rng } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

/**
 * Every parameter validated before any database access: bad values, unknown enum values, the date
 * rule, limits, malformed ids, unknown parameters and nested/array tricks all answer 400 with the
 * error shape and a message naming the parameter; nothing from the query string reaches MongoDB
 * as an operator, and no request yields a 500.
 */
describe('read API request validation', () => {
  let api: ReadApi;
  // Every collection call mongoose makes, with its arguments as sent to the driver.
  const calls: { collection: string; method: string; args: unknown[] }[] = [];
  const record = (collection: string, method: string, ...args: unknown[]) => void calls.push({ collection, method, args });

  before(async () => {
    api = await readApiWith({ id: '1100', start: '2030-01-01T12:00:00Z' }, { id: '1101', start: '2024-01-01T12:00:00Z', status: 'live' });
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  // path, parameter the message must name
  const cases: [string, string][] = [
    ['/v2/matches?locale=fr', 'locale'],
    ['/v2/matches?locale=EN', 'locale'],
    ['/v2/matches?status=finished', 'status'],
    ['/v2/matches?status=upcoming,bogus', 'status'],
    ['/v2/matches?status=', 'status'],
    ['/v2/matches?sportName=cricket', 'sportName'],
    ['/v2/matches?date=2024-02-30', 'date'],
    ['/v2/matches?date=20240301', 'date'],
    ['/v2/matches?startDate=2024-13-01', 'startDate'],
    ['/v2/matches?endDate=tomorrow', 'endDate'],
    ['/v2/matches?date=2024-03-10&startDate=2024-03-01', 'date'],
    ['/v2/matches?date=2024-03-10&endDate=2024-03-11', 'date'],
    ['/v2/matches?startDate=2024-03-10&endDate=2024-03-01', 'startDate'],
    ['/v2/matches?timezone=Mars/Olympus_Mons', 'timezone'],
    ['/v2/matches?timezone=%2B05:00', 'timezone'],
    ['/v2/matches?limit=101', 'limit'],
    ['/v2/matches?limit=0', 'limit'],
    ['/v2/matches?limit=-5', 'limit'],
    ['/v2/matches?limit=abc', 'limit'],
    ['/v2/matches?limit=1e2', 'limit'],
    ['/v2/matches?limit=0x10', 'limit'],
    ['/v2/matches?limit=10.5', 'limit'],
    ['/v2/matches?limit=%2010', 'limit'],
    ['/v2/matches?page=0', 'page'],
    ['/v2/matches?page=-1', 'page'],
    ['/v2/matches?page=1000001', 'page'],
    ['/v2/matches?page=99999999999999999999', 'page'],
    ['/v2/matches?competitionId=abc', 'competitionId'],
    ['/v2/matches?competitionId=%7B%22%24gt%22%3A0%7D', 'competitionId'],
    ['/v2/matches?competitionId[%24gt]=0', 'competitionId'],
    ['/v2/matches?regionId=1&regionId=2', 'regionId'],
    ['/v2/matches?regionId[]=1', 'regionId[]'],
    ['/v2/matches?limit=10&limit=20', 'limit'],
    ['/v2/matches?foo=1', 'foo'],
    ['/v2/matches?%24where=1', '$where'],
    ['/v2/matches?status[%24ne]=live', 'status'],
    ['/v2/matches/abc', 'eventId'],
    ['/v2/matches/1100?locale=de', 'locale'],
    ['/v2/matches/1100?wrap=yes', 'wrap'],
    ['/v2/matches/1100?views=1', 'views'],
    ['/v2/matches/trending?timezone=Nowhere', 'timezone'],
    ['/v2/matches/trending?sport=cricket', 'sport'],
    ['/v2/matches/trending?status=live,done', 'status'],
    ['/v2/matches/trending?limit=3', 'limit'],
    ['/v2/matches/trending?locale=it', 'locale'],
    ['/v2/matches/live?prioritize=yes', 'prioritize'],
    ['/v2/matches/live?prioritize=1', 'prioritize'],
    ['/v2/matches/live?limit=500', 'limit'],
    ['/v2/matches/live?sport=darts', 'sport'],
    ['/v2/matches/live?locale=fr', 'locale'],
    ['/v2/matches/1101/live-odds?dataSource=a%20b', 'dataSource'],
    ['/v2/matches/1101/live-odds?locale=xx', 'locale'],
    ['/v2/matches/x1101/live-odds', 'eventId'],
    ['/v2/competitions?date=2030-01-01&endDate=2030-01-02', 'date'],
    ['/v2/competitions?regionId=one', 'regionId'],
    ['/v2/competitions?status=over', 'status'],
    ['/v2/competitions?locale=ru', 'locale'],
    ['/v2/competitions?timezone=UTC%2B1', 'timezone'],
    ['/v2/regions?status=bad', 'status'],
    ['/v2/regions?sportName=chess', 'sportName'],
    ['/v2/regions?locale=fr', 'locale'],
    ['/v2/teams?search=', 'search'],
    ['/v2/teams?search=' + 'x'.repeat(61), 'search'],
    ['/v2/teams?search=%7B%22%24regex%22%3A%22.*%22%7D', 'search'],
    ['/v2/teams?limit=101', 'limit'],
    ['/v2/teams?sportName=polo', 'sportName'],
    ['/v2/teams?locale=de', 'locale'],
    ['/v2/stats?locale=fr', 'locale'],
    ['/v2/stats?verbose=true', 'verbose'],
    ['/v2/matches?__proto__=x', '__proto__'],
    ['/v2/matches?constructor=x', 'constructor'],
  ];

  for (const [path, param] of cases) {
    it(`error: ${path} -> 400 naming ${param}`, async () => {
      const res = await api.get(path);
      expect(res.status).to.equal(400);
      expect(Object.keys(res.body).sort()).to.deep.equal(['code', 'error', 'message', 'requestId', 'statusCode']);
      expect(res.body).to.include({ code: 'invalid_parameter', requestId: res.headers.get('x-request-id') });
      expect(res.body).to.include({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.message).to.match(/^Invalid request parameters: /);
      expect(res.body.message).to.include(param);
    });
  }

  it('error: enum messages list the allowed values', async () => {
    const res = await api.get('/v2/matches?locale=fr');
    expect(res.body.message).to.equal('Invalid request parameters: locale must be one of en, es, pt');
    const tz = await api.get('/v2/matches?timezone=Mars/Base');
    expect(tz.body.message).to.equal('Invalid request parameters: timezone must be an IANA time zone name such as Europe/Madrid');
    const limit = await api.get('/v2/matches?limit=101');
    expect(limit.body.message).to.equal('Invalid request parameters: limit must be <= 100');
  });

  it('security: invalid requests never reach MongoDB; valid ones send only our operators and plain values', async () => {
    mongoose.set('debug', record);
    try {
      calls.length = 0;
      for (const [path] of cases) await api.get(path);
      // Metering debits before the route and refunds the 400 (its own ledger and holds); no
      // query for data is ever made.
      const billing = ['creditledger', 'meterholds', 'apikeys', 'accounts'];
      expect(
        calls.filter((c) => !billing.includes(c.collection)),
        'no data query for a 400',
      ).to.deep.equal([]);
      await bumpCacheVersion('events', 'competitions');
      await api.get('/v2/matches?competitionId=10&regionId=1&sportName=soccer&status=upcoming,live&date=2030-01-01&timezone=Europe/Madrid');
      await api.get('/v2/teams?search=madrid');
      // The list is filtered in memory over the listing (shared/platform/listing/): MongoDB sees the
      // listing's rebuild (no filter) and the page's events by id, never a client's value.
      const finds = calls.filter((c) => c.collection === 'events' && c.method === 'find');
      expect(finds.length).to.be.greaterThan(0);
      for (const f of finds)
        expect(f.args[0], JSON.stringify(f.args[0])).to.satisfy(
          (q: Record<string, unknown>) => Object.keys(q).length === 0 || (Object.keys(q).length === 1 && typeof q._id === 'string') || Array.isArray((q._id as { $in?: unknown })?.$in),
        );
      const teams = calls.find((c) => c.collection === 'teams' && c.method === 'find')!;
      expect(teams.args[0]).to.deep.equal({ searchNames: { $regex: 'madrid' } });
    } finally {
      mongoose.set('debug', false);
    }
  });

  it('security: no request yields a 500 (seeded fuzz over every endpoint and parameter)', async () => {
    const paths = ['/v2/matches', '/v2/matches/trending', '/v2/matches/live', '/v2/matches/1100', '/v2/matches/1101/live-odds', '/v2/competitions', '/v2/regions', '/v2/teams', '/v2/stats'];
    const names = [
      'locale',
      'status',
      'date',
      'startDate',
      'endDate',
      'timezone',
      'limit',
      'page',
      'competitionId',
      'regionId',
      'sportName',
      'sport',
      'prioritize',
      'dataSource',
      'search',
      'wrap',
      'x',
      '$gt',
      '__proto__',
      'constructor',
    ];
    const values = [
      'en',
      'es',
      'live',
      'upcoming,completed',
      '2024-03-10',
      '2024-02-31',
      'UTC',
      'Asia/Tokyo',
      '1',
      '100',
      '0',
      '-1',
      'true',
      'null',
      '[]',
      '{}',
      '%7B%22%24ne%22%3A1%7D',
      '%00',
      '%E2%82%AC',
      'a'.repeat(300),
      '..%2F..%2Fetc',
      '1e308',
      'NaN',
      'soccer',
      'simulated',
      "'%3B--",
    ];
    const r = rng(20240310);
    const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const n = Math.floor(r() * 4);
      const q = Array.from({ length: n }, () => {
        const name = pick(names);
        const suffix = r() < 0.1 ? '[%24ne]' : r() < 0.1 ? '[]' : '';
        return `${name}${suffix}=${pick(values)}`;
      }).join('&');
      const path = `${pick(paths)}${q ? `?${q}` : ''}`;
      const res = await api.get(path);
      seen.add(res.status);
      expect([200, 400, 404], `${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).to.include(res.status);
    }
    expect([...seen]).to.include.members([200, 400]);
  });
});
