import { expect } from 'chai';
import { enqueue, queueFor } from '../../shared/platform/queues/client';
import { key, redis } from '../../shared/platform/db/redis';
import { slowQueue } from '../fixtures/slowWorker';
import { spawnEntry, waitUntil, type Spawned } from '../helpers/processes';

const started = (id: string) => redis().lrange(key('slow', id, 'started'), 0, -1);
const finished = (id: string) => redis().lrange(key('slow', id, 'finished'), 0, -1);

describe('graceful shutdown on SIGTERM', () => {
  const spawned: Spawned[] = [];
  const spawnWorker = (env: Record<string, string> = {}) => {
    const w = spawnEntry('test/fixtures/slowWorker.ts', env);
    spawned.push(w);
    return w;
  };
  afterEach(async () => {
    for (const w of spawned.splice(0)) if (w.child.exitCode === null) (w.child.kill('SIGKILL'), await w.exited);
  });

  it('happy: an active job finishes before the process exits 0', async function () {
    this.timeout(40000);
    const w = spawnWorker();
    const jobId = await enqueue(slowQueue, 'sleep', { id: `finish-${Date.now()}`, ms: 2500 });
    const id = jobId.replace(/^sleep-/, '');
    await waitUntil('the job to start', async () => (await started(id)).length === 1, 20000);
    w.child.kill('SIGTERM');
    const exit = await w.exited;
    expect(exit.code).to.equal(0);
    expect(await finished(id)).to.have.length(1);
    expect(await queueFor(slowQueue).getJobState(jobId)).to.equal('completed');
  });

  it('error: a job longer than the deadline is released and retried by another worker, not lost', async function () {
    this.timeout(60000);
    const first = spawnWorker({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const jobId = await enqueue(slowQueue, 'sleep', { id: `release-${Date.now()}`, ms: 6000 });
    const id = jobId.replace(/^sleep-/, '');
    await waitUntil('the job to start', async () => (await started(id)).length === 1, 20000);
    first.child.kill('SIGTERM');
    const exit = await first.exited;
    expect(exit.code).to.equal(0);
    expect(await finished(id)).to.have.length(0);

    spawnWorker();
    await waitUntil('the released job to complete elsewhere', async () => (await queueFor(slowQueue).getJobState(jobId)) === 'completed', 40000, 250);
    const job = await queueFor(slowQueue).getJob(jobId);
    const [firstPid, secondPid] = await started(id);
    expect(secondPid).to.not.equal(firstPid);
    expect(String(job!.returnvalue.finishedBy)).to.equal(secondPid);
    expect(await finished(id)).to.deep.equal([secondPid]);
  });
});
