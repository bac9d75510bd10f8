import { expect } from 'chai';
import { SettlementBatcher } from '../../../shared/app/settlement/batcher';
import type { EventOutcome } from '../../../shared/app/settlement/settleEvent';

const outcome = (eventId: string): EventOutcome => ({
  eventId,
  status: 'settled',
  resultVersion: 0,
  recommendations: { settled: 1, corrected: 0, confirmed: 0, errors: 0 },
  picks: { settled: 0, corrected: 0, legs: 0, errors: 0 },
});

/** A settlement pass the test finishes by hand: records each batch it was given. */
function fakeRun() {
  const batches: string[][] = [];
  const pending: { ids: readonly string[]; resolve: () => void; reject: (e: Error) => void }[] = [];
  const run = (ids: readonly string[]) =>
    new Promise<Map<string, EventOutcome>>((resolve, reject) => {
      batches.push([...ids]);
      pending.push({ ids, resolve: () => resolve(new Map(ids.map((id) => [id, outcome(id)]))), reject });
    });
  return { run, batches, pending };
}

const tick = (ms = 15) => new Promise((r) => setTimeout(r, ms));

describe('SettlementBatcher (group commit of settle jobs)', () => {
  it('happy: jobs arriving within the window go in one batch, each gets its own outcome', async () => {
    const f = fakeRun();
    const b = new SettlementBatcher(f.run, 5);
    const all = Promise.all(['e1', 'e2', 'e3'].map((id) => b.settle(id)));
    await tick();
    expect(f.batches).to.deep.equal([['e1', 'e2', 'e3']]);
    f.pending[0].resolve();
    expect((await all).map((o) => o.eventId)).to.deep.equal(['e1', 'e2', 'e3']);
  });

  it('happy: jobs arriving while a batch runs wait and go TOGETHER in the next one (not one batch each)', async () => {
    const f = fakeRun();
    const b = new SettlementBatcher(f.run, 5);
    const first = b.settle('e1');
    await tick();
    const later = ['e2', 'e3', 'e4'].map((id) => b.settle(id));
    await tick();
    await tick();
    expect(f.batches, 'nothing starts while the first batch runs').to.deep.equal([['e1']]);
    f.pending[0].resolve();
    await first;
    await tick();
    expect(f.batches).to.deep.equal([['e1'], ['e2', 'e3', 'e4']]);
    f.pending[1].resolve();
    expect((await Promise.all(later)).map((o) => o.eventId)).to.deep.equal(['e2', 'e3', 'e4']);
  });

  it('happy: a duplicate job of one event shares its batch and its outcome', async () => {
    const f = fakeRun();
    const b = new SettlementBatcher(f.run, 5);
    const both = Promise.all([b.settle('e1'), b.settle('e1')]);
    await tick();
    expect(f.batches).to.deep.equal([['e1']]);
    f.pending[0].resolve();
    expect((await both).map((o) => o.eventId)).to.deep.equal(['e1', 'e1']);
  });

  it('happy: maxBatch flushes at once and splits what waited into batches of at most maxBatch', async () => {
    const f = fakeRun();
    const b = new SettlementBatcher(f.run, 1000, 2);
    const jobs = ['a', 'b'].map((id) => b.settle(id));
    await tick(1);
    expect(f.batches, 'flushed without waiting for the window').to.deep.equal([['a', 'b']]);
    const more = ['c', 'd', 'e'].map((id) => b.settle(id));
    f.pending[0].resolve();
    await Promise.all(jobs);
    await tick(1);
    expect(f.batches).to.deep.equal([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    f.pending[1].resolve();
    await tick(1100);
    expect(f.batches).to.deep.equal([['a', 'b'], ['c', 'd'], ['e']]);
    f.pending[2].resolve();
    await Promise.all(more);
  });

  it('error: a failed batch rejects its own jobs only, and the next batch still runs', async () => {
    const f = fakeRun();
    const b = new SettlementBatcher(f.run, 5);
    const failing = [b.settle('e1'), b.settle('e2')].map((p) =>
      p.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    await tick();
    const next = b.settle('e3');
    f.pending[0].reject(new Error('database down'));
    expect(await Promise.all(failing)).to.deep.equal(['database down', 'database down']);
    await tick();
    expect(f.batches).to.deep.equal([['e1', 'e2'], ['e3']]);
    f.pending[1].resolve();
    expect((await next).eventId).to.equal('e3');
  });
});
