import { getPriority } from 'node:os';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { DateTime } from 'luxon';
import { aiQueue } from '../../../jobs/ai';
import { requestAnalyses } from '../../../shared/platform/queues/coalesced';
import { enqueue, queueFor } from '../../../shared/platform/queues/client';
import { aiComponents, aiResponses } from '../../../api/schemas/ai';
import { bumpCacheVersion, cacheVersionKey } from '../../../shared/platform/cache/versions';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { redis } from '../../../shared/platform/db/redis';
import { countRecommendationsMatching, findModelFitOfSport, findPicksOfEvent, findRecommendationsOfEvent } from '../../../shared/platform/db/repositories/ai';
import { findInsightById, findInsightsOfEvents, findRecommendationsOfEventsById, insertSeedDocuments, setEventFields } from '../../../shared/platform/db/repositories/fixtures';
import { mulberry32, samplePoisson } from '../../../shared/domain/ai/random';
import { startApi, type TestServer } from '../../helpers/api';
import { spawnEntry, waitUntil, type Spawned } from '../../helpers/processes';
import { SOCCER_MARKETS, simEvent } from '../../helpers/simEvents';

/**
 * The real `ai` worker process (workers/ai.ts) on simulated-like events: several bookmakers per
 * bet item with their own margins and seeded noise. Jobs go through real BullMQ on Redis, results
 * through MongoDB, and are read back through the real HTTP API.
 */
const validator = new Ajv({ strict: false, allErrors: true });
addFormats(validator);
const responseCheck = (name: keyof typeof aiResponses) => validator.compile({ ...aiResponses[name], components: { schemas: aiComponents } });
const checks = {
  featuredPicks: responseCheck('featuredPicks'),
  processedInsights: responseCheck('processedInsights'),
  valueOpportunities: responseCheck('valueOpportunities'),
  bettingRecommendations: responseCheck('bettingRecommendations'),
};
function valid(name: keyof typeof checks, body: unknown): void {
  const check = checks[name];
  expect(check(body), JSON.stringify(check.errors?.slice(0, 3))).to.equal(true);
}

const DAY = 86_400_000;
const utcMidnight = (offsetDays: number) => new Date(Math.floor(Date.now() / DAY) * DAY + offsetDays * DAY);
const BASKETBALL = [{ sysname: 'BASKETBALL_MONEYLINE' }, { sysname: 'BASKETBALL_SPREAD', line: -4.5 }, { sysname: 'BASKETBALL_TOTAL_POINTS', line: 221.5 }];
const TENNIS = [{ sysname: 'TENNIS_MATCH_WINNER' }, { sysname: 'TENNIS_TOTAL_SETS', line: 2.5 }, { sysname: 'TENNIS_SET_HANDICAP', line: -1.5 }];

function soccer(id: string, start: Date, seed: number, home: { id: number; name: string }, away: { id: number; name: string }, competition = { id: 501, name: 'Sim Premier' }, regionId = 51) {
  return simEvent({ id, sportId: 1, x: [Math.log(1.3 + (seed % 5) * 0.15), Math.log(1.0 + (seed % 3) * 0.2)], home, away, competition, regionId, startDateTime: start, markets: SOCCER_MARKETS, seed });
}

/** Requests an analysis as ingest does (coalesced per event) and waits for its job. */
async function runJob(eventId: string, _version: number): Promise<any> {
  const [jobId] = await requestAnalyses([eventId]);
  if (!jobId) throw new Error('no job id');
  const queue = queueFor(aiQueue);
  await waitUntil(`job ${jobId}`, async () => ['completed', 'failed'].includes(await queue.getJobState(jobId)), 30000, 50);
  // and the picks rebuild it asked for
  await waitUntil(
    'the ai queue idle',
    async () => {
      const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(c).every((n) => n === 0);
    },
    30000,
    50,
  );
  const job = (await queue.getJob(jobId))!;
  expect(job.failedReason, job.failedReason).to.equal(undefined);
  return job.returnvalue;
}

