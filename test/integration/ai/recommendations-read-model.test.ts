import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { settleEvent } from '../../../shared/app/settlement/settleEvent';
import type { RowFilter } from '../../../shared/domain/recommendations/rows';
import { getConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { key, redis, tag } from '../../../shared/platform/db/redis';
import { insertSeedDocuments, recommendationsPageFromStore } from '../../../shared/platform/db/repositories/fixtures';
import { forgetRecommendations, publishRecommendationRows, recommendationsPage } from '../../../shared/platform/recommendations/store';
import { analysisStore } from '../../../shared/platform/stores/analysis';
import { startApi, type TestServer } from '../../helpers/api';
import { clearReadData } from '../../helpers/fixtures';
import { createEvent, createRecommendations, recId } from '../../helpers/settlementFixtures';

/**
 * GET /v2/ai/betting-recommendations pages and counts from a read model the AI worker's inserts and
 * settlement's gradings keep in Redis (shared/platform/recommendations): every filter and page
 * agrees with what the collection itself answers, a write after the first read is served at the
 * next read without a rebuild, an insert never undoes a grading, a crash between a store write and
 * its publish is made good by the job's retry, and a model lost with Redis is rebuilt.
 */
const MIN = 60_000;
const base = Date.now() - 120 * MIN;

/** A recommendation as an analysis writes it (the AI worker's insert path). */
function drafted(eventId: string, key: string, code: '1' | 'X' | '2', createdAt: Date, confidence: 'High' | 'Medium' | 'Low') {
  const t = (en: string) => ({ en, es: en, pt: en });
  return {
    _id: recId(eventId, key),
    eventId,
    marketId: `${eventId}-SOCCER_MATCH_RESULT`,
    betItemId: `${eventId}-SOCCER_MATCH_RESULT-${code}`,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code,
    line: null,
    sportId: 1,
    outcome: code,
    outcomeLocalized: t(code),
    bookmaker: 'simulated',
    odds: 2.2,
    probability: 0.5,
    fairOdds: 2,
    marketProbability: 0.48,
    distribution: { win: 0.5, halfWin: 0, push: 0, halfLoss: 0, loss: 0.5 },
    standardError: 0.02,
    confidence,
    edgePercentage: 10,
    kellyFraction: 0.02,
    rationale: [t('r')],
    riskFactors: [],
    dataSupport: [],
    eventStartAt: new Date(base - 180 * MIN),
    competitionId: 1,
    regionId: 1,
    settled: false,
    result: null,
    createdAt,
  };
}

const FILTERS: RowFilter[] = [
  {},
  { settled: true },
  { settled: false },
  { result: 'won' },
  { result: 'lost' },
  { confidence: 'High' },
  { confidence: 'Low' },
  { settled: true, confidence: 'Medium' },
  { settled: false, confidence: 'High' },
];

/** Every filter (and the events' own), pages 1 to 3 of 2: the model's ids and count against the collection's. */
async function expectAgreesWithStore(eventIds: string[]): Promise<void> {
  for (const f of [...FILTERS, ...eventIds.map((eventId) => ({ eventId })), { eventId: eventIds[0], settled: true, result: 'won' }]) {
    for (const page of [1, 2, 3]) {
      const model = await recommendationsPage(f, page, 2);
      const store = await recommendationsPageFromStore(f, page, 2);
      expect({ count: model.count, ids: model.docs.map((d) => d._id) }, `${JSON.stringify(f)} page ${page}`).to.deep.equal(store);
    }
  }
}

const validKey = () => key(tag('recommendations', getConfig().MONGODB_DB), 'valid');

describe('betting recommendations from their read model', function () {
  this.timeout(120_000);
  let api: TestServer;
  const events: string[] = [];

  before(async () => {
    await connectMongo();
    api = await startApi();
    await clearReadData();
    // Two ended events (2-1) with bets of every confidence, written at different times (two at the same instant: the id breaks the tie).
    for (let e = 0; e < 2; e++) {
      const id = await createEvent({});
      events.push(id);
      await createRecommendations(id, [
        { key: 'h', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', confidence: 'High', createdAt: new Date(base + e * 10 * MIN) },
        { key: 'x', betTypeSysname: 'SOCCER_MATCH_RESULT', code: 'X', confidence: 'Low', createdAt: new Date(base + e * 10 * MIN) },
        { key: 'a', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '2', confidence: 'Medium', createdAt: new Date(base + e * 10 * MIN + MIN) },
      ]);
    }
    await settleEvent(processContext(), events[0]);
  });

  after(async () => {
    await api?.close();
  });

  it('happy: every filter and page agrees with the collection (the model rebuilt from the store)', async () => {
    await expectAgreesWithStore(events);
    const settled = await recommendationsPage({ settled: true }, 1, 10);
    expect(settled.docs.map((d) => [d._id, d.result])).to.have.deep.members([
      [recId(events[0], 'h'), 'won'],
      [recId(events[0], 'x'), 'lost'],
      [recId(events[0], 'a'), 'lost'],
    ]);
  });

  it('happy: the API serves the model: count, order and a settled body', async () => {
    const res = await api.get('/v2/ai/betting-recommendations?settled=true&result=won&limit=5');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(1);
    expect(res.body.data.map((r: { id: string; settlement?: unknown }) => r.id)).to.deep.equal([recId(events[0], 'h')]);
    const all = await api.get('/v2/ai/betting-recommendations?limit=100');
    expect(all.body.data.map((r: { id: string }) => r.id)).to.deep.equal((await recommendationsPageFromStore({}, 1, 100)).ids);
  });

  it('happy: an insert and a grading after the first read are served at the next read, without a rebuild', async () => {
    const generation = await redis().get(validKey());
    expect(generation).to.be.a('string');
    const id = await createEvent({});
    events.push(id);
    const newest = new Date(base + 60 * MIN);
    await analysisStore().insertRecommendations([drafted(id, 'h', '1', newest, 'High'), drafted(id, 'x', 'X', newest, 'Medium')]);
    const first = await recommendationsPage({}, 1, 2);
    expect(first.docs.map((d) => d._id)).to.deep.equal([recId(id, 'h'), recId(id, 'x')]);
    expect(first.docs.every((d) => !d.settled)).to.equal(true);

    await settleEvent(processContext(), id);
    const graded = await recommendationsPage({ eventId: id }, 1, 5);
    // The bodies were read again: their rows say settlement changed them.
    expect(graded.docs.map((d) => [d._id, d.settled, d.result])).to.deep.equal([
      [recId(id, 'h'), true, 'won'],
      [recId(id, 'x'), true, 'lost'],
    ]);
    expect(await redis().get(validKey())).to.equal(generation);
    await expectAgreesWithStore(events);
  });

  it('error: an insert never undoes a grading (an analysis retried after settlement, or one that read the bet before it was graded)', async () => {
    const id = events[2];
    await analysisStore().insertRecommendations([drafted(id, 'h', '1', new Date(), 'High')]);
    // The race: an insert's publish of the bet as it read it, landing after settlement's.
    await publishRecommendationRows([{ ...drafted(id, 'h', '1', new Date(base + 60 * MIN), 'High'), settlementWrites: 0 }], 'insert');
    const page = await recommendationsPage({ eventId: id, settled: true, result: 'won' }, 1, 5);
    expect(page.docs.map((d) => d._id)).to.deep.equal([recId(id, 'h')]);
    await expectAgreesWithStore(events);
  });

  it('error: a crash between the store write and its publish is made good by the retry (with the stored createdAt)', async () => {
    const id = await createEvent({});
    events.push(id);
    const storedAt = new Date(base + 90 * MIN);
    // The first attempt's insert landed; its process died before the read model heard of it.
    await insertSeedDocuments('recommendations', [drafted(id, 'h', '1', storedAt, 'Low')]);
    expect((await recommendationsPage({ eventId: id }, 1, 5)).count).to.equal(0);
    // The retry analyses again a little later: the stored document is found and published as stored.
    await analysisStore().insertRecommendations([drafted(id, 'h', '1', new Date(storedAt.getTime() + 5 * MIN), 'Low')]);
    const page = await recommendationsPage({}, 1, 1);
    expect(page.docs.map((d) => [d._id, d.createdAt?.toISOString()])).to.deep.equal([[recId(id, 'h'), storedAt.toISOString()]]);
    // Settlement's retry likewise: graded in the store behind the model, the re-run publishes it.
    await settleEvent(processContext(), id);
    await settleEvent(processContext(), id);
    await expectAgreesWithStore(events);
  });

  it('happy: a model lost with Redis is rebuilt from the store by its next reader', async () => {
    await forgetRecommendations();
    expect(await redis().get(validKey())).to.equal(null);
    await expectAgreesWithStore(events);
    expect(await redis().get(validKey())).to.be.a('string');
  });
});
