import { resolve } from 'node:path';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { findLiveEventDataOfEvent } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { loadScenario } from '../../../shared/platform/providers/simulated/scenario';
import { processContext } from '../../../shared/app/processContext';
import { correctResult } from '../../../shared/app/settlement/correct';
import { clearIngested, nextSlot } from '../../helpers/ingest';

/**
 * An operator's result correction must stand: the provider keeps sending its own final count
 * (and, in the scenario, publishes a correction of its own later), and neither may undo the
 * operator's result or settle the event again under a new version.
 */
const at = (hhmm: string) => new Date(`2026-11-21T${hhmm}:00Z`);
const settleJobs = async () =>
  (await queueFor(settlementQueue).getJobs(['delayed', 'waiting']))
    .filter((j) => j.name === 'settle-event')
    .map((j) => j.id!)
    .sort();

describe('ingest: an operator-corrected result stands against the feed', function () {
  this.timeout(120_000);
  let handle: ProviderHandle;
  const poll = (t: Date) => pollProvider(processContext(), handle, { slot: nextSlot(), at: t, settlementDelayMs: () => 150_000 });

  before(connectMongo);
  beforeEach(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(resolve(__dirname, '../../../docs/scenarios/soccer-settlement-rules.json')) }));
    for (const t of ['12:00', '13:15', '14:15', '14:46']) await poll(at(t));
  });
  afterEach(() => handle?.breaker.shutdown());
  // The correction enqueued settle jobs for ids other files reuse (the scenario's event ids).
  after(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
  });

  it("happy: later polls and the provider's own correction leave the operator's counts, void flag and version alone", async () => {
    const before = (await findEventById('7100008'))!;
    expect(before.status).to.equal('completed');
    const out = await correctResult(processContext(), { eventId: '7100008', stats: { homeCorners: 12, homeGoals: 3 }, voided: false });
    expect(out).to.include({ changed: true, previousVersion: 0, resultVersion: 1 });

    await poll(at('14:50'));
    await poll(at('15:15')); // the scenario's published correction of event 8 (homeCorners 6)
    const e = (await findEventById('7100008'))!;
    expect(e.resultVersion).to.equal(1);
    expect(e.stats).to.include({ homeCorners: 12, homeGoals: 3 });
    expect(e.resultOverride).to.include({ resultVersion: 1 });
    const led = (await findLiveEventDataOfEvent('7100008'))!;
    expect([led.homeCorners, led.homeGoals]).to.deep.equal([12, 3]);
    expect(await settleJobs())
      .to.include('settle-7100008-v1')
      .and.not.include('settle-7100008-v2');
  });

  it("happy: without an operator correction the provider's correction still applies (control)", async () => {
    await poll(at('15:15'));
    const e = (await findEventById('7100008'))!;
    expect(e.resultVersion).to.equal(1);
    expect((e.stats as { homeCorners: number }).homeCorners).to.equal(6);
    expect(e.resultOverride ?? null).to.equal(null);
  });
});
