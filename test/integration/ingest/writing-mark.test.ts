import { expect } from 'chai';
import { key, redis } from '../../../shared/platform/db/redis';
import { clearIngestWriting, markIngestWriting, waitWhileIngestWrites } from '../../../shared/platform/ingest/writing';

/**
 * The AI worker holds its analyses back while a poll writes (shared/platform/ingest/writing.ts),
 * within its budget, and never for a poll that died mid-write.
 */
describe("the poll's writing mark (what the AI worker waits on)", () => {
  afterEach(() => redis().del(key('ingest', 'writing')));

  it('happy: no poll writing: an analysis starts at once', async () => {
    expect(await waitWhileIngestWrites(2000)).to.be.below(100);
  });

  it('happy: waits while a poll writes and starts as its mark clears', async () => {
    await markIngestWriting('provider-a');
    setTimeout(() => void clearIngestWriting('provider-a'), 400);
    const waited = await waitWhileIngestWrites(5000);
    expect(waited).to.be.within(350, 1500);
  });

  it("edge: waits no longer than the poll's budget, however long the poll writes; then analyses go ahead at once", async () => {
    await markIngestWriting('provider-a');
    const waited = await waitWhileIngestWrites(300);
    expect(waited).to.be.within(250, 600);
    // The same poll still writing: its budget is spent, the next job does not wait again.
    expect(await waitWhileIngestWrites(300)).to.be.below(50);
    // The next poll's writes: a new budget.
    await markIngestWriting('provider-a');
    expect(await waitWhileIngestWrites(300)).to.be.at.least(250);
  });

  it('edge: a budget of 0 never waits', async () => {
    await markIngestWriting('provider-a');
    expect(await waitWhileIngestWrites(0)).to.be.below(50);
  });

  it("error: the mark of a poll that died mid-write holds nothing back past its budget; another provider's writes do", async () => {
    await redis().zadd(key('ingest', 'writing'), Date.now() - 60_000, 'crashed');
    expect(await waitWhileIngestWrites(2000)).to.be.below(100);
    await markIngestWriting('provider-b');
    await clearIngestWriting('provider-a');
    expect(await waitWhileIngestWrites(300)).to.be.at.least(250);
  });
});
