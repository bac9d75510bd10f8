import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Job } from 'bullmq';
import { closeQueues, queueFor } from '../../../shared/platform/queues/client';
import { rechargeQueue, settlementQueue } from '../../../jobs/index';
import { freePort, startRedisServer } from '../../../scripts/services';
import { rechargeWindow, retryIntent } from '../../../shared/app/billing/recharge';
import { followUpIntents } from '../../../shared/app/ingest/poll';
import { dispatch, RECHARGE_RETRY_DELAY_MS, type Intent } from '../../../shared/app/intents';
import { getConfig, setEnvForChildren } from '../../../shared/platform/config';
import { closeAllRedis, key, redis } from '../../../shared/platform/db/redis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stopped = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once('exit', () => r()), child.kill(signal))));

/** The delay of a settlement the poll asks for (SETTLEMENT_DELAY_MS's place): far beyond the test. */
const SETTLE_DELAY_MS = 10 * 60 * 1000;
const SETTLEMENTS = 200;
const RETRIES = 50;

interface Expected {
  name: string;
  data: object;
  delay: number;
}

/**
 * The bootstrap's Redis (AOF, appendfsync everysec, noeviction) killed without warning
 * and started again under load keeps the delayed jobs no sweep would bring back soon: the
 * settlements a poll put off (SETTLEMENT_DELAY_MS) and the recharge retries due an hour after a
 * decline. What a crash can lose: about the last second of writes. Redis writes each command to
 * its append-only file before it answers, but with everysec it fsyncs that file only once a second
 * (in the background), and while an fsync is slow it may hold its writes back for up to two
 * seconds more; a crash of the machine loses what is not yet fsynced, a SIGKILL of the server what
 * was still held back. A job enqueued more than a second before the kill (on a disk that keeps up)
 * is there after it; one enqueued in the last instant may not be. The sweepers re-enqueue what
 * that second held (docs/local-services.md).
 */
