import { expect } from 'chai';
import { queueFor } from '../../../shared/platform/queues/client';
import { aiQueue } from '../../../jobs/ai';
import { settlementQueue } from '../../../jobs/settlement';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { findLiveEventDataOfEvent } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { findViewsOfEvents, raiseEventViewsTo } from '../../../shared/platform/db/repositories/eventViews';
import { findLiveOddsSnapshots, findOddsHistoryRows } from '../../../shared/platform/db/repositories/fixtures';
import { countTeamsMatching, findCompetitionsByIds, findRegionNamesByIds } from '../../../shared/platform/db/repositories/reference';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { result as simResult } from '../../../shared/platform/providers/simulated/feed';
import { fixturesOfDay, type SimFixture } from '../../../shared/platform/providers/simulated/schedule';
import { COMPETITIONS } from '../../../shared/platform/providers/simulated/world';
import { SPORTS } from '../../../shared/domain/sports';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const SEED = 4242;
const DAY = 86_400_000;
const MIN = 60_000;
const SETTLE_DELAY = 4321;

/** A fixture of the sport that ends normally with full data, from the generated world. */
function pickFixture(sportId: number): SimFixture {
  const first = Math.floor(Date.parse('2026-11-21T00:00:00Z') / DAY);
  for (let d = first; d < first + 30; d++) {
    for (const c of COMPETITIONS.filter((x) => x.sportId === sportId)) {
      const f = fixturesOfDay(SEED, c, d).find((x) => x.end === 'completed' && !Object.values(x.missing).some(Boolean) && x.correctionAfterMs === null);
      if (f) return f;
    }
  }
  throw new Error(`no fixture for sport ${sportId}`);
}

describe('ingest: full simulated lifecycle of each sport (simulated clock driven by the test)', function () {
  this.timeout(120_000);
  before(connectMongo);
  beforeEach(clearIngested);
  after(clearIngested);

  for (const sport of SPORTS) {
    it(`happy: ${sport.sysname} goes upcoming -> live -> completed with markets, live stats, snapshots, history and settlement`, async () => {
      const f = pickFixture(sport.id);
      const provider = new SimulatedProvider({ seed: SEED, eventIds: new Set([f.eventId]) });
      const handle: ProviderHandle = createHandle('simulated', provider);
      const poll = (t: number) => pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(t), settlementDelayMs: () => SETTLE_DELAY });
      try {
        // Upcoming: two hours before kickoff.
        const up = await poll(f.start - 120 * MIN);
        expect(up.status).to.equal('ok');
        let doc = (await findEventById(f.eventId))!;
        expect(doc.status).to.equal('upcoming');
        expect(doc.sportId).to.equal(sport.id);
        expect(doc.markets.length).to.equal(f.markets.length);
        expect(doc.markets.flatMap((m) => m.betItems).every((i) => i.price >= 1.01)).to.equal(true);
        expect(doc.stats).to.equal(null);
        expect(doc.liveStats).to.equal(null);
        const storedViews = async () => (await findViewsOfEvents([f.eventId])).get(f.eventId) ?? 0;
        expect(await storedViews()).to.equal(0);
        expect(await findCompetitionsByIds([f.competition.id])).to.have.length(1);
        expect(await findRegionNamesByIds([doc.regionId])).to.have.length(1);
        expect(await countTeamsMatching({ _id: { $in: [doc.homeTeam.id, doc.awayTeam.id] } })).to.equal(2);
        expect((await findOddsHistoryRows({ eventId: f.eventId })).length).to.equal(doc.markets.flatMap((m) => m.betItems).length);
        expect(await queueFor(aiQueue).getJob(`analyze-${f.eventId}-0`)).to.not.equal(undefined);

        // Readers count views meanwhile; ingestion must never overwrite them.
        await raiseEventViewsTo(f.eventId, 7);

        // Live: three moments of the match.
        for (const frac of [0.1, 0.5, 0.9]) {
          const t = f.start + Math.floor(f.script.end * frac) * 1000;
          const r = await poll(t);
          expect(r.status).to.equal('ok');
          doc = (await findEventById(f.eventId))!;
          expect(doc.status, `at ${frac}`).to.equal('live');
          expect(doc.startedAt!.getTime()).to.equal(f.start);
          const expected = (
            await provider.fetchLiveStats({ at: new Date(t), signal: new AbortController().signal }, await provider.listEvents({ at: new Date(t), signal: new AbortController().signal }))
          )[0];
          const ls = doc.liveStats;
          expect(ls).to.include({
            id: f.eventId,
            homeGoals: expected.stats.homeGoals,
            awayGoals: expected.stats.awayGoals,
            phaseSysname: expected.phaseSysname,
            elapsedSeconds: expected.elapsedSeconds,
            isLive: true,
          });
          expect(ls?.referenceTime).to.equal(new Date(t).toISOString());
          expect(ls?.liveBetItems).to.have.length(doc.markets.flatMap((m) => m.betItems).length);
          expect(ls?.liveBetItems[0]).to.have.all.keys('betItemId', 'marketId', 'marketSysname', 'marketCaption', 'code', 'caption', 'line', 'price', 'priceChange', 'isAvailable', 'timestamp');
          const led = (await findLiveEventDataOfEvent(f.eventId))!;
          expect(led).to.include({ isLive: true, homeGoals: expected.stats.homeGoals, phaseSysname: expected.phaseSysname });
          const snaps = await findLiveOddsSnapshots({ eventId: f.eventId });
          const sources = snaps.map((s) => s.dataSource).sort();
          expect(sources).to.include('simulated');
          expect(sources.filter((s) => s.startsWith('simbook-')).length).to.be.at.least(2);
          for (const s of snaps) {
            expect(s.capturedAt.getTime()).to.equal(t);
            expect(s.stale).to.equal(false);
          }
        }

        // Completed: a minute after the final whistle.
        const tEnd = f.start + f.script.end * 1000 + MIN;
        const done = await poll(tEnd);
        expect(done.status).to.equal('ok');
        doc = (await findEventById(f.eventId))!;
        const final = simResult(f, tEnd)!;
        expect(doc.status).to.equal('completed');
        expect(doc.liveStats).to.equal(null);
        expect(await storedViews()).to.equal(7);
        const { phase, ...counts } = doc.stats as any;
        expect(counts).to.deep.equal(final.stats);
        expect(phase).to.equal(final.phaseSysname);
        expect(doc.markets.flatMap((m) => m.betItems).every((i) => !i.isAvailable)).to.equal(true);
        expect((await findLiveEventDataOfEvent(f.eventId))!).to.include({ isLive: false, homeGoals: final.stats.homeGoals, phaseSysname: final.phaseSysname });
        const settle = await queueFor(settlementQueue).getJob(`settle-${f.eventId}-v0`);
        expect(settle, 'settlement job').to.not.equal(undefined);
        expect(settle!.opts.delay).to.equal(SETTLE_DELAY);
        expect(settle!.data).to.deep.equal({ eventId: f.eventId, resultVersion: 0 });
        // History only grew when prices changed: never two consecutive equal prices per item.
        const rows = await findOddsHistoryRows({ eventId: f.eventId });
        for (let i = 1; i < rows.length; i++) {
          if (rows[i].betItemId === rows[i - 1].betItemId) expect(rows[i].price).to.not.equal(rows[i - 1].price);
        }
      } finally {
        handle.breaker.shutdown();
      }
    });
  }
});
