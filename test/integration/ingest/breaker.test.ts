import { expect } from 'chai';
import { loadConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { findLiveOddsSnapshot } from '../../../shared/platform/db/repositories/eventForms';
import { findProviderState } from '../../../shared/platform/db/repositories/providers';
import { providerEventId } from '../../../shared/domain/providers/ids';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { TheOddsApiProvider } from '../../../shared/platform/providers/theoddsapi';
import { startApi, type TestServer } from '../../helpers/api';
import { clearIngested, nextSlot } from '../../helpers/ingest';
import { OddsApiServer } from '../../helpers/oddsApiServer';
import { waitUntil } from '../../helpers/processes';

const AT = new Date('2026-11-21T20:00:00Z');
const ARSENAL = providerEventId('theoddsapi', 'e912304de2b2ce35b473ce2ecd3d1502');
const RESET_MS = 1500;

describe('ingest: provider circuit breaker (opossum) against a failing local server', function () {
  this.timeout(60_000);
  let server: OddsApiServer;
  let handle: ProviderHandle;
  let api: TestServer;
  const poll = (i: number) => pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(AT.getTime() + i * 30_000), retryDelayMs: 20 });

  before(async () => {
    await connectMongo();
    api = await startApi();
  });
  after(async () => {
    await api.close();
    await clearIngested();
  });
  beforeEach(async () => {
    await clearIngested();
    server = await new OddsApiServer().start();
  });
  afterEach(async () => {
    handle.breaker.shutdown();
    await server.stop();
  });

  function makeHandle(timeoutMs = 2000): ProviderHandle {
    const provider = new TheOddsApiProvider({ baseUrl: server.url, apiKey: server.apiKey, sports: ['soccer_epl'], regions: ['eu'], quotaReserve: 0 });
    return createHandle('theoddsapi', provider, loadConfig({ PROVIDER_TIMEOUT_MS: String(timeoutMs), PROVIDER_BREAKER_RESET_MS: String(RESET_MS), PROVIDER_BREAKER_VOLUME: '3' }));
  }

  it('error: opens after failures, makes no calls while open, serves stale data, and recovers on half-open', async () => {
    handle = makeHandle();
    // A good poll first: there are snapshots to fall back on.
    expect((await poll(0)).status).to.equal('ok');
    expect((await findLiveOddsSnapshot(ARSENAL, 'theoddsapi'))!.stale).to.equal(false);

    server.mode = 'fail';
    // Failing polls until the error rate opens it (the good poll's calls count in the window).
    let failedPolls = 0;
    while (handle.breaker.state !== 'open' && failedPolls < 4) {
      const before = server.count();
      const failed = await poll(++failedPolls);
      expect(failed.status).to.equal('failed');
      // At most one retry, outside the breaker: never more than two requests per poll.
      expect(server.count() - before).to.be.at.most(2);
    }
    expect(handle.breaker.state).to.equal('open');
    expect(failedPolls).to.be.at.most(3);

    // Open: the provider is not called at all.
    const calls = server.count();
    const rejected = await poll(10);
    expect(rejected).to.deep.include({ status: 'failed', reason: 'breaker-open', breaker: 'open' });
    expect(server.count()).to.equal(calls);

    // The fallback: last stored snapshots, marked stale; health shows the breaker.
    expect((await findLiveOddsSnapshot(ARSENAL, 'theoddsapi'))!.stale).to.equal(true);
    expect((await findLiveOddsSnapshot(ARSENAL, 'pinnacle'))!.stale).to.equal(true);
    const state = (await findProviderState('theoddsapi'))!;
    expect([state.breaker, state.stale]).to.deep.equal(['open', true]);
    const health = await api.get('/v2/health');
    expect(health.body.providers.find((p: any) => p.name === 'theoddsapi')).to.deep.include({ breaker: 'open', stale: true });

    // After the reset timeout one trial call goes through (half-open); it succeeds: closed.
    server.mode = 'ok';
    await waitUntil('the breaker to half-open', () => handle.breaker.state === 'halfOpen', RESET_MS + 2000, 50);
    const recovered = await poll(11);
    expect(recovered.status).to.equal('ok');
    expect(handle.breaker.state).to.equal('closed');
    expect(server.count()).to.be.greaterThan(calls);
    const after = (await findProviderState('theoddsapi'))!;
    expect([after.breaker, after.stale, after.lastError]).to.deep.equal(['closed', false, null]);
    expect((await findLiveOddsSnapshot(ARSENAL, 'theoddsapi'))!.stale).to.equal(false);
    const health2 = await api.get('/v2/health');
    expect(health2.body.providers.find((p: any) => p.name === 'theoddsapi')).to.deep.include({ breaker: 'closed', stale: false });
  });

  it('error: a failed half-open trial opens the breaker again', async () => {
    handle = makeHandle();
    server.mode = 'fail';
    await poll(1);
    await poll(2);
    expect(handle.breaker.state).to.equal('open');
    await waitUntil('the breaker to half-open', () => handle.breaker.state === 'halfOpen', RESET_MS + 2000, 50);
    const calls = server.count();
    const trial = await poll(3);
    expect(trial.status).to.equal('failed');
    // One trial request; it failed, so the breaker is open again and the retry is refused.
    expect(server.count()).to.equal(calls + 1);
    expect(handle.breaker.state).to.equal('open');
  });

  it('error: the timeout really aborts the request', async () => {
    handle = makeHandle(300);
    server.mode = 'hang';
    const started = Date.now();
    const r = await poll(1);
    expect(r.status).to.equal('failed');
    // The server never answers: only the aborts end this poll (a loaded machine gets slack).
    expect(Date.now() - started).to.be.below(8000);
    // The server saw both requests (call and retry) closed by the client, not left hanging.
    await waitUntil('the server to see the aborts', () => server.requests.length === 2 && server.requests.every((q) => q.aborted), 2000, 20);
    const state = (await findProviderState('theoddsapi'))!;
    expect(state.lastError).to.match(/timed out/i);
  });
});
