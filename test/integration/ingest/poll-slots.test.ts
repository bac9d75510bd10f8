import { expect } from 'chai';
import { Worker } from 'bullmq';
import { ingestQueue } from '../../../jobs/ingest';
import { bullPrefix } from '../../../shared/platform/queues/client';
import { createRedis } from '../../../shared/platform/db/redis';
import { overrideEnv } from '../../../shared/platform/config';
import { msToNextSlot } from '../../../shared/domain/ingest/slots';
import { startScheduler } from '../../../workers/scheduler';
import { waitUntil } from '../../helpers/processes';

/**
 * A poll is for its slot's start (the provider's world is read as of then): the scheduler enqueues
 * it as the slot begins, wherever in a slot the scheduler itself started. Real scheduler, real
 * BullMQ queue, a worker of this file taking the polls off it.
 */
describe('scheduler: polls enqueued at the start of their slot', () => {
  const INTERVAL = 1000;
  let restore: (() => void) | undefined;

  after(() => restore?.());

  it('happy: started half-way through a slot, every later poll is enqueued within 150 ms of its slot start, slot after slot', async function () {
    this.timeout(30_000);
    restore = overrideEnv({ POLL_INTERVAL_MS: String(INTERVAL), PROVIDERS: 'simulated', FERRETDB_VACUUM_MS: '0' });
    // Half-way through a slot: a scheduler timing its runs from its own start would enqueue each poll 500 ms late.
    await new Promise((r) => setTimeout(r, msToNextSlot(Date.now(), INTERVAL, INTERVAL / 2)));
    const polls: { slot: number; enqueuedAt: number }[] = [];
    const worker = new Worker(
      ingestQueue.name,
      async (job) => {
        if (job.name === 'poll') polls.push({ slot: job.data.slot, enqueuedAt: job.timestamp });
      },
      { connection: createRedis('poll-slots-test'), prefix: bullPrefix(ingestQueue.name) },
    );
    const scheduler = await startScheduler();
    try {
      await waitUntil('six polls', () => polls.length >= 6, 20_000, 50);
    } finally {
      await scheduler.stop();
      await worker.close();
    }
    // The first is the run right after start (1 s in, for the slot it falls in); the rest are on the slots.
    const later = polls.slice(1);
    for (const p of later) expect(p.enqueuedAt - p.slot * INTERVAL, JSON.stringify(p)).to.be.within(0, 150);
    const slots = later.map((p) => p.slot);
    expect(new Set(slots).size, 'one poll per slot').to.equal(slots.length);
    expect(slots[slots.length - 1] - slots[0], 'no slot skipped').to.equal(slots.length - 1);
  });
});
