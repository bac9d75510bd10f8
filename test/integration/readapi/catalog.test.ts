import { expect } from 'chai';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { deleteReferenceDocuments, upsertReferenceDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { COMPETITIONS, marketsFor, searchNames, TEAMS } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

describe('reference endpoints: /v2/competitions, /v2/regions, /v2/teams, /v2/stats', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApiWith(
      { id: '9001', start: '2030-06-01T12:00:00Z', competition: COMPETITIONS.premierLeague },
      { id: '9002', start: '2030-06-01T15:00:00Z', competition: COMPETITIONS.premierLeague },
      { id: '9003', start: '2030-06-02T01:00:00Z', competition: COMPETITIONS.laLiga, home: TEAMS.realMadrid, away: TEAMS.atletico },
      { id: '9004', start: '2024-05-01T18:00:00Z', status: 'live', competition: COMPETITIONS.nba },
      { id: '9005', start: '2024-04-01T18:00:00Z', status: 'completed', competition: COMPETITIONS.championship },
      { id: '9006', start: '2024-04-02T18:00:00Z', status: 'postponed', competition: COMPETITIONS.mlb },
      { id: '9007', start: '2030-06-01T13:00:00Z', competition: COMPETITIONS.brasileirao, home: TEAMS.saoPaulo, away: TEAMS.flamengo },
    );
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  describe('GET /v2/competitions', () => {
    it('happy: competitions with upcoming or live events, most popular first, with region and _count.events; no key needed', async () => {
      const res = await api.get('/v2/competitions');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([
        { id: 10, caption: 'Premier League', regionId: 1, sportId: 1, region: { id: 1, caption: 'England' }, _count: { events: 2 } },
        { id: 20, caption: 'NBA', regionId: 3, sportId: 2, region: { id: 3, caption: 'United States' }, _count: { events: 1 } },
        { id: 11, caption: 'LaLiga', regionId: 2, sportId: 1, region: { id: 2, caption: 'Spain' }, _count: { events: 1 } },
        { id: 12, caption: 'Brazilian Serie A', regionId: 4, sportId: 1, region: { id: 4, caption: 'Brazil' }, _count: { events: 1 } },
      ]);
      expect(res.body.count).to.equal(4);
    });

    it('happy: status, regionId and day filters in timezone', async () => {
      const done = await api.get('/v2/competitions?status=completed,postponed');
      expect(done.body.data.map((c: { id: number }) => c.id)).to.deep.equal([40, 13]);
      expect((await api.get('/v2/competitions?regionId=1&status=upcoming,completed')).body.data.map((c: { _count: { events: number } }) => c._count.events)).to.deep.equal([2, 1]);
      const utcDay = await api.get('/v2/competitions?date=2030-06-01');
      expect(utcDay.body.data.map((c: { id: number }) => c.id)).to.deep.equal([10, 12]);
      // 01:00Z on June 2 is June 1 in São Paulo.
      const spDay = await api.get('/v2/competitions?date=2030-06-01&timezone=America/Sao_Paulo');
      expect(spDay.body.data.map((c: { id: number }) => c.id)).to.deep.equal([10, 11, 12]);
      const range = await api.get('/v2/competitions?startDate=2030-06-02&endDate=2030-06-30');
      expect(range.body.data.map((c: { id: number }) => c.id)).to.deep.equal([11]);
    });

    it('happy: captions localized', async () => {
      const res = await api.get('/v2/competitions?locale=pt&regionId=4');
      expect(res.body.data).to.deep.equal([{ id: 12, caption: 'Brasileirão Série A', regionId: 4, sportId: 1, region: { id: 4, caption: 'Brasil' }, _count: { events: 1 } }]);
    });

    it('error: date with startDate, and startDate after endDate, are 400s naming the parameters', async () => {
      const both = await api.get('/v2/competitions?date=2030-06-01&startDate=2030-06-01');
      expect(both.status).to.equal(400);
      expect(both.body.message).to.equal('Invalid request parameters: date must not be combined with startDate or endDate');
      const inverted = await api.get('/v2/competitions?startDate=2030-06-02&endDate=2030-06-01');
      expect(inverted.status).to.equal(400);
      expect(inverted.body.message).to.include('startDate must not be after endDate');
    });
  });

  describe('GET /v2/regions', () => {
    it('happy: every region with _count and availableSports, by caption', async () => {
      const res = await api.get('/v2/regions');
      expect(res.body.data.map((r: { caption: string }) => r.caption)).to.deep.equal(['Brazil', 'England', 'Germany', 'International', 'Spain', 'United States']);
      const byId = Object.fromEntries(res.body.data.map((r: { id: number }) => [r.id, r]));
      expect(byId[1]).to.deep.equal({ id: 1, caption: 'England', code: 'GB', _count: { competitions: 2, events: 2 }, availableSports: ['soccer'] });
      expect(byId[3]).to.deep.equal({ id: 3, caption: 'United States', code: 'US', _count: { competitions: 3, events: 1 }, availableSports: ['basketball', 'baseball', 'ice-hockey'] });
      expect(byId[5]).to.deep.include({ code: null, _count: { competitions: 1, events: 0 }, availableSports: ['tennis'] });
    });

    it('happy: sportName narrows regions and counts; status chooses the events counted; locale sorts and translates', async () => {
      const soccer = await api.get('/v2/regions?sportName=soccer&status=upcoming,live,completed');
      expect(soccer.body.data.map((r: { id: number; _count: object }) => [r.id, r._count])).to.deep.equal([
        [4, { competitions: 1, events: 1 }],
        [1, { competitions: 2, events: 3 }],
        [2, { competitions: 1, events: 1 }],
      ]);
      const es = await api.get('/v2/regions?locale=es');
      expect(es.body.data.map((r: { caption: string }) => r.caption)).to.deep.equal(['Alemania', 'Brasil', 'España', 'Estados Unidos', 'Inglaterra', 'Internacional']);
    });
  });

  describe('GET /v2/teams', () => {
    it('happy: search by any part of the name, case and accents ignored, in any language', async () => {
      const names = async (q: string) => (await api.get(`/v2/teams?${q}`)).body.data.map((t: { name: string }) => t.name);
      expect(await names('search=madrid')).to.deep.equal(['Atlético Madrid', 'Real Madrid']);
      expect(await names('search=ATLETICO')).to.deep.equal(['Atlético Madrid']);
      expect(await names('search=atlético%20de')).to.deep.equal(['Atlético Madrid']);
      expect(await names('search=sao')).to.deep.equal(['São Paulo']);
      expect(await names('search=yanquis')).to.deep.equal(['New York Yankees']);
      expect(await names('search=yanquis&locale=es')).to.deep.equal(['Yanquis de Nueva York']);
      expect(await names('search=boston&sportName=ice-hockey')).to.deep.equal(['Boston Bruins']);
      expect(await names('search=boston')).to.deep.equal(['Boston Bruins', 'Boston Celtics', 'Boston Red Sox']);
      expect(await names('search=flensburg-handewitt')).to.deep.equal(['SG Flensburg-Handewitt']);
      expect(await names('search=zzz')).to.deep.equal([]);
    });

    it('happy: the team form, count of all matches, paging and region filter', async () => {
      const res = await api.get('/v2/teams?sportName=soccer&limit=5&page=2');
      expect(res.body.count).to.equal(12);
      expect(res.body.data).to.have.length(5);
      expect(res.body.data[0]).to.have.all.keys('id', 'name', 'sportId', 'sport', 'regionId');
      const all = (await api.get('/v2/teams?sportName=soccer&limit=100')).body.data.map((t: { id: number }) => t.id);
      expect(res.body.data.map((t: { id: number }) => t.id)).to.deep.equal(all.slice(5, 10));
      const spain = await api.get('/v2/teams?regionId=2&locale=pt');
      // Ordered by English name, served in the requested language.
      expect(spain.body.data.map((t: { name: string }) => t.name)).to.deep.equal(['Atlético de Madrid', 'Barcelona', 'Carlos Alcaraz', 'Real Madrid', 'Sevilla']);
      expect(spain.body.data[2].sport).to.deep.equal({ id: 3, name: 'Tênis' });
    });

    it('security: regex syntax is matched literally, never as a pattern', async () => {
      await upsertReferenceDocuments({ teams: [{ _id: 999, sportId: 1, regionId: 1, name: { en: 'A.F.C. Test' }, searchNames: searchNames({ en: 'A.F.C. Test' }) }] });
      await bumpCacheVersion('competitions');
      expect((await api.get('/v2/teams?search=a.f.c')).body.data.map((t: { id: number }) => t.id)).to.deep.equal([999]);
      expect((await api.get('/v2/teams?search=a.c')).body.count).to.equal(0);
      for (const bad of ['.*', 'a|b', '(a)', '[a]', '%24where', 'a\\b', '^a']) {
        const res = await api.get(`/v2/teams?search=${encodeURIComponent(bad)}`);
        expect(res.status, bad).to.equal(400);
        expect(res.body.message, bad).to.include('search');
      }
      await deleteReferenceDocuments({ teams: [999] });
      await bumpCacheVersion('competitions');
    });
  });

  describe('GET /v2/stats', () => {
    it('happy: system-wide counts by status and sport, reference counts, as an object', async () => {
      const res = await api.get('/v2/stats?locale=es');
      const s = res.body.data;
      expect(s.events).to.deep.equal({ total: 7, upcoming: 4, live: 1, completed: 1, postponed: 1, cancelled: 0 });
      expect(s.sports.find((x: { id: number }) => x.id === 1)).to.deep.equal({ id: 1, sysname: 'soccer', name: 'Fútbol', events: 5, upcoming: 4, live: 0 });
      expect(s.sports.find((x: { id: number }) => x.id === 2)).to.deep.equal({ id: 2, sysname: 'basketball', name: 'Baloncesto', events: 1, upcoming: 0, live: 1 });
      expect(s.sports).to.have.length(8);
      expect(s).to.deep.include({ competitions: Object.keys(COMPETITIONS).length, regions: 6, teams: Object.keys(TEAMS).length });
      // Open markets: 4 upcoming soccer events and 1 live basketball event, every market of each.
      expect(s.markets).to.equal(4 * marketsFor('x', 1).length + marketsFor('x', 2).length);
      expect(Date.parse(s.lastEventUpdateAt)).to.be.greaterThan(0);
    });

    it('happy: a new competition shows once its scope version moves', async () => {
      await upsertReferenceDocuments({ competitions: [{ _id: 90, regionId: 6, sportId: 8, priority: 1, name: { en: 'DHB-Pokal' } }] });
      await bumpCacheVersion('competitions');
      expect((await api.get('/v2/stats')).body.data.competitions).to.equal(Object.keys(COMPETITIONS).length + 1);
      await deleteReferenceDocuments({ competitions: [90] });
      await bumpCacheVersion('competitions');
    });
  });
});
