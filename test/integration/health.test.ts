import { expect } from 'chai';
import { ProviderState } from '../../shared/models';
import { startApi, type TestServer } from '../helpers/api';

describe('GET /v2/health', () => {
  let api: TestServer;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('happy: reports MongoDB, Redis and every queue without a key', async () => {
    const res = await api.get('/v2/health');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('ok');
    expect(res.body.mongodb.status).to.equal('up');
    expect(res.body.redis.status).to.equal('up');
    expect(res.body.queues).to.have.all.keys('ingest', 'ai', 'settlement', 'recharge');
    expect(res.body.queues.ingest).to.include.keys('waiting', 'active', 'delayed', 'failed');
  });

  it('happy: reports the last successful ingest and breaker states', async () => {
    const at = new Date('2026-11-21T10:00:00Z');
    await ProviderState.create({ _id: 'simulated', lastSuccessAt: at, lastAttemptAt: at, breaker: 'open', stale: true });
    const res = await api.get('/v2/health');
    expect(res.body.lastIngestAt).to.equal(at.toISOString());
    expect(res.body.providers).to.deep.include({ name: 'simulated', breaker: 'open', stale: true, lastAttemptAt: at.toISOString(), lastSuccessAt: at.toISOString(), lastError: null, quota: null });
    await ProviderState.deleteMany({});
  });
});
