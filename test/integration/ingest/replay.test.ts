import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { findRecommendationsByIds } from '../../../shared/platform/db/repositories/ai';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { deleteRecommendationsWithIdPrefix, deleteRollupsOfDay, insertSeedDocuments } from '../../../shared/platform/db/repositories/fixtures';
import { connectMongo } from '../../../shared/platform/db/mongo';
import type { ClosingLine } from '../../../shared/domain/ingest/closing';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { ReplayProvider, APPEAR_MS } from '../../../shared/platform/providers/replay';
import { loadReplaySeasons, type ReplayMatch } from '../../../shared/platform/providers/replay/season';
import { processContext } from '../../../shared/app/processContext';
import { settleEvent } from '../../../shared/app/settlement/settleEvent';
import { dataFolder, hasSeason, rowOf, seasonLines } from '../../helpers/footballData';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const SEASON = 'E0_2223';
const HOUR = 3_600_000;
const num = (s: string) => Number(s);
const BOOK_COLUMNS: Record<string, string> = { bet365: 'B365C', bwin: 'BWC', interwetten: 'IWC', pinnacle: 'PSC', williamhill: 'WHC', vcbet: 'VCC' };

describe('ingest: a real season replayed through the ingest path (closing line, final counts, CLV at settlement)', function () {
  this.timeout(120_000);
  let handle: ProviderHandle;
  let lines: string[];
  let m: ReplayMatch;
  const poll = (t: number) => pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(t), settlementDelayMs: () => 150_000 });

  before(async function () {
    if (!hasSeason(SEASON)) this.skip();
    await connectMongo();
    lines = seasonLines(SEASON, 3);
    const matches = loadReplaySeasons(dataFolder({ [`${SEASON}.csv`]: lines.join('\n') }), [SEASON], { warn: () => undefined });
    m = matches[0];
    handle = createHandle('replay', new ReplayProvider({ matches, clock: (t) => t }));
  });
  beforeEach(async () => {
    await clearIngested();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
  });
  after(async () => {
    handle?.breaker.shutdown();
    await clearIngested();
    await deleteRecommendationsWithIdPrefix('replay-test-');
    if (m) await deleteRollupsOfDay(new Date(m.kickoff).toISOString().slice(0, 10));
  });

  it('happy: opening prices, the closing line per book at kickoff, the real final counts, and a settled recommendation with closingOdds and clv', async () => {
    const r = rowOf(lines[0], lines[m.row - 1]);
    expect((await poll(m.kickoff - APPEAR_MS + 60_000)).status).to.equal('ok');
    let e = (await findEventById(m.eventId))!;
    expect([e.status, e.homeTeam.name.en, e.awayTeam.name.en, e.competition.name.en]).to.deep.equal(['upcoming', r.HomeTeam, r.AwayTeam, 'Premier League']);
    const mr = () => e.markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
    expect(mr().betItems[0].bookPrices).to.include({ bet365: num(r.B365H), pinnacle: num(r.PSH) });

    await poll(m.kickoff - 2 * HOUR);
    // A recommendation written before kickoff on the home win, at Bet365's closing price.
    const item = (await findEventById(m.eventId))!.markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!.betItems[0];
    await insertSeedDocuments('recommendations', [
      {
        _id: 'replay-test-1',
        eventId: m.eventId,
        marketId: `${m.eventId}-SOCCER_MATCH_RESULT`,
        betItemId: item.id,
        betTypeSysname: 'SOCCER_MATCH_RESULT',
        code: '1',
        sportId: 1,
        outcome: r.HomeTeam,
        bookmaker: 'bet365',
        odds: num(r.B365CH),
        probability: 0.25,
        fairOdds: 4,
        confidence: 'Low',
        edgePercentage: 2,
        kellyFraction: 0.01,
        eventStartAt: new Date(m.kickoff),
      },
    ]);

    await poll(m.kickoff + 30 * 60_000);
    e = (await findEventById(m.eventId))!;
    expect(e.status).to.equal('live');
    const closing = e.closingLine as unknown as ClosingLine;
    expect(new Date(closing.capturedAt).getTime()).to.equal(m.kickoff);
    const closingMr = closing.markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
    for (const [book, prefix] of Object.entries(BOOK_COLUMNS)) {
      expect(
        closingMr.betItems.map((it) => it.bookPrices[book]),
        book,
      ).to.deep.equal([num(r[`${prefix}H`]), num(r[`${prefix}D`]), num(r[`${prefix}A`])]);
    }
    const closingOu = closing.markets.find((x) => x.betTypeSysname === 'SOCCER_UNDER_OVER')!;
    expect(closingOu.betItems.map((it) => it.bookPrices.pinnacle)).to.deep.equal([num(r['PC>2.5']), num(r['PC<2.5'])]);
    expect(closing.markets.find((x) => x.betTypeSysname === 'SOCCER_ASIAN_HANDICAP')!.line).to.equal(num(r.AHCh));

    await poll(m.kickoff + 2 * HOUR);
    e = (await findEventById(m.eventId))!;
    expect(e.status).to.equal('completed');
    expect(e.stats).to.include({
      homeGoals: num(r.FTHG),
      awayGoals: num(r.FTAG),
      homeGoalsFirstHalf: num(r.HTHG),
      awayGoalsFirstHalf: num(r.HTAG),
      homeCorners: num(r.HC),
      awayCorners: num(r.AC),
      homeYellowCards: num(r.HY),
      awayYellowCards: num(r.AY),
      homeRedCards: num(r.HR),
      awayRedCards: num(r.AR),
    });

    await settleEvent(processContext(), m.eventId);
    const rec = (await findRecommendationsByIds(['replay-test-1']))[0];
    const q = [r.PSCH, r.PSCD, r.PSCA].map((x) => 1 / num(x));
    const fairHome = q[0] / (q[0] + q[1] + q[2]);
    expect(rec.settled).to.equal(true);
    expect(rec.result).to.equal(num(r.FTHG) > num(r.FTAG) ? 'won' : 'lost');
    expect(rec.closingOdds).to.equal(num(r.PSCH));
    expect(rec.clv).to.be.closeTo(num(r.B365CH) * fairHome - 1, 1e-6);
  });

  it("error: a match stored live that the provider no longer lists (the poll that would have seen it end came too late) still ends with the file's result and is settled", async () => {
    const r = rowOf(lines[0], lines[m.row - 1]);
    await poll(m.kickoff - 2 * HOUR);
    await poll(m.kickoff + 30 * 60_000);
    expect((await findEventById(m.eventId))!.status).to.equal('live');
    // Two days later the replay lists it no more (6 h after its end): only asking the provider about it ends it.
    const later = m.kickoff + 48 * HOUR;
    expect((await handle.provider.listEvents({ at: new Date(later), signal: new AbortController().signal })).map((e) => e.eventId)).to.not.include(m.eventId);
    expect((await poll(later)).status).to.equal('ok');
    const e = (await findEventById(m.eventId))!;
    expect(e.status).to.equal('completed');
    expect(e.stats).to.include({ homeGoals: num(r.FTHG), awayGoals: num(r.FTAG), homeCorners: num(r.HC), awayCorners: num(r.AC) });
    const settle = await queueFor(settlementQueue).getJobs(['delayed', 'waiting']);
    expect(settle.map((j) => (j.data as { eventId: string }).eventId)).to.include(m.eventId);
    // Asked once: the next poll finds nothing stored live to ask about, and writes nothing more for it.
    expect((await poll(later + HOUR)).status).to.equal('ok');
    expect((await findEventById(m.eventId))!.status).to.equal('completed');
  });
});
