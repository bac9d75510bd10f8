import { expect } from 'chai';
import { DateTime } from 'luxon';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { setLiveOddsSnapshotFields } from '../../../shared/platform/db/repositories/fixtures';
import { COMPETITIONS, insertLiveSnapshot, marketsFor, TEAMS } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);

/** Waits out the last 30 s of a UTC hour (both UTC and Tokyo days turn at 15:00 / 00:00 UTC). */
async function awayFromMidnight(): Promise<void> {
  const now = DateTime.utc();
  if (now.minute === 59 && now.second >= 30) await new Promise((r) => setTimeout(r, (61 - now.second) * 1000));
}

describe('GET /v2/matches/trending', () => {
  let api: ReadApi;
  // Instants relative to the current day in Tokyo (UTC+9) and in UTC, so the test holds any day.
  let tokyoToday: DateTime;
  let utcToday: DateTime;
  const at = (d: DateTime, hours: number) => d.plus({ hours }).toJSDate();

  before(async function () {
    this.timeout(60000);
    await awayFromMidnight();
    tokyoToday = DateTime.now().setZone('Asia/Tokyo').startOf('day');
    utcToday = DateTime.utc().startOf('day');
    api = await readApiWith(
      { id: '6001', start: at(utcToday, 10), views: 50 },
      { id: '6002', start: at(utcToday, 11), views: 90, status: 'live', competition: COMPETITIONS.laLiga, home: TEAMS.realMadrid, away: TEAMS.barcelona },
      { id: '6003', start: at(utcToday, 12), views: 70, competition: COMPETITIONS.nba },
      { id: '6004', start: at(utcToday, 13), views: 10 },
      { id: '6005', start: at(utcToday, 14), views: 30 },
      { id: '6006', start: at(utcToday, 15), views: 20 },
      { id: '6007', start: at(utcToday, 16), views: 500, status: 'completed' },
      { id: '6008', start: at(utcToday, 36), views: 1000 }, // tomorrow (UTC)
      { id: '6009', start: at(utcToday, -12), views: 1000 }, // yesterday (UTC)
      // Tokyo's day: 00:00 local is inclusive, 24:00 local is not.
      { id: '6101', start: at(tokyoToday, 0), views: 5, competition: COMPETITIONS.atp },
      { id: '6102', start: at(tokyoToday, 24), views: 999, competition: COMPETITIONS.atp },
      { id: '6103', start: at(tokyoToday, -0.01), views: 999, competition: COMPETITIONS.atp },
    );
    await bumpCacheVersion('events');
  });
  after(() => api.close());

  it('happy: top 5 of today (UTC) by views among upcoming and live, most viewed first, count = returned', async () => {
    const res = await api.get('/v2/matches/trending');
    const utcIds = ids(res.body).filter((id) => id.startsWith('60'));
    expect(utcIds.slice(0, 4)).to.deep.equal(['6002', '6003', '6001', '6005']);
    expect(res.body.data).to.have.length.at.most(5);
    expect(res.body.count).to.equal(res.body.data.length);
    const views = res.body.data.map((e: { views: number }) => e.views);
    expect(views).to.deep.equal([...views].sort((a: number, b: number) => b - a));
    expect(ids(res.body)).to.not.include.members(['6007', '6008', '6009']);
  });

  it('happy: only the trending fields, and only the two soccer market types', async () => {
    const res = await api.get('/v2/matches/trending?sport=soccer');
    expect(ids(res.body)).to.deep.equal(['6002', '6001', '6005', '6006', '6004']);
    for (const e of res.body.data) {
      expect(Object.keys(e).sort()).to.deep.equal(['awayTeam', 'competition', 'competitionId', 'homeTeam', 'id', 'markets', 'region', 'sport', 'startDateTime', 'status', 'views'].sort());
      expect(new Set(e.markets.map((m: { betTypeSysname: string }) => m.betTypeSysname))).to.deep.equal(new Set(['SOCCER_MATCH_RESULT', 'SOCCER_UNDER_OVER']));
      const uo = e.markets.find((m: { betTypeSysname: string }) => m.betTypeSysname === 'SOCCER_UNDER_OVER');
      expect(uo.betItems[0].instanceCaption).to.equal(String(uo.line));
    }
    const nba = await api.get('/v2/matches/trending?sport=basketball');
    expect(ids(nba.body)).to.deep.equal(['6003']);
    expect(nba.body.data[0].markets).to.deep.equal([]);
  });

  it('happy: status filter, comma-separated or repeated; completed allowed', async () => {
    const completed = await api.get('/v2/matches/trending?status=completed');
    expect(ids(completed.body)).to.deep.equal(['6007']);
    const a = await api.get('/v2/matches/trending?status=live,completed&sport=soccer');
    const b = await api.get('/v2/matches/trending?status=completed&status=live&sport=soccer');
    expect(ids(a.body)).to.deep.equal(['6007', '6002']);
    expect(b.body).to.deep.equal(a.body);
  });

  it('happy: today is the day in timezone, midnight inclusive', async () => {
    const res = await api.get('/v2/matches/trending?timezone=Asia/Tokyo&sport=tennis');
    expect(ids(res.body)).to.deep.equal(['6101']);
  });

  it('happy: names localized', async () => {
    const res = await api.get('/v2/matches/trending?sport=soccer&status=live&locale=es');
    expect(res.body.data[0]).to.deep.include({ sport: { name: 'Fútbol' }, region: { id: 2, caption: 'España' } });
    expect(res.body.data[0].markets[0].betItems.map((b: { caption: string }) => b.caption)).to.deep.equal(['Local', 'Empate', 'Visitante']);
  });
});

