import { expect } from 'chai';
import { aiQueue } from '../../jobs/ai';
import { requestAnalyses } from '../../shared/platform/queues/coalesced';
import { queueFor } from '../../shared/platform/queues/client';
import { backdateEventsCreatedAt, deleteAllIngested, insertSeedDocuments, setEventFields } from '../../shared/platform/db/repositories/fixtures';
import { startApi, type TestServer } from '../helpers/api';
import { renewProcessScope } from '../../shared/platform/processScope';

describe('GET /v2/health', () => {
  let api: TestServer;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });
  afterEach(async () => {
    renewProcessScope();
    await deleteAllIngested();
    await queueFor(aiQueue).obliterate({ force: true });
  });

  it('happy: reports MongoDB, Redis and every queue without a key', async () => {
    await insertSeedDocuments('providerStates', [{ _id: 'simulated', lastSuccessAt: new Date(), lastAttemptAt: new Date(), breaker: 'closed', stale: false }]);
    const res = await api.get('/v2/health');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('ok');
    expect(res.body.reasons).to.deep.equal([]);
    expect(res.body.mongodb.status).to.equal('up');
    expect(res.body.redis.status).to.equal('up');
    expect(res.body.queues).to.have.all.keys('ingest', 'ai', 'settlement', 'recharge', 'webhooks');
    expect(res.body.queues.ingest).to.include.keys('waiting', 'active', 'delayed', 'failed', 'oldestWaitingAgeMs');
    expect(res.body.settlement).to.deep.equal({ overdue: 0 });
    expect(res.body.providers[0].lastSuccessAgeMs).to.be.within(0, 5000);
  });

  it('happy: reports the last successful ingest and breaker states', async () => {
    const at = new Date('2026-11-21T10:00:00Z');
    await insertSeedDocuments('providerStates', [{ _id: 'simulated', lastSuccessAt: at, lastAttemptAt: at, breaker: 'open', stale: true }]);
    const res = await api.get('/v2/health');
    expect(res.body.lastIngestAt).to.equal(at.toISOString());
    expect(res.body.providers[0]).to.deep.include({ name: 'simulated', breaker: 'open', stale: true, lastAttemptAt: at.toISOString(), lastSuccessAt: at.toISOString(), lastError: null, quota: null });
  });

  it('error: degraded (still 200) when the last successful poll is older than three intervals', async () => {
    const old = new Date(Date.now() - 3 * 30_000 - 1000);
    await insertSeedDocuments('providerStates', [{ _id: 'simulated', lastSuccessAt: old, lastAttemptAt: new Date(), breaker: 'closed', stale: false }]);
    const res = await api.get('/v2/health');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('degraded');
    expect(res.body.reasons.join(' ')).to.match(/provider simulated last polled successfully 9\d s ago/);
  });

  it('error: degraded when an analysis has waited longer than three intervals, and counts one waiting job per event', async () => {
    await insertSeedDocuments('providerStates', [{ _id: 'simulated', lastSuccessAt: new Date(), breaker: 'closed', stale: false }]);
    // Requested five times while waiting: one job. Its timestamp is what makes it old.
    for (let i = 0; i < 5; i++) await requestAnalyses(['h-ev1']);
    const [job] = await queueFor(aiQueue).getJobs(['waiting']);
    expect((await queueFor(aiQueue).getJobCounts('waiting')).waiting).to.equal(1);
    expect((await api.get('/v2/health')).body.status).to.equal('ok');
    await queueFor(aiQueue).obliterate({ force: true });
    await queueFor(aiQueue).add(job.name, job.data, { jobId: job.id, timestamp: Date.now() - 100_000 });
    await requestAnalyses(['h-ev2']); // a newer one behind it: the oldest is what counts
    const res = await api.get('/v2/health');
    expect(res.body.queues.ai.oldestWaitingAgeMs).to.be.within(100_000, 110_000);
    expect(res.body.status).to.equal('degraded');
    expect(res.body.reasons.join(' ')).to.match(/an analysis has waited 1\d\d s/);
  });

  it('error: degraded when an ended event is overdue for settlement by more than a minute', async () => {
    await insertSeedDocuments('providerStates', [{ _id: 'simulated', lastSuccessAt: new Date(), breaker: 'closed', stale: false }]);
    const base = {
      sportId: 1,
      competitionId: 1,
      regionId: 1,
      homeTeam: { id: 1, name: { en: 'A' } },
      awayTeam: { id: 2, name: { en: 'B' } },
      competition: { id: 1, name: { en: 'C' } },
      region: { id: 1, name: { en: 'R' } },
      markets: [],
      dataSource: 'simulated',
    };
    // Due 5 minutes after its end (SETTLEMENT_DELAY_MS unset): 6.5 minutes ago is overdue, 2 minutes ago is not.
    await insertSeedDocuments('events', [{ ...base, _id: 'h-late', status: 'completed', startDateTime: new Date(Date.now() - 3 * 3600_000), endedAt: new Date(Date.now() - 390_000) }]);
    await insertSeedDocuments('events', [{ ...base, _id: 'h-fresh', status: 'completed', startDateTime: new Date(Date.now() - 3 * 3600_000), endedAt: new Date(Date.now() - 120_000) }]);
    await insertSeedDocuments('events', [
      {
        ...base,
        _id: 'h-done',
        status: 'completed',
        startDateTime: new Date(Date.now() - 3 * 3600_000),
        endedAt: new Date(Date.now() - 390_000),
        settledVersion: 0,
        settledAt: new Date(),
      },
    ]);
    // Ended hours ago but first stored a moment ago (a fresh start): its settlement is not due yet.
    await insertSeedDocuments('events', [{ ...base, _id: 'h-new', status: 'completed', startDateTime: new Date(Date.now() - 5 * 3600_000), endedAt: new Date(Date.now() - 3 * 3600_000) }]);
    await backdateEventsCreatedAt(['h-late', 'h-fresh', 'h-done'], new Date(Date.now() - 4 * 3600_000));
    renewProcessScope(); // the count is kept 15 s: an earlier check's figure would still be served
    const res = await api.get('/v2/health');
    expect(res.body.settlement).to.deep.equal({ overdue: 1 });
    expect(res.body.status).to.equal('degraded');
    await setEventFields('h-late', { settledVersion: 0, settledAt: new Date() });
    renewProcessScope(); // this asserts the recount
    expect((await api.get('/v2/health')).body.status).to.equal('ok');
  });
});
