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

  it('edge: waits no longer than its budget, however long the poll writes', async () => {
    await markIngestWriting('provider-a');
    const waited = await waitWhileIngestWrites(300);
    expect(waited).to.be.within(290, 600);
  });

  it('edge: a budget of 0 never waits', async () => {
    await markIngestWriting('provider-a');
    expect(await waitWhileIngestWrites(0)).to.be.below(50);
  });

  it("error: a mark that lapsed (its poll died mid-write) holds nothing back; another provider's does", async () => {
    await redis().zadd(key('ingest', 'writing'), Date.now() - 1, 'crashed');
    expect(await waitWhileIngestWrites(2000)).to.be.below(100);
    await markIngestWriting('provider-b');
    await clearIngestWriting('provider-a');
    expect(await waitWhileIngestWrites(300)).to.be.at.least(290);
  });
});