describe('GET /v2/matches/live', () => {
  let api: ReadApi;
  before(async () => {
    api = await readApiWith(
      { id: '7001', start: '2024-05-01T18:00:00Z', status: 'live', competition: COMPETITIONS.championship, home: TEAMS.leeds, away: TEAMS.sunderland },
      { id: '7002', start: '2024-05-01T18:30:00Z', status: 'live', competition: COMPETITIONS.premierLeague },
      { id: '7003', start: '2024-05-01T19:00:00Z', status: 'live', competition: COMPETITIONS.nba },
      { id: '7004', start: '2024-05-01T17:00:00Z', status: 'live', competition: COMPETITIONS.brasileirao, home: TEAMS.saoPaulo, away: TEAMS.flamengo, liveStats: null },
      { id: '7005', start: '2024-05-01T16:00:00Z', status: 'upcoming' },
      { id: '7006', start: '2024-05-01T15:00:00Z', status: 'completed' },
    );
    await bumpCacheVersion('events');
  });
  after(() => api.close());

  it('happy: live events only, by start time, each with flat live stats and liveBetItems', async () => {
    const res = await api.get('/v2/matches/live');
    expect(ids(res.body)).to.deep.equal(['7004', '7001', '7002', '7003']);
    expect(res.body.count).to.equal(4);
    const e = res.body.data.find((x: { id: string }) => x.id === '7002');
    expect(Object.keys(e)).to.include.members([
      'id',
      'startDateTime',
      'status',
      'competitionId',
      'sportId',
      'regionId',
      'views',
      'sport',
      'homeTeam',
      'awayTeam',
      'competition',
      'region',
      'stats',
      'markets',
    ]);
    expect(e.status).to.equal('live');
    expect(e.stats).to.deep.include({
      id: '7002',
      homeGoals: 1,
      awayGoals: 0,
      homeCorners: 4,
      awayCorners: 1,
      homeYellowCards: 1,
      awayYellowCards: 0,
      homeRedCards: 0,
      awayRedCards: 0,
      elapsedSeconds: 3720,
      phaseCaptionLong: 'Second half',
      phaseCaption: '2H',
      isLive: true,
      isInPlay: true,
    });
    expect(e.stats.referenceTime).to.equal(new Date(Date.parse('2024-05-01T18:30:00Z') + 3720_000).toISOString());
    // Every price of the event is a live bet item (built from its stored prices at read time).
    expect(e.stats.liveBetItems).to.have.length(marketsFor('7002', 1).flatMap((m) => m.betItems).length);
    expect(e.stats.liveBetItems[0]).to.deep.equal({
      betItemId: '7002-SOCCER_MATCH_RESULT-1',
      marketSysname: 'SOCCER_MATCH_RESULT',
      marketCaption: 'Match Result',
      code: '1',
      caption: 'Home',
      price: 1.45,
      priceChange: -0.1,
      isAvailable: true,
      timestamp: String(Date.parse('2024-05-01T18:30:00Z') + 3700_000),
    });
    expect(e.stats.liveBetItems.find((i: { betItemId: string }) => i.betItemId === '7002-SOCCER_UNDER_OVER@2.5-O')).to.include({
      marketCaption: 'Total Goals Over/Under 2.5',
      caption: 'Over 2.5',
      isAvailable: false,
    });
  });

  it('happy: stats are always present, even before the first live stats arrive', async () => {
    const res = await api.get('/v2/matches/live?limit=1');
    expect(ids(res.body)).to.deep.equal(['7004']);
    expect(res.body.count).to.equal(4);
    expect(res.body.data[0].stats).to.deep.include({ id: '7004', homeGoals: 1, elapsedSeconds: null, phaseCaption: null, isLive: true, liveBetItems: [] });
  });

  it('happy: prioritize=true lists the most popular competitions first', async () => {
    const res = await api.get('/v2/matches/live?prioritize=true');
    // Premier League 100, NBA 95, Brasileirão 60, Championship 40.
    expect(ids(res.body)).to.deep.equal(['7002', '7003', '7004', '7001']);
    expect(ids((await api.get('/v2/matches/live?prioritize=false')).body)).to.deep.equal(['7004', '7001', '7002', '7003']);
  });

  it('happy: sport filter, limit and page', async () => {
    expect(ids((await api.get('/v2/matches/live?sport=basketball')).body)).to.deep.equal(['7003']);
    const p2 = await api.get('/v2/matches/live?limit=2&page=2&prioritize=true');
    expect(ids(p2.body)).to.deep.equal(['7004', '7001']);
    expect(p2.body.count).to.equal(4);
  });

  it('happy: localized phase, market and outcome names', async () => {
    const res = await api.get('/v2/matches/live?locale=pt&sport=soccer&limit=2');
    const e = res.body.data[1];
    expect(e.stats.phaseCaptionLong).to.equal('Segundo tempo');
    expect(e.stats.liveBetItems[0]).to.include({ marketCaption: 'Resultado Final', caption: 'Casa' });
    expect(e.sport.name).to.equal('Futebol');
  });
});

