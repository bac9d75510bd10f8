import { resolve } from 'node:path';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { enqueue, queueFor } from '../../../shared/platform/queues/client';
import { ingestQueue } from '../../../jobs/ingest';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { countAllEvents } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { countAllLiveEventData, findLiveOddsSnapshots, findOddsHistoryRows } from '../../../shared/platform/db/repositories/fixtures';
import { countAllCompetitions, countAllTeams } from '../../../shared/platform/db/repositories/reference';
import { clearIngested } from '../../helpers/ingest';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';

const SCENARIO = resolve(__dirname, '../../../docs/scenarios/soccer-settlement-rules.json');
const MINUTE = 60_000;
/** Slot = minute since the epoch (POLL_INTERVAL_MS=60000): 12:00 .. 15:20 on the scenario's day. */
const slotOf = (hhmm: string) => Date.parse(`2026-11-21T${hhmm}:00Z`) / MINUTE;

describe('ingest: two worker processes share the polls without writing anything twice', function () {
  this.timeout(180_000);
  const workers: Spawned[] = [];

  before(async () => {
    await connectMongo();
    await clearIngested();
    for (const q of [ingestQueue, settlementQueue, aiQueue]) await queueFor(q).obliterate({ force: true });
    const env = { SIM_SCENARIO: SCENARIO, POLL_INTERVAL_MS: '60000', SIM_SPEED: '1', SETTLEMENT_DELAY_MS: '600000', LOG_LEVEL: 'warn' };
    workers.push(spawnEntry('workers/ingest.ts', env), spawnEntry('workers/ingest.ts', env));
  });

  after(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await clearIngested();
  });

  it('happy: polls never overlap, every document is written once, every settlement enqueued once', async () => {
    const q = queueFor(ingestQueue);
    const first = slotOf('12:00');
    const last = slotOf('15:20');
    const ids: string[] = [];
    // Batches of three slots at once, each enqueued twice (as two scheduler copies would):
    // duplicates collapse, and the two workers race for the batch.
    let batches = 0;
    for (let s = first; s <= last; s += 15) {
      const batch: string[] = [];
      for (const slot of [s, s + 5, s + 10].filter((x) => x <= last)) {
        batch.push(await enqueue(ingestQueue, 'poll', { provider: 'simulated', slot }));
        await enqueue(ingestQueue, 'poll', { provider: 'simulated', slot });
      }
      ids.push(...batch);
      batches++;
      await waitUntil('the batch to finish', async () => (await Promise.all(batch.map((id) => q.getJobState(id)))).every((st) => st === 'completed' || st === 'failed'), 60_000, 100);
    }
    expect(new Set(ids).size).to.equal(ids.length);
    expect((await q.getJobCounts('completed')).completed).to.equal(ids.length);
    // A last poll on its own, so the end state is the last slot's whatever was skipped before.
    const final = await enqueue(ingestQueue, 'poll', { provider: 'simulated', slot: last + 1 });
    await waitUntil('the final poll', async () => (await q.getJobState(final)) === 'completed', 30_000, 100);

    const jobs = (await q.getJobs(['completed'])).filter((j) => j.name === 'poll');
    expect(jobs.filter((j) => j.failedReason)).to.have.length(0);
    const ok = jobs.filter((j) => j.returnvalue?.status === 'ok').sort((a, b) => a.processedOn! - b.processedOn!);
    const skipped = jobs.filter((j) => j.returnvalue?.status === 'skipped');
    expect(ok.length + skipped.length).to.equal(jobs.length);
    expect(ok.length).to.be.at.least(batches);
    // Both processes worked.
    expect(new Set(jobs.map((j) => j.processedBy)).size).to.equal(2);
    // Polls that ran never overlapped while holding the lock, and their slots only moved forward.
    // (BullMQ's processedOn/finishedOn bracket more than the locked section: pick-up and
    // bookkeeping, so they may touch; the intervals measured inside the lock may not.)
    ok.sort((a, b) => a.returnvalue.heldFrom - b.returnvalue.heldFrom);
    for (let i = 1; i < ok.length; i++) {
      expect(ok[i].returnvalue.heldFrom, `poll ${ok[i].id} took the lock before ${ok[i - 1].id} released it`).to.be.at.least(ok[i - 1].returnvalue.heldUntil);
      expect(ok[i].data.slot).to.be.greaterThan(ok[i - 1].data.slot);
    }

    // No duplicate documents.
    expect(await countAllEvents()).to.equal(8);
    expect(await countAllLiveEventData()).to.be.at.most(8);
    expect(await countAllCompetitions()).to.equal(8);
    expect(await countAllTeams()).to.equal(16);
    const snaps = await findLiveOddsSnapshots();
    expect(new Set(snaps.map((s) => `${s.eventId}|${s.dataSource}`)).size).to.equal(snaps.length);
    const rows = await findOddsHistoryRows();
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1];
      const b = rows[i];
      if (a.betItemId !== b.betItemId) continue;
      expect(b.at.getTime(), `${b.betItemId} appended twice at one instant`).to.not.equal(a.at.getTime());
      expect(b.price, `${b.betItemId} appended an unchanged price`).to.not.equal(a.price);
    }
    // Settlement: once per event and result version (the correction of 7100008 is version 1).
    const settle = (await queueFor(settlementQueue).getJobs(['delayed', 'waiting']))
      .filter((j) => j.name === 'settle-event')
      .map((j) => j.id)
      .sort();
    expect(settle).to.deep.equal([
      'settle-7100001-v0',
      'settle-7100002-v0',
      'settle-7100003-v0',
      'settle-7100004-v0',
      'settle-7100005-v0',
      'settle-7100007-v0',
      'settle-7100008-v0',
      'settle-7100008-v1',
    ]);
    const e1 = (await findEventById('7100001'))!;
    expect([e1.status, (e1.stats as any).homeGoals, (e1.stats as any).awayGoals]).to.deep.equal(['completed', 2, 1]);
  });
});
