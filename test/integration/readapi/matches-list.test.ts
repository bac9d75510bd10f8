import { expect } from 'chai';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { COMPETITIONS, insertEvents, TEAMS, type EventFixture } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

const ALL = 'status=upcoming,live,completed,postponed,cancelled';
const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);

describe('GET /v2/matches', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApiWith();
    const fixtures: EventFixture[] = [
      // Around the New York DST day 2024-03-10 (23 hours: 05:00Z to 04:00Z next day).
      { id: '3001', start: '2024-03-10T04:59:00Z', status: 'completed' },
      { id: '3002', start: '2024-03-10T05:00:00Z', status: 'completed', competition: COMPETITIONS.laLiga, home: TEAMS.realMadrid, away: TEAMS.atletico },
      { id: '3003', start: '2024-03-11T03:59:00Z', status: 'completed', competition: COMPETITIONS.nba },
      { id: '3004', start: '2024-03-11T04:00:00Z', status: 'completed' },
      // Upcoming and live in several sports and regions.
      { id: '3101', start: '2030-06-01T12:00:00Z', status: 'upcoming', competition: COMPETITIONS.premierLeague },
      { id: '3102', start: '2030-06-01T15:00:00Z', status: 'upcoming', competition: COMPETITIONS.laLiga, home: TEAMS.atletico, away: TEAMS.barcelona },
      { id: '3103', start: '2030-06-01T18:00:00Z', status: 'upcoming', competition: COMPETITIONS.nba },
      { id: '3104', start: '2030-06-02T01:00:00Z', status: 'upcoming', competition: COMPETITIONS.brasileirao, home: TEAMS.saoPaulo, away: TEAMS.flamengo },
      { id: '3105', start: '2024-05-01T18:00:00Z', status: 'live', competition: COMPETITIONS.atp },
      { id: '3106', start: '2024-05-02T18:00:00Z', status: 'postponed', competition: COMPETITIONS.mlb },
      { id: '3107', start: '2024-05-03T18:00:00Z', status: 'cancelled', competition: COMPETITIONS.nhl },
    ];
    await insertEvents(...fixtures);
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  it('happy: defaults to upcoming and live, by start time, with count and the list form', async () => {
    const res = await api.get('/v2/matches');
    expect(res.status).to.equal(200);
    expect(ids(res.body)).to.deep.equal(['3105', '3101', '3102', '3103', '3104']);
    expect(res.body.count).to.equal(5);
    const e = res.body.data.find((x: { id: string }) => x.id === '3102');
    expect(e).to.deep.include({
      id: '3102',
      startDateTime: '2030-06-01T15:00:00.000Z',
      status: 'upcoming',
      homeTeamId: TEAMS.atletico._id,
      awayTeamId: TEAMS.barcelona._id,
      sportId: 1,
      competitionId: 11,
      regionId: 2,
      views: 0,
    });
    expect(e.homeTeam).to.deep.equal({ id: TEAMS.atletico._id, name: 'Atlético Madrid' });
    expect(e.competition).to.deep.equal({ id: 11, caption: 'LaLiga' });
    expect(e.region).to.deep.equal({ id: 2, caption: 'Spain' });
    expect(e.sport).to.deep.equal({ id: 1, name: 'Soccer' });
    expect(e.markets.map((m: { betTypeSysname: string }) => m.betTypeSysname)).to.deep.equal(['SOCCER_MATCH_RESULT', 'SOCCER_UNDER_OVER', 'SOCCER_UNDER_OVER', 'SOCCER_UNDER_OVER']);
    for (const ev of res.body.data) expect(ev, `${ev.id} (${ev.status}) has no stats`).to.not.have.property('stats');
  });

  it('happy: completed events carry their final stats as an object', async () => {
    const res = await api.get('/v2/matches?status=completed');
    expect(ids(res.body)).to.deep.equal(['3001', '3002', '3003', '3004']);
    for (const e of res.body.data) {
      expect(e.stats).to.be.an('object').and.not.an('array');
      expect(e.stats).to.deep.equal({ homeGoals: 2, awayGoals: 1, homeCorners: 7, awayCorners: 3, homeYellowCards: 2, awayYellowCards: 3, phase: 'FT' });
    }
  });

  it('happy: status comma-separated, repeated and mixed give the same answer; postponed and cancelled can be asked for', async () => {
    const a = await api.get('/v2/matches?status=postponed,cancelled');
    const b = await api.get('/v2/matches?status=cancelled&status=postponed');
    const c = await api.get('/v2/matches?status=postponed&status=cancelled,postponed');
    expect(ids(a.body)).to.deep.equal(['3106', '3107']);
    expect(b.body).to.deep.equal(a.body);
    expect(c.body).to.deep.equal(a.body);
    expect((await api.get('/v2/matches?status=live')).body.count).to.equal(1);
  });

  it('happy: competitionId, regionId and sportName filter and combine', async () => {
    expect(ids((await api.get(`/v2/matches?${ALL}&competitionId=11`)).body)).to.deep.equal(['3002', '3102']);
    expect(ids((await api.get(`/v2/matches?${ALL}&regionId=3`)).body)).to.deep.equal(['3003', '3106', '3107', '3103']);
    expect(ids((await api.get(`/v2/matches?${ALL}&sportName=basketball`)).body)).to.deep.equal(['3003', '3103']);
    expect(ids((await api.get(`/v2/matches?${ALL}&sportName=tennis`)).body)).to.deep.equal(['3105']);
    expect(ids((await api.get(`/v2/matches?${ALL}&regionId=3&sportName=baseball`)).body)).to.deep.equal(['3106']);
    const none = await api.get(`/v2/matches?${ALL}&competitionId=99999`);
    expect(none.body).to.deep.equal({ data: [], count: 0 });
  });

  describe('date, startDate and endDate in timezone', () => {
    const on = async (q: string) => ids((await api.get(`/v2/matches?status=completed&${q}`)).body);

    it('happy: a day in UTC by default', async () => {
      expect(await on('date=2024-03-10')).to.deep.equal(['3001', '3002']);
      expect(await on('date=2024-03-11')).to.deep.equal(['3003', '3004']);
      expect(await on('date=2024-03-10&timezone=UTC')).to.deep.equal(['3001', '3002']);
    });

    it('happy: the 23-hour DST day of America/New_York starts at 05:00Z and ends at 04:00Z', async () => {
      expect(await on('date=2024-03-10&timezone=America/New_York')).to.deep.equal(['3002', '3003']);
      expect(await on('date=2024-03-09&timezone=America/New_York')).to.deep.equal(['3001']);
      expect(await on('date=2024-03-11&timezone=America/New_York')).to.deep.equal(['3004']);
    });

    it('happy: a zone east of UTC moves late-evening UTC instants to the next day; its midnight is inclusive', async () => {
      const upcoming = async (q: string) => ids((await api.get(`/v2/matches?${q}`)).body);
      // 15:00Z is exactly 00:00 on June 2 in Tokyo (UTC+9).
      expect(await upcoming('date=2030-06-01&timezone=Asia/Tokyo')).to.deep.equal(['3101']);
      expect(await upcoming('date=2030-06-02&timezone=Asia/Tokyo')).to.deep.equal(['3102', '3103', '3104']);
      expect(await upcoming('date=2030-06-02')).to.deep.equal(['3104']);
    });

    it('happy: startDate and endDate are inclusive calendar days, either alone is open-ended', async () => {
      expect(await on('startDate=2024-03-10&endDate=2024-03-10&timezone=America/New_York')).to.deep.equal(['3002', '3003']);
      expect(await on('startDate=2024-03-11&timezone=America/New_York')).to.deep.equal(['3004']);
      expect(await on('endDate=2024-03-09&timezone=America/New_York')).to.deep.equal(['3001']);
      expect(await on('startDate=2024-03-09&endDate=2024-03-11&timezone=america/new_york')).to.deep.equal(['3001', '3002', '3003', '3004']);
    });

    it('happy: date filters combine with the default statuses', async () => {
      const res = await api.get('/v2/matches?date=2030-06-01&timezone=America/Sao_Paulo');
      // 3104 starts 01:00Z on June 2 = 22:00 on June 1 in São Paulo.
      expect(ids(res.body)).to.deep.equal(['3101', '3102', '3103', '3104']);
      expect(ids((await api.get('/v2/matches?date=2030-06-01')).body)).to.deep.equal(['3101', '3102', '3103']);
    });
  });

  it('happy: names in es and pt; English where a translation is missing', async () => {
    const es = await api.get(`/v2/matches?${ALL}&competitionId=11&locale=es`);
    const real = es.body.data.find((e: { id: string }) => e.id === '3002');
    expect(real.homeTeam.name).to.equal('Real Madrid');
    expect(real.awayTeam.name).to.equal('Atlético de Madrid');
    expect(real.region.caption).to.equal('España');
    expect(real.sport.name).to.equal('Fútbol');
    expect(real.markets[0].caption).to.equal('Resultado del Partido');
    expect(real.markets[0].betItems.map((b: { caption: string }) => b.caption)).to.deep.equal(['Local', 'Empate', 'Visitante']);
    expect(real.markets[1].betItems[0].caption).to.equal('Más de 1.5');
    const pt = await api.get('/v2/matches?sportName=basketball&locale=pt');
    expect(pt.body.data[0].sport.name).to.equal('Basquete');
    expect(pt.body.data[0].region.caption).to.equal('Estados Unidos');
    expect(pt.body.data[0].markets[0].caption).to.equal('Vencedor da Partida');
  });

  describe('pagination', () => {
    before(async () => {
      const many: EventFixture[] = Array.from({ length: 250 }, (_, i) => ({
        id: String(400000 + i),
        start: new Date(Date.UTC(2031, 0, 1) + i * 60_000),
        competition: COMPETITIONS.championship,
        home: TEAMS.leeds,
        away: TEAMS.sunderland,
      }));
      // Two events at the same instant: the order stays stable by id.
      many.push({ id: '399999', start: new Date(Date.UTC(2031, 0, 1) + 100 * 60_000), competition: COMPETITIONS.championship });
      await insertEvents(...many);
      await bumpCacheVersion('events');
    });

    const page = (q: string) => api.get(`/v2/matches?competitionId=13&${q}`);

    it('happy: limit defaults to 100; page 2 is items 101-200, page 3 the rest, count the total on every page', async () => {
      const all = [...Array.from({ length: 100 }, (_, i) => String(400000 + i)), '399999', ...Array.from({ length: 150 }, (_, i) => String(400100 + i))];
      const [p1, p2, p3, p4] = await Promise.all([page(''), page('page=2'), page('page=3&limit=100'), page('page=4')]);
      expect(p1.body.data).to.have.length(100);
      expect(ids(p1.body)).to.deep.equal(all.slice(0, 100));
      expect(ids(p2.body)).to.deep.equal(all.slice(100, 200));
      expect(ids(p3.body)).to.deep.equal(all.slice(200, 251));
      expect(p4.body.data).to.deep.equal([]);
      for (const p of [p1, p2, p3, p4]) expect(p.body.count).to.equal(251);
    });

    it('happy: any limit slices consecutively: limit 7 page 3 is items 15-21', async () => {
      const full = ids((await page('limit=100')).body);
      const p = await page('limit=7&page=3');
      expect(ids(p.body)).to.deep.equal(full.slice(14, 21));
      expect(p.body.count).to.equal(251);
      const last = await page('limit=1&page=251');
      expect(ids(last.body)).to.deep.equal(['400249']);
    });
  });
});
