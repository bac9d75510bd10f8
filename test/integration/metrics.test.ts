import { expect } from 'chai';
import { createApp } from '../../api/app';
import { enqueue, queueFor } from '../../shared/platform/queues/client';
import { ingestQueue } from '../../jobs/ingest';
import { settlementQueue } from '../../jobs/settlement';
import { getConfig, setEnvForChildren } from '../../shared/platform/config';
import { key, redis, tag } from '../../shared/platform/db/redis';
import { publishSnapshot, readSnapshots } from '../../shared/platform/metrics/publish';
import { serve, startApi, type TestServer } from '../helpers/api';
import { clearIngested } from '../helpers/ingest';
import { sigkillTree } from '../helpers/kill';
import { ledgerConsumerForThisSuite } from '../helpers/ledgerConsumer';
import { spawnEntry, waitUntil, type Spawned } from '../helpers/processes';
import { parsePrometheus, valueOf, type Sample } from '../helpers/prometheus';

const ADMIN = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'metrics-pass' };
const basic = (u: string, p: string) => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });

describe('GET /metrics', function () {
  this.timeout(60000);
  // Charges are counted as the ledger consumer writes them (the settlement process in the service).
  ledgerConsumerForThisSuite();
  let api: TestServer;
  const scrape = async (): Promise<Sample[]> => {
    const res = await fetch(`${api.url}/metrics`, { headers: basic(ADMIN.ADMIN_USER, ADMIN.ADMIN_PASSWORD) });
    expect(res.status).to.equal(200);
    return parsePrometheus(await res.text());
  };

  before(async () => {
    // Short publish period: a spawned worker's metrics show (and a killed one's expire) quickly.
    setEnvForChildren({ ...ADMIN, METRICS_PUBLISH_MS: '200' });
    api = await startApi();
  });
  after(async () => {
    await api.close();
    setEnvForChildren({ ADMIN_USER: '', ADMIN_PASSWORD: '', METRICS_PUBLISH_MS: '5000' });
  });

  describe('access', () => {
    it('security: 401 without credentials, with a Basic challenge and the error shape', async () => {
      const res = await fetch(`${api.url}/metrics`);
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Basic realm="metrics"/);
      expect(await res.json()).to.deep.equal({
        statusCode: 401,
        message: 'Admin credentials required',
        error: 'Unauthorized',
        code: 'admin_credentials_required',
        requestId: res.headers.get('x-request-id'),
      });
    });

    it('security: 401 with a wrong password, and an API key is no admin credential', async () => {
      expect((await fetch(`${api.url}/metrics`, { headers: basic('ops', 'wrong') })).status).to.equal(401);
      expect((await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${api.key}` } })).status).to.equal(401);
    });

    it('error: not served (404) when the admin credentials are unset', async () => {
      setEnvForChildren({ ADMIN_USER: '', ADMIN_PASSWORD: '' });
      const bare = await serve(createApp());
      try {
        const res = await bare.get('/metrics');
        expect(res.status).to.equal(404);
        expect(res.body).to.include({ statusCode: 404, error: 'Not Found' });
      } finally {
        await bare.close();
        setEnvForChildren(ADMIN);
      }
    });

    it('happy: the Prometheus text format with its content type; every line parses', async () => {
      const res = await fetch(`${api.url}/metrics`, { headers: basic(ADMIN.ADMIN_USER, ADMIN.ADMIN_PASSWORD) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      const samples = parsePrometheus(text); // throws on a malformed line
      expect(text).to.include('# TYPE odds_http_requests_total counter');
      expect(text).to.include('# TYPE odds_job_duration_seconds histogram');
      for (const queue of ['ingest', 'ai', 'settlement', 'recharge']) {
        expect(valueOf(samples, 'odds_queue_jobs', { queue, state: 'waiting' }), queue).to.be.a('number');
        expect(valueOf(samples, 'odds_queue_oldest_job_age_seconds', { queue, state: 'active' }), queue).to.be.a('number');
      }
      expect(valueOf(samples, 'odds_metrics_source_up', { source: 'queues' })).to.equal(1);
      expect(valueOf(samples, 'odds_metrics_source_up', { source: 'providers' })).to.equal(1);
    });
  });

  describe('this web process', () => {
    it('happy: a /v2 request counts under its route pattern and status, never its raw URL, and its credits', async () => {
      const before = await scrape();
      const route = '/v2/matches/{eventId}';
      const count = (s: Sample[], status: string) => valueOf(s, 'odds_http_requests_total', { method: 'GET', route, status }) ?? 0;
      const credits = (s: Sample[]) => valueOf(s, 'odds_credits_debited_total', { endpoint: 'GET /v2/matches' }) ?? 0;
      expect((await api.get('/v2/matches/99999991')).status).to.equal(404);
      expect((await api.get('/v2/matches/99999992')).status).to.equal(404);
      expect((await api.get('/v2/matches?limit=1')).status).to.equal(200);
      // The charge is settled when the response closes and counted once written: give it its moment.
      await waitUntil('the charge to be counted', async () => credits(await scrape()) === credits(before) + 1, 5000);
      const after = await scrape();
      expect(count(after, '404') - count(before, '404')).to.equal(2);
      expect(
        valueOf(after, 'odds_http_request_duration_seconds_count', { method: 'GET', route })! - (valueOf(before, 'odds_http_request_duration_seconds_count', { method: 'GET', route }) ?? 0),
      ).to.equal(2);
      expect(after.some((s) => Object.values(s.labels).some((v) => v.includes('9999999')))).to.equal(false);
    });

    it('happy: queue depth and oldest age reflect jobs added to a queue', async () => {
      const queue = queueFor(settlementQueue);
      const before = await scrape();
      const delayed = (s: Sample[]) => valueOf(s, 'odds_queue_jobs', { queue: 'settlement', state: 'delayed' })!;
      const ids = [
        await enqueue(settlementQueue, 'sweep', { window: `metrics-a-${Date.now()}` }, { delay: 3_600_000 }),
        await enqueue(settlementQueue, 'sweep', { window: `metrics-b-${Date.now()}` }, { delay: 3_600_000 }),
      ];
      try {
        const after = await scrape();
        expect(delayed(after) - delayed(before)).to.equal(2);
        // Not yet due: a designed delay is not reported as a backlog.
        expect(valueOf(after, 'odds_queue_oldest_job_age_seconds', { queue: 'settlement', state: 'delayed' })).to.equal(0);
      } finally {
        for (const id of ids) await (await queue.getJob(id))?.remove();
      }
    });
  });

  describe('other processes', () => {
    let worker: Spawned | undefined;
    afterEach(async () => {
      if (worker) await sigkillTree(worker);
      worker = undefined;
      await clearIngested();
    });

    it("happy: an ingest process's job and poll metrics appear here; once it is killed they expire", async () => {
      worker = spawnEntry('workers/ingest.ts', { PROVIDERS: 'simulated', SIM_SCENARIO: 'docs/scenarios/soccer-settlement-rules.json' });
      const slot = Math.floor(Date.now() / getConfig().POLL_INTERVAL_MS);
      const jobId = await enqueue(ingestQueue, 'poll', { provider: 'simulated', slot });
      const fromIngest = { process: 'ingest' };
      let samples: Sample[] = [];
      await waitUntil(
        'the poll to show in /metrics',
        async () => (valueOf((samples = await scrape()), 'odds_job_duration_seconds_count', { ...fromIngest, queue: 'ingest', job: 'poll' }) ?? 0) >= 1,
        40000,
        250,
      );
      expect(await queueFor(ingestQueue).getJobState(jobId)).to.equal('completed');
      expect(valueOf(samples, 'odds_jobs_finished_total', { ...fromIngest, queue: 'ingest', job: 'poll', outcome: 'completed' })).to.equal(1);
      expect(valueOf(samples, 'odds_polls_total', { ...fromIngest, provider: 'simulated', status: 'ok' })).to.equal(1);
      expect(valueOf(samples, 'odds_poll_duration_seconds_count', { ...fromIngest, provider: 'simulated' })).to.equal(1);
      expect(valueOf(samples, 'odds_events_written_total', { ...fromIngest, provider: 'simulated' })).to.be.a('number');
      expect(valueOf(samples, 'odds_metrics_processes', fromIngest)).to.equal(1);
      // What the poll recorded in MongoDB, read at scrape time.
      expect(valueOf(samples, 'odds_provider_breaker_state', { provider: 'simulated' })).to.equal(0);
      expect(valueOf(samples, 'odds_odds_staleness_seconds', { provider: 'simulated' })).to.be.at.least(0);

      await sigkillTree(worker);
      worker = undefined;
      await waitUntil('the killed process to drop out', async () => valueOf(await scrape(), 'odds_metrics_processes', fromIngest) === undefined, 10000, 200);
      const gone = await scrape();
      expect(gone.filter((s) => s.labels.process === 'ingest')).to.deep.equal([]);
    });

    it('error: a snapshot past its TTL is gone and pruned from the index', async () => {
      const deadKey = key(tag('metrics'), 'ghost', 'nowhere-1');
      await publishSnapshot(deadKey, 'ghost', 150);
      expect((await readSnapshots()).map((s) => s.key)).to.include(deadKey);
      await waitUntil('the snapshot to expire', async () => (await redis().exists(deadKey)) === 0, 5000, 50);
      expect((await readSnapshots()).map((s) => s.key)).to.not.include(deadKey);
      expect(await redis().sismember(key(tag('metrics'), 'instances'), deadKey)).to.equal(0);
    });
  });
});
