import { expect } from 'chai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { loadConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { countAllEvents } from '../../../shared/platform/db/repositories/events';
import { findEventById, findLiveOddsSnapshot } from '../../../shared/platform/db/repositories/eventForms';
import { findLiveOddsSnapshots, findOddsHistoryRows } from '../../../shared/platform/db/repositories/fixtures';
import { findProviderState } from '../../../shared/platform/db/repositories/providers';
import { countAllCompetitions } from '../../../shared/platform/db/repositories/reference';
import { providerEventId } from '../../../shared/domain/providers/ids';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { TheOddsApiProvider } from '../../../shared/platform/providers/theoddsapi';
import { clearIngested, nextSlot } from '../../helpers/ingest';
import { OddsApiServer } from '../../helpers/oddsApiServer';

const AT = new Date('2026-11-21T20:00:00Z');
const ARSENAL = providerEventId('theoddsapi', 'e912304de2b2ce35b473ce2ecd3d1502');
const LIVERPOOL = providerEventId('theoddsapi', '4f1d8a7c2b3e9d0a6c5b4a3f2e1d0c9b');
const EVERTON = providerEventId('theoddsapi', 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5');
const CELTICS = providerEventId('theoddsapi', '9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49');

function handleFor(server: OddsApiServer, over: Partial<ConstructorParameters<typeof TheOddsApiProvider>[0]> = {}): ProviderHandle {
  const provider = new TheOddsApiProvider({ baseUrl: server.url, apiKey: server.apiKey, sports: ['soccer_epl', 'basketball_nba'], regions: ['eu'], quotaReserve: 0, ...over });
  return createHandle('theoddsapi', provider, loadConfig({ PROVIDER_TIMEOUT_MS: '2000' }));
}

describe('ingest: The Odds API v4 adapter against a local server of recorded responses', function () {
  this.timeout(60_000);
  let server: OddsApiServer;
  let handle: ProviderHandle | undefined;
  before(connectMongo);
  beforeEach(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    server = await new OddsApiServer('test-key', 500).start();
  });
  afterEach(async () => {
    handle?.breaker.shutdown();
    await server.stop();
  });
  after(clearIngested);

  it('happy: maps sports, h2h / spreads / totals, bookmakers, live scores and results into our documents', async () => {
    handle = handleFor(server);
    const r = await pollProvider(processContext(), handle, { slot: nextSlot(), at: AT, settlementDelayMs: () => 120_000 });
    expect(r.status).to.equal('ok');
    expect(await countAllEvents()).to.equal(4);

    const arsenal = (await findEventById(ARSENAL))!;
    expect([arsenal.status, arsenal.sportId, arsenal.dataSource, arsenal.providerEventId]).to.deep.equal(['live', 1, 'theoddsapi', 'e912304de2b2ce35b473ce2ecd3d1502']);
    expect(arsenal.homeTeam.name.en).to.equal('Arsenal');
    expect(arsenal.competition.name.en).to.equal('Premier League');
    expect(arsenal.region.name).to.deep.equal({ en: 'England', es: 'Inglaterra', pt: 'Inglaterra' });
    const byId = new Map(arsenal.markets.map((m) => [m.id, m]));
    const mr = byId.get(`${ARSENAL}-SOCCER_MATCH_RESULT`)!;
    expect(mr.betItems.map((i) => [i.code, i.price])).to.deep.equal([
      ['1', 1.93],
      ['2', 4.5],
      ['X', 3.45],
    ]);
    expect(mr.betItems[0].bookPrices).to.deep.equal({ pinnacle: 1.95, williamhill: 1.91, unibet_eu: 1.93 });
    // One market per line the books quote: 2.5 (two books) and 2.75 (one).
    expect(byId.get(`${ARSENAL}-SOCCER_UNDER_OVER@2.5`)!.betItems.map((i) => [i.code, i.price])).to.deep.equal([
      ['O', 1.87],
      ['U', 1.95],
    ]);
    expect(byId.has(`${ARSENAL}-SOCCER_UNDER_OVER@2.75`)).to.equal(true);
    expect(byId.get(`${ARSENAL}-SOCCER_ASIAN_HANDICAP@-0.5`)!.line).to.equal(-0.5);
    expect(arsenal.liveStats).to.include({ homeGoals: 1, awayGoals: 0, phaseSysname: 'IN_PROGRESS', elapsedSeconds: 1800 });
    const sources = (await findLiveOddsSnapshots({ eventId: ARSENAL })).map((s) => s.dataSource).sort();
    expect(sources).to.deep.equal(['pinnacle', 'theoddsapi', 'unibet_eu', 'williamhill']);
    // History is keyed by the bookmakers' own update time.
    const h = (await findOddsHistoryRows({ betItemId: `${ARSENAL}-SOCCER_MATCH_RESULT-1` }))[0];
    expect(h.at.toISOString()).to.equal('2026-11-21T19:59:41.000Z');

    const liverpool = (await findEventById(LIVERPOOL))!;
    expect(liverpool.status).to.equal('upcoming');
    expect(liverpool.markets.map((m) => m.id)).to.include(`${LIVERPOOL}-SOCCER_ASIAN_HANDICAP@-0.25`);

    const everton = (await findEventById(EVERTON))!;
    expect(everton.status).to.equal('completed');
    expect(everton.stats).to.include({ homeGoals: 2, awayGoals: 2, homeCorners: null, phase: 'FULL_TIME' });
    expect(await queueFor(settlementQueue).getJob(`settle-${EVERTON}-v0`)).to.not.equal(undefined);

    const celtics = (await findEventById(CELTICS))!;
    expect(celtics.markets.map((m) => m.id)).to.deep.equal([`${CELTICS}-BASKETBALL_MONEYLINE`, `${CELTICS}-BASKETBALL_SPREAD@-7.5`, `${CELTICS}-BASKETBALL_TOTAL_POINTS@221.5`]);
    expect(await countAllCompetitions()).to.equal(2);

    const odds = server.requests.filter((q) => q.path.endsWith('/odds'));
    expect(odds.map((q) => q.path)).to.deep.equal(['/v4/sports/soccer_epl/odds', '/v4/sports/basketball_nba/odds']);
    expect(odds[0].query).to.include({ regions: 'eu', markets: 'h2h,spreads,totals', oddsFormat: 'decimal', dateFormat: 'iso' });
    const state = (await findProviderState('theoddsapi'))!;
    expect(state.quota).to.include({ remaining: 490, used: 10, last: 2 });
    expect([state.breaker, state.stale, state.lastError]).to.deep.equal(['closed', false, null]);
  });

  it('happy: respects the quota - stops polling when it is spent, without spending more', async () => {
    server.remaining = 10;
    handle = handleFor(server);
    expect((await pollProvider(processContext(), handle, { slot: nextSlot(), at: AT })).status).to.equal('ok');
    expect(server.remaining).to.equal(0);
    const before = server.requests.length;
    const second = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(AT.getTime() + 30_000) });
    const third = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(AT.getTime() + 60_000) });
    expect([second.status, third.status]).to.deep.equal(['failed', 'failed']);
    if (third.status === 'failed') expect(third.reason).to.equal('quota');
    const costly = server.requests.filter((q) => /\/(odds|scores)$/.test(q.path)).length;
    expect(costly).to.equal(4);
    // Only the free /sports endpoint is asked (once) to see whether the quota was renewed.
    expect(server.requests.slice(before).map((q) => q.path)).to.deep.equal(['/v4/sports']);
    // A spent quota is not a provider fault: the breaker stays closed, the data is marked stale.
    expect(handle.breaker.state).to.equal('closed');
    const state = (await findProviderState('theoddsapi'))!;
    expect(state.stale).to.equal(true);
    expect(state.lastError).to.match(/quota/);
    expect((await findLiveOddsSnapshot(ARSENAL, 'theoddsapi'))!.stale).to.equal(true);
  });

  it('happy: a poll that would spend into the reserve is cut to the sports that fit', async () => {
    server.remaining = 12;
    handle = handleFor(server, { quotaReserve: 5 });
    const r = await pollProvider(processContext(), handle, { slot: nextSlot(), at: AT });
    expect(r.status).to.equal('ok');
    expect(server.requests.filter((q) => q.path.endsWith('/odds')).map((q) => q.path)).to.deep.equal(['/v4/sports/soccer_epl/odds']);
    expect(server.remaining).to.equal(7);
  });

  it('security: a rejected key never reaches the stored error or the event documents', async () => {
    handle = createHandle('theoddsapi', new TheOddsApiProvider({ baseUrl: server.url, apiKey: 'wrong-secret-key', sports: ['soccer_epl'], regions: ['eu'], quotaReserve: 0 }), loadConfig({}));
    const r = await pollProvider(processContext(), handle, { slot: nextSlot(), at: AT, retryDelayMs: 10 });
    expect(r.status).to.equal('failed');
    const state = (await findProviderState('theoddsapi'))!;
    expect(state.lastError).to.match(/HTTP 401/);
    expect(JSON.stringify(state)).to.not.include('wrong-secret-key');
  });
});
