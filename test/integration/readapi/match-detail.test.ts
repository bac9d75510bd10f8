import { expect } from 'chai';
import { drainViewFlushes } from '../../../api/queries/views';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { eventExists } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { findViewsOfEvents } from '../../../shared/platform/db/repositories/eventViews';
import { COMPETITIONS, insertAiOutput, insertLiveEventData, insertLiveSnapshot, TEAMS } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

describe('GET /v2/matches/{eventId}', () => {
  let api: ReadApi;
  const kickoff = new Date('2030-08-10T14:00:00Z');
  before(async () => {
    api = await readApiWith(
      { id: '5001', start: kickoff, views: 41 },
      { id: '5002', start: '2024-05-01T18:00:00Z', status: 'live', competition: COMPETITIONS.laLiga, home: TEAMS.atletico, away: TEAMS.sevilla },
      { id: '5003', start: '2024-04-01T18:00:00Z', status: 'completed', voided: true },
      { id: '5004', start: '2030-08-11T14:00:00Z', competition: COMPETITIONS.nba },
      { id: '5005', start: '2024-04-02T18:00:00Z', status: 'postponed', stats: null },
    );
    await insertAiOutput('5001', kickoff);
    await insertLiveSnapshot('5002', 'simulated');
    await insertLiveSnapshot('5002', 'sim-book-b', new Date(), 0.1);
    await insertLiveEventData('5002');
    await bumpCacheVersion('events', 'competitions');
  });
  after(() => api.close());

  it('happy: the full upcoming event, wrapped in data by default; stats null before kickoff', async () => {
    const res = await api.get('/v2/matches/5001');
    expect(res.status).to.equal(200);
    const e = res.body.data;
    expect(e).to.deep.include({
      id: '5001',
      status: 'upcoming',
      startDateTime: kickoff.toISOString(),
      homeTeamId: 100,
      awayTeamId: 101,
      competitionId: 10,
      regionId: 1,
      sportId: 1,
      stats: null,
      voided: false,
    });
    expect(e.homeTeam).to.deep.equal({ id: 100, name: 'Arsenal', caption: 'Arsenal', regionId: 1 });
    expect(e.sport).to.deep.equal({ id: 1, name: 'Soccer', sysname: 'soccer' });
    expect(e.competition).to.deep.equal({ id: 10, caption: 'Premier League', regionId: 1, region: { id: 1, caption: 'England' } });
    // England: Premier League and Championship; upcoming+live events there: 5001 only.
    expect(e.region).to.deep.equal({
      id: 1,
      caption: 'England',
      _count: { competitions: 2, events: 1 },
      availableSports: ['soccer'],
      competitions: [
        { id: 10, caption: 'Premier League' },
        { id: 13, caption: 'Championship' },
      ],
    });
    expect(e.metadata).to.deep.include({ sportName: 'Soccer', homeTeamName: 'Arsenal', awayTeamName: 'Chelsea' });
    expect(e.metadata.markets).to.include.members(['SOCCER_MATCH_RESULT', 'SOCCER_ASIAN_HANDICAP', 'SOCCER_CORNERS_UNDER_OVER']);
    // Every market of the event, each with its event id and every bet item with its market id.
    const stored = await findEventById('5001');
    expect(e.markets).to.have.length(stored!.markets.length);
    for (const m of e.markets) {
      expect(m.eventId).to.equal('5001');
      for (const b of m.betItems) expect(b.marketId).to.equal(m.id);
    }
    expect(e.liveMarkets).to.deep.equal([]);
    expect(e.liveEventData).to.deep.equal([]);
  });

  it('happy: recommendations, featured pick, insight and news come from the AI collections, localized', async () => {
    const { body } = await api.get('/v2/matches/5001?locale=es');
    const e = body.data;
    expect(e.bettingRecommendations).to.have.length(1);
    expect(e.bettingRecommendations[0]).to.deep.include({ id: 'rec-5001-O', eventId: '5001', outcome: 'Más de 2.5', odds: 2.1, confidence: 'Medium', settled: false, result: null });
    expect(e.bettingRecommendations[0].rationale).to.deep.equal(['Ambos promedian 1,6 goles esperados']);
    expect(e.featuredPick).to.deep.include({ id: 'pick-5001', pickType: 'single', totalOdds: 2.1, featuredOrder: 1, settled: false, result: null });
    expect(e.featuredPick.recommendations[0]).to.deep.include({
      recommendationId: 'rec-5001-O',
      eventId: '5001',
      betItemId: e.bettingRecommendations[0].betItemId,
      market: 'SOCCER_UNDER_OVER',
      outcome: 'Más de 2.5',
      point: 2.5,
    });
    expect(e.featuredPick.event).to.deep.include({ id: '5001', league: 'Premier League', commenceTime: kickoff.toISOString(), startDateTime: kickoff.toISOString() });
    expect(e.featuredPick).to.deep.include({ featuredDate: '2030-08-10', startsAt: kickoff.toISOString() });
    expect(e.analysisInsight).to.deep.equal({ home: { form: 'WWDLW' }, away: { form: 'LDWWL' }, note: 'Local más fuerte' });
    expect(e.eventNews).to.deep.equal([{ injuries: ['Saka en duda'], weather: null }]);
    expect(e.sport.name).to.equal('Fútbol');
  });

  it('happy: a pick and a recommendation read the same in the event detail and in /v2/ai (one renderer, one schema)', async () => {
    for (const [locale, zone] of [
      ['es', 'Asia/Tokyo'],
      ['pt', 'UTC'],
    ]) {
      const detail = (await api.get(`/v2/matches/5001?locale=${locale}&timezone=${zone}`)).body.data;
      const picks = (await api.get(`/v2/ai/featured-picks?limit=50&locale=${locale}&timezone=${zone}`)).body.data;
      const served = picks.find((p: { id: string }) => p.id === detail.featuredPick.id);
      expect(served, locale).to.not.equal(undefined);
      expect(detail.featuredPick, locale).to.deep.equal(served);
      const recs = (await api.get(`/v2/ai/betting-recommendations?eventId=5001&locale=${locale}`)).body.data;
      expect(detail.bettingRecommendations, locale).to.deep.equal(recs);
    }
    const tokyo = (await api.get('/v2/matches/5001?timezone=Asia/Tokyo')).body.data.featuredPick.event;
    expect(tokyo.commenceTime).to.equal('2030-08-10T23:00:00.000+09:00');
    expect(tokyo.startDateTime).to.equal(kickoff.toISOString());
    const bad = await api.get('/v2/matches/5001?timezone=Mars/Phobos');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.match(/timezone/);
  });

  it('happy: an event without AI output has empty recommendations and null pick and insight', async () => {
    const { body } = await api.get('/v2/matches/5004?locale=pt');
    expect(body.data).to.deep.include({ bettingRecommendations: [], featuredPick: null, analysisInsight: null, eventNews: [] });
    expect(body.data.sport).to.deep.equal({ id: 2, name: 'Basquete', sysname: 'basketball' });
    expect(body.data.region.availableSports).to.deep.equal(['basketball', 'baseball', 'ice-hockey']);
  });

  it("happy: a live event has current stats, the default provider's live markets and its live event data", async () => {
    const { body } = await api.get('/v2/matches/5002?locale=es');
    const e = body.data;
    expect(e.status).to.equal('live');
    expect(e.stats).to.deep.equal({
      homeGoals: 1,
      awayGoals: 0,
      homeGoalsFirstHalf: 1,
      awayGoalsFirstHalf: 0,
      homeCorners: 4,
      awayCorners: 1,
      homeYellowCards: 1,
      awayYellowCards: 0,
      homeRedCards: 0,
      awayRedCards: 0,
      phase: '2H',
    });
    expect(e.liveMarkets.map((m: { marketDisplayName: string }) => m.marketDisplayName)).to.deep.equal(['Resultado del Partido', 'Total de Goles Más/Menos 2.5']);
    // PROVIDERS defaults to simulated: its prices, not the other book's (+0.1).
    expect(e.liveMarkets[0].betItems[0]).to.deep.equal({ code: '1', translatedCaption: 'Local', price: 1.5, priceChange: -0.05, isAvailable: true });
    expect(e.liveEventData).to.deep.equal([
      {
        eventId: '5002',
        homeGoals: 1,
        awayGoals: 0,
        homeCorners: 4,
        awayCorners: 1,
        homeYellowCards: 1,
        awayYellowCards: 0,
        homeRedCards: 0,
        awayRedCards: 0,
        homeGoalsFirstHalf: 1,
        awayGoalsFirstHalf: 0,
        phaseSysname: 'SECOND_HALF',
        isLive: true,
        liveDataJson: { minute: 62, possession: { home: 58, away: 42 } },
      },
    ]);
  });

  it('happy: a completed voided event has its stats and the void flag; a postponed one without data has null stats', async () => {
    const done = (await api.get('/v2/matches/5003')).body.data;
    expect(done).to.deep.include({ status: 'completed', voided: true });
    expect(done.stats).to.include({ homeGoals: 2, awayGoals: 1, phase: 'FT' });
    expect((await api.get('/v2/matches/5005')).body.data.stats).to.equal(null);
  });

  it('happy: the event is always wrapped in data (one 200 shape): wrap=data is accepted, wrap=none is a 400 naming wrap', async () => {
    const bare = await api.get('/v2/matches/5004?wrap=none');
    expect(bare.status).to.equal(400);
    expect(bare.body.message).to.include('wrap');
    const wrapped = await api.get('/v2/matches/5004?wrap=data');
    expect(Object.keys(wrapped.body)).to.deep.equal(['data']);
    expect(wrapped.body.data.id).to.equal('5004');
  });

  it('happy: every request counts one view, atomically, and shows the count including itself', async () => {
    await drainViewFlushes(); // earlier tests' views of this event
    const storedViews = async () => (await findViewsOfEvents(['5004'])).get('5004') ?? 0;
    const before = await storedViews();
    const results = await Promise.all(Array.from({ length: 20 }, () => api.get('/v2/matches/5004')));
    const seen = results.map((r) => r.body.data.views).sort((a, b) => a - b);
    expect(seen).to.deep.equal(Array.from({ length: 20 }, (_, i) => before + i + 1));
    // Stored after the answers, not before them.
    await drainViewFlushes();
    expect(await storedViews()).to.equal(before + 20);
  });

  it('error: an unknown event is 404 in the error shape, and counts nothing', async () => {
    const res = await api.get('/v2/matches/999999999');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ statusCode: 404, message: 'Event 999999999 not found', error: 'Not Found', code: 'not_found', requestId: res.headers.get('x-request-id') });
    expect(await eventExists('999999999')).to.equal(null);
  });

  it('error: a malformed id is 400 naming eventId, before any database access', async () => {
    for (const bad of ['abc', '12a', '1.5', '%24ne', '-1', '1234567890123456789012']) {
      const res = await api.get(`/v2/matches/${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body.message, bad).to.match(/eventId/);
    }
  });
});
