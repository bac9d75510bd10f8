import { expect } from 'chai';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { getConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { key, redis, tag } from '../../../shared/platform/db/redis';
import { insertSeedDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { currentOpportunityRecommendations, forgetOpportunities, publishAnalysis, publishStarted } from '../../../shared/platform/opportunities/store';
import { clearReadData, insertEvents } from '../../helpers/fixtures';
import { startApi, type TestServer } from '../../helpers/api';

/**
 * The value opportunities come from the AI worker's read model in Redis (shared/platform/opportunities):
 * what an analysis published is served at the next read, a slower older analysis never replaces a
 * newer one, a started event drops out, and a model lost with Redis is rebuilt from the store.
 */
const HOUR = 3600_000;
const now = new Date();
const at = (hours: number) => new Date(now.getTime() + hours * HOUR);

function rec(id: string, eventId: string, edge: number) {
  return {
    _id: id,
    eventId,
    marketId: `${eventId}-m`,
    betItemId: `${eventId}-m-${id}`,
    betTypeSysname: 'SOCCER_UNDER_OVER',
    code: 'O',
    line: 2.5,
    outcome: 'Over 2.5',
    sportId: 1,
    bookmaker: 'simulated',
    odds: 2.1,
    probability: 0.52,
    fairOdds: 1.92,
    confidence: edge >= 8 ? 'High' : 'Medium',
    edgePercentage: edge,
    kellyFraction: 0.02,
    rationale: [],
    riskFactors: [],
    dataSupport: [],
    settled: false,
    result: null,
    eventStartAt: at(24),
    createdAt: now,
  };
}

const ids = async () => (await currentOpportunityRecommendations(new Date())).map((r) => String((r as { _id?: unknown })._id));

describe('value opportunities from the AI worker read model', function () {
  this.timeout(60_000);
  let api: TestServer;

  before(async () => {
    await connectMongo();
    api = await startApi();
    await clearReadData();
    await insertEvents({ id: 'op1', start: at(24) }, { id: 'op2', start: at(48) }, { id: 'op3', start: at(-1), status: 'live' });
    await insertSeedDocuments('recommendations', [rec('op1-a', 'op1', 6), rec('op1-b', 'op1', 9), rec('op1-c', 'op1', 7), rec('op2-a', 'op2', 8), rec('op3-a', 'op3', 12)]);
    await bumpCacheVersion('events'); // the listing of the events just inserted
  });
  after(async () => {
    await clearReadData();
    await api.close();
  });

  it('happy: what an analysis published is served best edge first, only for events still to start', async () => {
    await publishAnalysis('op1', at(-2), ['op1-a', 'op1-b']);
    await publishAnalysis('op2', at(-2), ['op2-a']);
    await publishAnalysis('op3', at(-3), ['op3-a']); // live now: its analysis is history
    expect(await ids()).to.deep.equal(['op1-b', 'op2-a', 'op1-a']);
    await bumpCacheVersion('ai');
    const res = await api.get('/v2/ai/value-opportunities?minEdge=0&limit=10');
    expect(res.status).to.equal(200);
    expect(res.body.opportunities.map((o: { id: string }) => o.id)).to.deep.equal(['op1-b', 'op2-a', 'op1-a']);
    expect(res.body.summary).to.deep.include({ totalOpportunities: 3, highConfidence: 2 });
  });

  it('happy: a newer analysis of an event replaces its opportunities at the next read', async () => {
    await publishAnalysis('op1', at(-1), ['op1-c']);
    expect(await ids()).to.deep.equal(['op2-a', 'op1-c']);
  });

  it('error: an older analysis published late (a slower job) does not replace the newer one', async () => {
    await publishAnalysis('op1', at(-2), ['op1-a', 'op1-b']);
    expect(await ids()).to.deep.equal(['op2-a', 'op1-c']);
  });

  it('happy: an event that started drops out before the listing says so, and an analysis in flight does not bring it back', async () => {
    await publishStarted('op2', at(0));
    expect(await ids()).to.deep.equal(['op1-c']);
    await publishAnalysis('op2', at(-1), ['op2-a']);
    expect(await ids()).to.deep.equal(['op1-c']);
  });

  const analysed = { marketEfficiencyScore: 80, event: { homeTeam: 'Arsenal', awayTeam: 'Chelsea' } };

  it('happy: a model lost with Redis is rebuilt from the stored insights; a process holding rows serves them meanwhile', async () => {
    await insertSeedDocuments('insights', [
      { _id: 'op1', eventId: 'op1', status: 'upcoming', startDateTime: at(24), recommendationIds: ['op1-b'], analysisTimestamp: at(-0.5), ...analysed },
      { _id: 'op2', eventId: 'op2', status: 'upcoming', startDateTime: at(48), recommendationIds: ['op2-a'], analysisTimestamp: at(-0.5), ...analysed },
    ]);
    // Redis restarted empty under a process that holds the rows: they are served while it rebuilds.
    await redis().del(...['rows', 'seq', 'changes', 'valid'].map((p) => key(tag('opportunities', getConfig().MONGODB_DB), p)));
    expect(await ids()).to.deep.equal(['op1-c']);
    // The rebuild lands: the stored analyses, op2's included (its tombstone went with Redis).
    // Waited for by time, not by a count of reads: beside the parallel suite the rebuild outlasted 50 reads.
    let seen: string[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && seen.length !== 2; await new Promise((r) => setTimeout(r, 50))) seen = await ids();
    expect(seen).to.deep.equal(['op1-b', 'op2-a']);
    // A process with nothing in memory on an empty model waits for the rebuild.
    await forgetOpportunities();
    expect(await ids()).to.deep.equal(['op1-b', 'op2-a']);
  });
});
