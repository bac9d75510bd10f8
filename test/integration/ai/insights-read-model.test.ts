import { expect } from 'chai';
import { getConfig } from '../../../shared/platform/config';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { key, redis, tag } from '../../../shared/platform/db/redis';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { insertSeedDocuments, processedInsightsPageFromStore as pageFromStore, setInsightFields } from '../../../shared/platform/db/repositories/fixtures';
import { forgetInsights, publishInsight } from '../../../shared/platform/insights/store';
import { analysisStore } from '../../../shared/platform/stores/analysis';
import { startApi, type TestServer } from '../../helpers/api';
import { clearReadData } from '../../helpers/fixtures';
import { createEvent } from '../../helpers/settlementFixtures';

/**
 * GET /v2/ai/processed-insights without an event or team filter pages the listing's events that
 * have an insight, as the insights read model in Redis says (shared/platform/insights): every
 * status filter agrees with what the store itself holds (events without an insight passed over,
 * the event's current status shown), an analysis written after the first read is served at the
 * next read (its new body, not the one held), an older publish never hides a newer analysis, a
 * crash between the insight's write and its publish is made good by the retry, and a model lost
 * with Redis is rebuilt by its next reader.
 */
const MIN = 60_000;

const validKey = () => key(tag('insights', getConfig().MONGODB_DB), 'valid');

/** An insight as an analysis writes it, with a note that tells one analysis from another. */
function analysed(eventId: string, start: Date, at: Date, note: string) {
  const t = (en: string) => ({ en, es: en, pt: en });
  return {
    eventId,
    status: 'upcoming',
    startDateTime: start,
    sportId: 1,
    competitionId: 1,
    regionId: 1,
    marketEfficiencyScore: 80,
    valueOpportunities: { recommendations: [] },
    recommendationIds: [],
    riskFactors: [],
    aiNotes: t(note),
    event: { homeTeam: t('Home FC'), awayTeam: t('Away FC'), commenceTime: start.toISOString(), league: t('League') },
    analysisTimestamp: at,
  };
}

describe('processed insights from the insights read model', function () {
  this.timeout(120_000);
  let api: TestServer;
  const upcoming: string[] = [];
  const base = Date.now() + 60 * MIN;

  /** An analysis as the AI worker ends it: written, published, and the `ai` pages' version bumped. */
  async function write(id: string, fields: ReturnType<typeof analysed>): Promise<void> {
    await analysisStore().writeInsight(id, fields);
    await bumpCacheVersion('ai');
  }

  const page = async (query: string): Promise<{ eventId: string; status: string; aiNotes: string }[]> => {
    const res = await api.get(`/v2/ai/processed-insights?${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };

  async function expectAgreesWithStore(): Promise<void> {
    for (const statuses of [['upcoming'], ['completed'], ['upcoming', 'completed'], ['live']]) {
      for (const limit of [1, 3, 50]) {
        const served = await page(`status=${statuses.join(',')}&limit=${limit}`);
        expect(
          served.map((i) => i.eventId),
          `${statuses.join(',')} limit ${limit}`,
        ).to.deep.equal(await pageFromStore(statuses, limit));
      }
    }
  }

  before(async () => {
    await connectMongo();
    api = await startApi();
    await clearReadData();
    // Six upcoming events, every other one analysed; four ended ones, two analysed while upcoming.
    for (let e = 0; e < 6; e++) {
      const start = new Date(base + e * 10 * MIN);
      const id = await createEvent({ status: 'upcoming', start, led: null });
      upcoming.push(id);
      if (e % 2 === 0) await insertSeedDocuments('insights', [{ _id: id, ...analysed(id, start, new Date(), `first ${e}`) }]);
    }
    for (let e = 0; e < 4; e++) {
      const start = new Date(Date.now() - (5 + e) * 60 * MIN);
      const id = await createEvent({ start });
      if (e < 2) await insertSeedDocuments('insights', [{ _id: id, ...analysed(id, start, new Date(start.getTime() - 60 * MIN), `ended ${e}`) }]);
    }
    await forgetInsights(); // written behind the model: its first reader rebuilds it
  });

  after(async () => {
    await api?.close();
  });

  it('happy: every status filter and limit agrees with the store, with the event current status', async () => {
    await expectAgreesWithStore();
    const ended = await page('status=completed&limit=50');
    expect(ended.map((i) => i.status)).to.deep.equal(['completed', 'completed']);
    expect(ended.map((i) => i.aiNotes)).to.deep.equal(['ended 0', 'ended 1']);
    expect((await page('status=upcoming&limit=50')).map((i) => i.aiNotes)).to.deep.equal(['first 0', 'first 2', 'first 4']);
  });

  it('happy: an analysis after the first read is served at the next read (a new event, and a new body of one held), without a rebuild', async () => {
    const generation = await redis().get(validKey());
    expect(generation).to.be.a('string');
    const later = new Date(Date.now() + 1000);
    await write(upcoming[1], analysed(upcoming[1], new Date(base + 10 * MIN), later, 'first 1'));
    await write(upcoming[0], analysed(upcoming[0], new Date(base), later, 'second 0'));
    expect((await page('status=upcoming&limit=3')).map((i) => i.aiNotes)).to.deep.equal(['second 0', 'first 1', 'first 2']);
    expect(await redis().get(validKey())).to.equal(generation);
    await expectAgreesWithStore();
  });

  it('error: an older analysis published late never hides the newer one', async () => {
    await publishInsight(upcoming[0], new Date(Date.now() - 60 * MIN));
    await bumpCacheVersion('ai');
    expect((await page('status=upcoming&limit=1')).map((i) => i.aiNotes)).to.deep.equal(['second 0']);
  });

  it('error: a crash between the insight write and its publish is made good by the retry', async () => {
    const id = upcoming[3];
    const start = new Date(base + 30 * MIN);
    // The first attempt wrote the insight; its process died before the read model heard of it.
    await setInsightFields(id, analysed(id, start, new Date(Date.now() + 2000), 'first 3'));
    await bumpCacheVersion('ai');
    expect((await page('status=upcoming&limit=50')).map((i) => i.eventId)).to.not.include(id);
    // The retry writes again (a newer analysis is stored: not overwritten) and publishes.
    await write(id, analysed(id, start, new Date(Date.now() + 1500), 'retry 3'));
    const served = await page('status=upcoming&limit=50');
    expect(served.find((i) => i.eventId === id)?.aiNotes).to.equal('first 3');
    await expectAgreesWithStore();
  });

  it('happy: a model lost with Redis is rebuilt from the store by its next reader', async () => {
    await redis().del(validKey());
    await bumpCacheVersion('ai');
    const served = await page('status=upcoming&limit=50');
    // Served from what the process held while the rebuild runs, then from the rebuilt model.
    expect(served.map((i) => i.eventId)).to.deep.equal(await pageFromStore(['upcoming'], 50));
    for (let i = 0; i < 50 && !(await redis().get(validKey())); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await redis().get(validKey())).to.be.a('string');
    await forgetInsights();
    await expectAgreesWithStore();
  });
});