describe("local services: the bootstrap's Redis killed and restarted under load keeps the delayed jobs", function () {
  this.timeout(60000);
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let runUrl: string | undefined;

  after(async () => {
    // Back to the run's Redis before the file's stores are dropped there: the next file never sees this one.
    await closeQueues();
    await closeAllRedis();
    if (runUrl !== undefined) setEnvForChildren({ REDIS_URL: runUrl });
    for (const c of children) await stopped(c, 'SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('error: SIGKILL under load and a start on the same port and directory; every delayed settlement and recharge retry is there with its id, data and delay', async () => {
    const port = await freePort();
    const dir = join(process.cwd(), '.local', `redis-keeps-jobs-${port}`);
    dirs.push(dir);
    let server = await startRedisServer(dir, { port, persist: true });
    children.push(server.child);
    // This process's queues and connections move to this server (the file's prefix stays).
    runUrl = getConfig().REDIS_URL;
    await closeQueues();
    await closeAllRedis();
    setEnvForChildren({ REDIS_URL: server.url });
    // The load: other keys written and immediate jobs enqueued, from start to after the restart.
    let running = true;
    let loadAcked = 0;
    let loadAckedBeforeKill = 0;
    let loadSeq = 0;
    const loops = Array.from({ length: 3 }, async () => {
      while (running) {
        const n = loadSeq++;
        const immediate: Intent = { kind: 'enqueue', queue: 'settlement', name: 'settle-event', data: { eventId: `load-${n}`, resultVersion: 1 }, delay: 0 };
        // While Redis is down the shared client fails fast and the queue's waits for the reconnection.
        const ok = await Promise.all([redis().set(key('load', n % 500), String(n)), dispatch([immediate])]).then(
          () => true,
          () => false,
        );
        if (ok) loadAcked += 2;
        await sleep(ok ? 5 : 50);
      }
    });
    try {
      await sleep(500);

      // The settlements a poll puts off, through the poll's own follow-ups (four polls of 50 events),
      // and the recharge retries a declined first attempt schedules (attempt 2, an hour later).
      const expected = new Map<string, Expected>();
      const polls = Array.from({ length: 4 }, (_, p) => {
        const settle = Array.from({ length: SETTLEMENTS / 4 }, (__, i) => ({ eventId: `ev-${p}-${i}-${randomBytes(3).toString('hex')}`, resultVersion: 1 + (i % 2) }));
        return followUpIntents({ settle, analyze: [], statusChanges: [] }, [], () => SETTLE_DELAY_MS);
      });
      const now = Date.now();
      const retries = Array.from({ length: RETRIES }, (_, i) => retryIntent(randomBytes(12).toString('hex'), rechargeWindow(1 + (i % 3), i % 5), now, now));
      const results = await Promise.all([...polls.map((intents) => dispatch(intents)), ...retries.map((r) => dispatch([r]))]);
      for (const { intent, jobIds } of results.flat()) {
        if (intent.kind === 'enqueue-many') intent.jobs.forEach((j, i) => expected.set(jobIds[i], { name: intent.name, data: j.data, delay: j.delay }));
        else if (intent.kind === 'enqueue') expected.set(jobIds[0], { name: intent.name, data: intent.data, delay: intent.delay ?? 0 });
      }
      expect(expected.size).to.equal(SETTLEMENTS + RETRIES);

      // Past appendfsync everysec: what was written more than a second ago is on disk.
      await sleep(1500);
      // One more, acknowledged in the last instant before the kill: it may be on disk or not.
      const [last] = await dispatch([retryIntent('last-instant', rechargeWindow(1, 0), now, now)]);
      loadAckedBeforeKill = loadAcked;
      await stopped(server.child, 'SIGKILL');
      server = await startRedisServer(dir, { port, persist: true });
      children.push(server.child);
      await sleep(500);
      running = false;
      await Promise.all(loops);
      expect(loadAckedBeforeKill, 'load writes acknowledged before the kill').to.be.greaterThan(300);

      // Fresh connections, as a process started after the restart would have.
      await closeQueues();
      await closeAllRedis();
      const found = new Map<string, Job>();
      for (const def of [settlementQueue, rechargeQueue]) for (const job of await queueFor(def).getDelayed(0, -1)) if (job.id) found.set(job.id, job);

      const missing = [...expected.keys()].filter((id) => !found.has(id));
      expect(missing, 'delayed jobs lost by the restart').to.deep.equal([]);
      for (const [id, want] of expected) {
        const job = found.get(id);
        expect({ id: job?.id, name: job?.name, data: job?.data, delay: job?.delay }, id).to.deep.equal({ id, ...want });
      }

      // The job of the last instant: not asserted present or absent. Redis answered its add before
      // that second's fsync; here only the process dies and the kernel keeps what Redis wrote, so it
      // is usually there, but a held-back write (a slow fsync) dies with the process, and a crash of
      // the machine would lose the unsynced tail: either outcome is within the stated bound. What
      // must hold either way: it is whole or absent, never a job without its data or its place in
      // the delayed set (a script's writes are one MULTI in the file, replayed entirely or not at
      // all, and a torn tail is cut off at load).
      const lastId = last.jobIds[0];
      const lastJob = await queueFor(rechargeQueue).getJob(lastId);
      if (lastJob) {
        expect({ inDelayed: found.has(lastId), data: lastJob.data, delay: lastJob.delay }, 'the last job, kept').to.deep.equal({
          inDelayed: true,
          data: { accountId: 'last-instant', window: rechargeWindow(1, 0), attempt: 2 },
          delay: RECHARGE_RETRY_DELAY_MS,
        });
      } else {
        expect(found.has(lastId), 'the last job, lost: not in the delayed set either').to.equal(false);
      }
    } finally {
      running = false;
      await Promise.all(loops);
    }
  });
});