describe('AI worker end to end (real worker process, BullMQ, MongoDB, HTTP)', function () {
  this.timeout(90000);
  let worker: Spawned;
  let api: TestServer;
  const d1 = utcMidnight(1); // tomorrow, UTC
  const d2 = utcMidnight(2);
  const events = [
    soccer('aiw1', new Date(d1.getTime() + 9 * 3600_000), 11, { id: 801, name: 'Atlético Ñandú' }, { id: 802, name: 'Rovers' }),
    soccer('aiw2', new Date(d1.getTime() + 12 * 3600_000), 12, { id: 803, name: 'United' }, { id: 804, name: 'City' }),
    soccer('aiw3', new Date(d1.getTime() + 15 * 3600_000), 13, { id: 805, name: 'Athletic' }, { id: 806, name: 'Wanderers' }, { id: 509, name: 'Sim Cup' }, 59),
    soccer('aiw4', new Date(d2.getTime() + 12 * 3600_000), 14, { id: 807, name: 'Albion' }, { id: 808, name: 'County' }),
    simEvent({
      id: 'aiw5',
      sportId: 2,
      x: [4, 224],
      home: { id: 811, name: 'Hoopers' },
      away: { id: 812, name: 'Dunkers' },
      competition: { id: 502, name: 'Sim Basket' },
      startDateTime: new Date(d1.getTime() + 20 * 3600_000),
      markets: BASKETBALL,
      seed: 21,
    }),
    simEvent({
      id: 'aiw6',
      sportId: 3,
      x: [0.35],
      home: { id: 821, name: 'Server' },
      away: { id: 822, name: 'Volleyer' },
      competition: { id: 503, name: 'Sim Open' },
      regionId: 52,
      startDateTime: new Date(d1.getTime() + 13 * 3600_000),
      markets: TENNIS,
      seed: 31,
    }),
  ];

  before(async function () {
    await connectMongo();
    await insertSeedDocuments('events', events);
    worker = spawnEntry('workers/ai.ts', { AI_NICE: '1' });
    api = await startApi();
    for (const e of events) expect((await runJob(e._id, 1)).status).to.equal('analyzed');
  });

  after(async () => {
    await api?.close();
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('happy: the worker process can yield CPU to polls and reads: its nice value is AI_NICE', () => {
    expect(getPriority(worker.child.pid)).to.equal(1);
  });

  it('happy: every event gets an insight, and recommendations at the best bookmaker price with edge >= the minimum, written before kickoff', async () => {
    const insights = await findInsightsOfEvents(events.map((e) => e._id));
    expect(insights).to.have.length(events.length);
    const recs = await findRecommendationsOfEventsById(events.map((e) => e._id));
    expect(recs.length).to.be.greaterThan(3);
    for (const r of recs) {
      const event = events.find((e) => e._id === r.eventId)!;
      const item = event.markets.flatMap((m) => m.betItems).find((i) => i.id === r.betItemId)!;
      expect(item.bookPrices[r.bookmaker]).to.equal(r.odds);
      expect(r.odds).to.equal(Math.max(...Object.values(item.bookPrices)));
      expect(r.edgePercentage).to.be.at.least(2);
      expect(r.kellyFraction).to.be.greaterThan(0);
      expect(r.createdAt.getTime()).to.be.below(r.eventStartAt.getTime());
      expect(r.settled).to.equal(false);
    }
    // Sports other than soccer are analysed too (set and normal score models).
    expect(insights.find((i) => i._id === 'aiw5')!.analysisInsight).to.have.nested.property('market.parameters.expectedTotal');
    expect(insights.find((i) => i._id === 'aiw6')!.analysisInsight).to.have.nested.property('market.parameters.homeSetWinProbability');
  });

  it('happy: betting-recommendations pages newest first with {data, count}, filters and locale', async () => {
    const all = await api.get('/v2/ai/betting-recommendations?eventId=aiw1&limit=100');
    expect(all.status).to.equal(200);
    valid('bettingRecommendations', all.body);
    const inDb = await countRecommendationsMatching({ eventId: 'aiw1' });
    expect(all.body.count).to.equal(inDb);
    expect(all.body.data).to.have.length(inDb);
    const page2 = await api.get('/v2/ai/betting-recommendations?eventId=aiw1&limit=1&page=2');
    expect(page2.body.count).to.equal(inDb);
    expect(page2.body.data[0]?.id).to.equal(all.body.data[1]?.id);
    const unsettled = await api.get('/v2/ai/betting-recommendations?settled=false&limit=100');
    expect(unsettled.body.data.every((r: any) => r.settled === false)).to.equal(true);
    const high = await api.get('/v2/ai/betting-recommendations?confidence=High&limit=100');
    expect(high.body.data.every((r: any) => r.confidence === 'High')).to.equal(true);
    expect(high.body.count).to.equal(await countRecommendationsMatching({ confidence: 'High' }));
    const es = await api.get('/v2/ai/betting-recommendations?eventId=aiw1&limit=100&locale=es');
    const first = all.body.data[0];
    const firstEs = es.body.data.find((r: any) => r.id === first.id);
    expect(firstEs.rationale[0]).to.not.equal(first.rationale[0]);
    expect(firstEs.rationale[0]).to.match(/probabilidad/);
    const won = await api.get('/v2/ai/betting-recommendations?result=won');
    expect(won.status).to.equal(200);
    expect(won.body.data.every((r: any) => r.result === 'won')).to.equal(true);
  });

  it('happy: value-opportunities lists current opportunities by edge with a summary, and minEdge filters', async () => {
    const res = await api.get('/v2/ai/value-opportunities?limit=100');
    expect(res.status).to.equal(200);
    valid('valueOpportunities', res.body);
    const ours = res.body.opportunities.filter((o: any) => o.eventId.startsWith('aiw'));
    expect(ours.length).to.be.greaterThan(3);
    const edges = res.body.opportunities.map((o: any) => o.edgePercentage);
    expect(edges).to.deep.equal([...edges].sort((a: number, b: number) => b - a));
    expect(res.body.summary.totalOpportunities).to.equal(res.body.opportunities.length);
    expect(res.body.summary.highConfidence).to.equal(res.body.opportunities.filter((o: any) => o.confidence === 'High').length);
    const mean = edges.reduce((s: number, x: number) => s + x, 0) / edges.length;
    expect(res.body.summary.averageEdge).to.be.closeTo(mean, 0.01);
    expect(res.body.minEdge).to.equal(2);
    const strict = await api.get('/v2/ai/value-opportunities?minEdge=4.5&limit=100');
    expect(strict.body.opportunities.every((o: any) => o.edgePercentage >= 4.5)).to.equal(true);
    expect(strict.body.summary.totalOpportunities).to.equal(edges.filter((e: number) => e >= 4.5).length);
    const limited = await api.get('/v2/ai/value-opportunities?limit=2');
    expect(limited.body.opportunities).to.have.length(Math.min(2, edges.length));
    expect(limited.body.summary.totalOpportunities).to.equal(edges.length);
  });

  it('happy: processed-insights by event, by team name (any case, no accents), status, timezone and locale', async () => {
    const one = await api.get('/v2/ai/processed-insights?eventId=aiw1');
    expect(one.status).to.equal(200);
    valid('processedInsights', one.body);
    expect(one.body.data).to.have.length(1);
    const i = one.body.data[0];
    expect(i.marketEfficiencyScore).to.be.within(0, 100);
    expect(i.event.homeTeam).to.equal('Atlético Ñandú');
    expect(i.matchSimulation.iterations).to.equal(10000);
    const freq = i.matchSimulation.outcomeFrequencies;
    const fair = i.analysisInsight.mainMarket.fairProbabilities;
    // The simulation is drawn from the fair score grid, which reproduces the de-vigged prices.
    for (const [k, code] of [
      ['home', '1'],
      ['draw', 'X'],
      ['away', '2'],
    ] as const) {
      const p = fair[code];
      expect(freq[k], k).to.be.closeTo(p, 4 * Math.sqrt((p * (1 - p)) / 10000) + 0.01);
    }
    expect(i.valueOpportunities.recommendations.length).to.equal(await countRecommendationsMatching({ _id: { $in: (await findInsightById('aiw1'))!.recommendationIds } }));
    const byTeam = await api.get('/v2/ai/processed-insights?teamNames=ATLETICO%20NANDU,nobody');
    expect(byTeam.body.data.map((x: any) => x.eventId)).to.deep.equal(['aiw1']);
    const tokyo = await api.get('/v2/ai/processed-insights?eventId=aiw1&timezone=Asia/Tokyo');
    expect(tokyo.body.data[0].event.commenceTime).to.match(/\+09:00$/);
    expect(new Date(tokyo.body.data[0].event.commenceTime).getTime()).to.equal(events[0].startDateTime.getTime());
    const pt = await api.get('/v2/ai/processed-insights?eventId=aiw1&locale=pt');
    expect(pt.body.data[0].aiNotes).to.match(/Eficiência do mercado/);
    const many = await api.get('/v2/ai/processed-insights?limit=50');
    const starts = many.body.data.map((x: any) => new Date(x.event.commenceTime).getTime());
    expect(starts).to.deep.equal([...starts].sort((a: number, b: number) => a - b));
    expect(many.body.data.length).to.be.at.least(events.length);
    const completedOnly = await api.get('/v2/ai/processed-insights?status=completed&eventId=aiw1');
    expect(completedOnly.body.data).to.have.length(0);
    // The event went live and the worker has not run since: the event's status decides.
    await setEventFields('aiw4', { status: 'live' });
    try {
      const live = await api.get('/v2/ai/processed-insights?status=live&eventId=aiw4');
      expect(live.body.data.map((x: any) => [x.eventId, x.status])).to.deep.equal([['aiw4', 'live']]);
      expect((await api.get('/v2/ai/processed-insights?status=upcoming&eventId=aiw4')).body.data).to.have.length(0);
      // Without an event filter the events come from the listing, with their current status.
      await bumpCacheVersion('events');
      const liveList = await api.get('/v2/ai/processed-insights?status=live&limit=50');
      expect(liveList.body.data.map((x: any) => [x.eventId, x.status])).to.deep.include(['aiw4', 'live']);
      expect((await api.get('/v2/ai/processed-insights?status=upcoming&limit=50')).body.data.map((x: any) => x.eventId)).to.not.include('aiw4');
    } finally {
      await setEventFields('aiw4', { status: 'upcoming' });
      await bumpCacheVersion('events');
    }
    const defaults = await api.get('/v2/ai/processed-insights');
    expect(defaults.body.data.length).to.be.at.most(5);
  });

  it("happy: featured picks are singles and parlays of different events, by day in the client's time zone", async () => {
    const all = await api.get('/v2/ai/featured-picks?limit=50');
    expect(all.status).to.equal(200);
    valid('featuredPicks', all.body);
    const ours = all.body.data.filter((p: any) => p.recommendations.every((l: any) => l.eventId.startsWith('aiw')));
    expect(ours.length).to.be.greaterThan(2);
    for (const p of ours) {
      const product = p.recommendations.reduce((s: number, l: any) => s * l.odds, 1);
      expect(p.totalOdds).to.be.closeTo(product, 1e-6);
      expect(new Set(p.recommendations.map((l: any) => l.eventId)).size).to.equal(p.recommendations.length);
      expect(p.pickType).to.equal(p.recommendations.length === 1 ? 'single' : 'parlay');
    }
    const days = new Map<string, number[]>();
    for (const p of ours) days.set(p.featuredDate, [...(days.get(p.featuredDate) ?? []), p.featuredOrder]);
    for (const orders of days.values()) expect(new Set(orders).size).to.equal(orders.length);
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      const today = DateTime.now().setZone(zone).startOf('day');
      const range = [today.plus({ days: 1 }).toMillis(), today.plus({ days: 2 }).toMillis()];
      const res = await api.get(`/v2/ai/featured-picks?tomorrow=true&limit=50&timezone=${zone}`);
      const want = all.body.data
        .filter((p: any) => Date.parse(p.startsAt) >= range[0] && Date.parse(p.startsAt) < range[1])
        .map((p: any) => p.id)
        .sort();
      expect(res.body.data.map((p: any) => p.id).sort(), zone).to.deep.equal(want);
    }
    const cup = await api.get('/v2/ai/featured-picks?competitionId=509&limit=50');
    expect(cup.body.data.length).to.be.greaterThan(0);
    expect(cup.body.data.every((p: any) => p.recommendations.some((l: any) => l.eventId === 'aiw3'))).to.equal(true);
    const region = await api.get('/v2/ai/featured-picks?regionId=52&limit=50');
    expect(region.body.data.every((p: any) => p.recommendations.some((l: any) => l.eventId === 'aiw6'))).to.equal(true);
    expect((await api.get('/v2/ai/featured-picks')).body.data.length).to.be.at.most(5);
  });

  it("happy: a pick's legs read like their recommendations in every locale (outcome wording, ids, odds, line)", async () => {
    for (const locale of ['en', 'es', 'pt']) {
      const picks = (await api.get(`/v2/ai/featured-picks?limit=50&locale=${locale}`)).body.data.filter((p: any) => p.recommendations.every((l: any) => l.eventId.startsWith('aiw')));
      expect(picks.length, locale).to.be.greaterThan(0);
      const recs = new Map<string, any>();
      for (const e of events) for (const r of (await api.get(`/v2/ai/betting-recommendations?eventId=${e._id}&limit=100&locale=${locale}`)).body.data) recs.set(r.id, r);
      for (const leg of picks.flatMap((p: any) => p.recommendations)) {
        const rec = recs.get(leg.recommendationId);
        expect(rec, leg.recommendationId).to.not.equal(undefined);
        expect({ eventId: leg.eventId, betItemId: leg.betItemId, market: leg.market, outcome: leg.outcome, odds: leg.odds, point: leg.point }, locale).to.deep.equal({
          eventId: rec.eventId,
          betItemId: rec.betItemId,
          market: rec.betTypeSysname,
          outcome: rec.outcome,
          odds: rec.odds,
          point: rec.line,
        });
      }
    }
  });

  it('idempotent: the same inputs analysed again write nothing; a new price adds a recommendation and leaves the others untouched', async () => {
    const snapshot = async () => ({
      insight: await findInsightById('aiw2'),
      recs: await findRecommendationsOfEvent('aiw2'),
      picks: await findPicksOfEvent('aiw2'),
    });
    const before = await snapshot();
    expect((await runJob('aiw2', 2)).status).to.equal('unchanged');
    expect(await snapshot()).to.deep.equal(before);

    // A bookmaker now beats every price on the away side of the 1X2: a new recommendation.
    const event = events[1];
    const away = event.markets[0].betItems[2];
    const fair = (await findInsightById('aiw2'))!.analysisInsight;
    const generous = Math.round(Math.max(1.06 / fair.mainMarket.fairProbabilities['2'], ...Object.values<number>(away.bookPrices)) * 100 + 20) / 100;
    // (FerretDB 1.x has no positional $: the 1X2 market is the first one.)
    await setEventFields('aiw2', { 'markets.0.betItems.2.bookPrices.bigbook': generous });
    const out = await runJob('aiw2', 3);
    expect(out.status).to.equal('analyzed');
    expect(out.inserted).to.be.at.least(1);
    const after = await snapshot();
    const added = after.recs.filter((r) => !before.recs.some((b) => b._id === r._id));
    expect(added.map((r) => [r.betItemId, r.bookmaker, r.odds])).to.deep.include([away.id, 'bigbook', generous]);
    for (const old of before.recs) expect(after.recs.find((r) => r._id === old._id)).to.deep.equal(old);
  });

  it('security: a recommendation is never written or changed after kickoff', async () => {
    // Far enough ahead for the first analysis on a slow machine, near enough to wait for.
    const kickoff = new Date(Date.now() + 5000);
    const e = soccer('aiwk', kickoff, 17, { id: 831, name: 'Early' }, { id: 832, name: 'Birds' });
    // Make sure there is something to recommend: one book is generous on the home side.
    const item = e.markets[0].betItems[0];
    item.bookPrices.localodds = Math.round(item.bookPrices.sharpbook * 1.12 * 100) / 100;
    await insertSeedDocuments('events', [e]);
    expect((await runJob('aiwk', 1)).status).to.equal('analyzed');
    const before = await findRecommendationsOfEvent('aiwk');
    expect(before.length).to.be.greaterThan(0);
    for (const r of before) expect(r.createdAt.getTime()).to.be.below(kickoff.getTime());
    await new Promise((r) => setTimeout(r, Math.max(0, kickoff.getTime() - Date.now() + 200)));
    // After kickoff a far better price appears (the feed is still "upcoming"): nothing is written.
    await setEventFields('aiwk', { 'markets.0.betItems.2.bookPrices.bigbook': 50 });
    expect((await runJob('aiwk', 2)).status).to.equal('started');
    await setEventFields('aiwk', { status: 'live' });
    expect((await runJob('aiwk', 3)).status).to.equal('started');
    expect(await findRecommendationsOfEvent('aiwk')).to.deep.equal(before);
    expect((await findInsightById('aiwk'))!.status).to.equal('live');

    // An event first seen after its start gets no recommendation at all.
    const late = soccer('aiwl', new Date(Date.now() - 60_000), 18, { id: 833, name: 'Late' }, { id: 834, name: 'Comers' });
    await insertSeedDocuments('events', [late]);
    expect((await runJob('aiwl', 1)).status).to.equal('started');
    expect(await countRecommendationsMatching({ eventId: 'aiwl' })).to.equal(0);
  });

  it('happy: an event cancelled before its start leaves the featured picks and the value opportunities', async () => {
    expect((await findPicksOfEvent('aiw3')).length).to.be.greaterThan(0);
    await setEventFields('aiw3', { status: 'cancelled' });
    expect((await runJob('aiw3', 2)).status).to.equal('started');
    expect((await findPicksOfEvent('aiw3')).length).to.equal(0);
    const opportunities = await api.get('/v2/ai/value-opportunities?limit=100');
    expect(opportunities.body.opportunities.some((o: any) => o.eventId === 'aiw3')).to.equal(false);
    // Its recommendations stay as written (settlement voids them), and still list by filter.
    expect((await api.get('/v2/ai/betting-recommendations?eventId=aiw3')).body.count).to.equal(await countRecommendationsMatching({ eventId: 'aiw3' }));
  });

  it('happy: refit fits team ratings from completed games and ranks the bookmakers; the next analysis uses them', async () => {
    const rng = mulberry32(99);
    const teams = [841, 842, 843, 844, 845, 846];
    const completed: ReturnType<typeof soccer>[] = [];
    let k = 0;
    for (let round = 0; round < 2; round++)
      for (const h of teams)
        for (const a of teams) {
          if (h === a) continue;
          const start = new Date(Date.now() - (200 - 2 * k) * DAY);
          const e = soccer(`aiwc${k++}`, start, 40 + k, { id: h, name: `Team ${h}` }, { id: a, name: `Team ${a}` }, { id: 520, name: 'Sim Two' });
          completed.push({
            ...e,
            status: 'completed',
            startedAt: start,
            stats: {
              homeGoals: samplePoisson(rng, 1.5),
              awayGoals: samplePoisson(rng, 1.1),
              homeCorners: samplePoisson(rng, 5),
              awayCorners: samplePoisson(rng, 4),
              homeYellowCards: samplePoisson(rng, 2),
              awayYellowCards: samplePoisson(rng, 2),
            },
          } as unknown as ReturnType<typeof soccer>);
        }
    await insertSeedDocuments('events', completed);
    const jobId = await enqueue(aiQueue, 'refit', { sportId: 1, window: `t${Date.now()}` });
    const queue = queueFor(aiQueue);
    await waitUntil('refit', async () => ['completed', 'failed'].includes(await queue.getJobState(jobId)), 30000, 50);
    expect((await queue.getJob(jobId))!.failedReason).to.equal(undefined);
    const fit = (await findModelFitOfSport(1))!;
    expect(fit.family).to.equal('goals');
    expect(fit.gamesUsed).to.be.at.least(completed.length);
    expect(fit.bookRanking[0]).to.equal('sharpbook');
    expect(fit.blendWeight).to.equal(0); // no completed event has a pre-kickoff analysis yet

    const next = soccer('aiwn', new Date(Date.now() + 3 * DAY), 77, { id: 841, name: 'Team 841' }, { id: 842, name: 'Team 842' }, { id: 520, name: 'Sim Two' });
    await insertSeedDocuments('events', [next]);
    expect((await runJob('aiwn', 1)).status).to.equal('analyzed');
    const insight = (await findInsightById('aiwn'))!.analysisInsight;
    expect(insight.model.knownTeams).to.equal(true);
    expect(insight.model.gamesUsed).to.equal(fit.gamesUsed);
    expect(insight.blendWeight).to.equal(0);
    expect(insight.mainMarket.modelProbabilities).to.not.equal(null);
    expect(insight.teams.home.rated).to.equal(true);
  });

  it('happy: the /v2/ai lists are cached pages, rendered afresh once the worker wrote an analysis (the ai scope)', async () => {
    // Every analysis the worker wrote in the before hook moved the version.
    const written = Number(await redis().get(cacheVersionKey('ai')));
    expect(written).to.be.at.least(events.length);
    for (const path of ['/v2/ai/value-opportunities?limit=3', '/v2/ai/processed-insights?limit=3', '/v2/ai/betting-recommendations?limit=3', '/v2/ai/featured-picks']) {
      expect((await api.get(path)).headers.get('x-cache'), path).to.equal('MISS');
      expect((await api.get(path)).headers.get('x-cache'), path).to.equal('HIT');
    }
    // A re-analysis through the worker (new inputs: the event's prices moved) invalidates them.
    const e = events[0];
    await setEventFields(e._id, {
      markets: e.markets.map((m) => ({
        ...m,
        betItems: m.betItems.map((i) => ({ ...i, price: i.price + 0.05, bookPrices: Object.fromEntries(Object.entries(i.bookPrices).map(([b, p]) => [b, p + 0.05])) })),
      })),
    });
    const before = (await api.get('/v2/ai/value-opportunities?limit=100')).body;
    expect((await runJob(e._id, 7)).status).to.equal('analyzed');
    expect(Number(await redis().get(cacheVersionKey('ai')))).to.be.greaterThan(written);
    expect((await api.get('/v2/ai/value-opportunities?limit=3')).headers.get('x-cache')).to.equal('MISS');
    // And what it serves is the new analysis: the event's opportunities are its new recommendations.
    const after = (await api.get('/v2/ai/value-opportunities?limit=100')).body;
    const ofEvent = (b: { opportunities: { id: string; eventId: string }[] }) => b.opportunities.filter((o) => o.eventId === e._id).map((o) => o.id);
    expect(ofEvent(after)).to.not.deep.equal(ofEvent(before));
  });
});