describe('GET /v2/matches/{eventId}/live-odds', () => {
  let api: ReadApi;
  const captured = new Date('2024-05-01T19:02:30Z');
  before(async () => {
    api = await readApiWith({ id: '8001', start: '2024-05-01T18:00:00Z', status: 'live' }, { id: '8002', start: '2030-05-01T18:00:00Z' });
    await insertLiveSnapshot('8001', 'simulated', captured);
    await insertLiveSnapshot('8001', 'sim-book-b', captured, 0.1);
    await bumpCacheVersion('events');
  });
  after(() => api.close());

  it("happy: the default provider's snapshot with localized names", async () => {
    const res = await api.get('/v2/matches/8001/live-odds');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.include({ eventId: '8001', dataSource: 'simulated', capturedAt: captured.toISOString(), stale: false });
    expect(res.body.data.liveMarkets).to.deep.equal([
      {
        marketId: '8001-SOCCER_MATCH_RESULT',
        marketSysname: 'SOCCER_MATCH_RESULT',
        marketCaption: 'Match Result',
        marketDisplayName: 'Match Result',
        line: null,
        betItems: [
          { code: '1', translatedCaption: 'Home', price: 1.5, priceChange: -0.05, isAvailable: true },
          { code: 'X', translatedCaption: 'Draw', price: 3.9, priceChange: 0.2, isAvailable: true },
          { code: '2', translatedCaption: 'Away', price: 7, priceChange: 0.5, isAvailable: true },
        ],
      },
      {
        marketId: '8001-SOCCER_UNDER_OVER@2.5',
        marketSysname: 'SOCCER_UNDER_OVER',
        // The catalog's English name, as ingest stores it (the line is in the display name).
        marketCaption: 'Total Goals Over/Under',
        marketDisplayName: 'Total Goals Over/Under 2.5',
        line: 2.5,
        betItems: [
          { code: 'O', translatedCaption: 'Over 2.5', price: 2.25, priceChange: null, isAvailable: true },
          { code: 'U', translatedCaption: 'Under 2.5', price: 1.62, priceChange: -0.02, isAvailable: true },
        ],
      },
    ]);
  });

  it('happy: an id-plus-slug is the same event; dataSource picks another provider; locale translates', async () => {
    const slug = await api.get('/v2/matches/8001-arsenal-vs-chelsea/live-odds');
    const plain = await api.get('/v2/matches/8001/live-odds');
    expect(slug.body).to.deep.equal(plain.body);
    const other = await api.get('/v2/matches/8001-arsenal-vs-chelsea/live-odds?dataSource=sim-book-b&locale=es');
    expect(other.body.data.dataSource).to.equal('sim-book-b');
    expect(other.body.data.liveMarkets[0].betItems[0]).to.deep.include({ translatedCaption: 'Local', price: 1.6 });
    expect(other.body.data.liveMarkets[1].marketDisplayName).to.equal('Total de Goles Más/Menos 2.5');
  });

  it('happy: a provider marked stale says so', async () => {
    await setLiveOddsSnapshotFields('8001', 'sim-book-b', { stale: true });
    await bumpCacheVersion('events');
    const res = await api.get('/v2/matches/8001/live-odds?dataSource=sim-book-b');
    expect(res.body.data.stale).to.equal(true);
  });

  it('error: unknown event 404; no snapshot from that provider 404 listing those that have one', async () => {
    const unknown = await api.get('/v2/matches/999999/live-odds');
    expect(unknown.status).to.equal(404);
    // A cached 404 (the page cache keeps it like a page): no request id in the body, the header has it.
    expect(unknown.body).to.deep.equal({ statusCode: 404, message: 'Event 999999 not found', error: 'Not Found', code: 'not_found' });
    const noSource = await api.get('/v2/matches/8001/live-odds?dataSource=theoddsapi');
    expect(noSource.status).to.equal(404);
    expect(noSource.body.message).to.equal('No live odds from dataSource "theoddsapi" for event 8001; available: sim-book-b, simulated');
    const notLive = await api.get('/v2/matches/8002-x/live-odds');
    expect(notLive.status).to.equal(404);
    expect(notLive.body.message).to.equal('No live odds from dataSource "simulated" for event 8002; the event has no live odds yet');
  });

  it('error: malformed ids and dataSource values are 400 naming the parameter', async () => {
    for (const [path, param] of [
      ['/v2/matches/abc-8001/live-odds', 'eventId'],
      ['/v2/matches/-8001/live-odds', 'eventId'],
      ['/v2/matches/8001/live-odds?dataSource=%24where', 'dataSource'],
      ['/v2/matches/8001/live-odds?dataSource[%24ne]=x', 'dataSource'],
      ['/v2/matches/8001/live-odds?locale=fr', 'locale'],
    ]) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.message, path).to.include(param);
    }
  });
});
