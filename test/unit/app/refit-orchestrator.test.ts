import { expect } from 'chai';
import { refitJob } from '../../../shared/app/ai/refit';
import { DAY_MS } from '../../../shared/domain/days';
import { fakeContext, type FakeContext } from './fakeContext';

/** A sport's refit on an in-memory context: what it fits from, what it writes, and that an older window never replaces a newer one. */

const NOW = new Date('2026-11-21T12:00:00Z');
const TEAMS = [1, 2, 3, 4, 5, 6];

/** Four rounds of soccer between six teams, the stronger (lower id) side scoring more, before NOW. */
function season(ctx: FakeContext): void {
  let i = 0;
  for (let round = 0; round < 4; round++)
    for (const home of TEAMS)
      for (const away of TEAMS) {
        if (home === away) continue;
        const startDateTime = new Date(NOW.getTime() - ((200 - i) * DAY_MS) / 2);
        const homeGoals = ((i * 7) % 3) + (away > home ? 1 : 0);
        const awayGoals = (i * 5) % 2;
        ctx.refit.games.push({
          _id: `g${i}`,
          sportId: 1,
          homeTeam: { id: home },
          awayTeam: { id: away },
          startDateTime,
          stats: { homeGoals, awayGoals, homeCorners: 5, awayCorners: 4, homeYellowCards: 2, awayYellowCards: 1, homeRedCards: 0, awayRedCards: null },
        });
        i++;
      }
}

describe('refit orchestrator (in-memory context)', () => {
  it("happy: fits the sport's ratings from its completed games on the world's clock, ranks the books, and writes the window's fit", async () => {
    const ctx = fakeContext(NOW);
    season(ctx);
    const book = (price: number) => ({
      id: 'm1',
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      line: null,
      betItems: ['1', 'X', '2'].map((code) => ({ id: `i-${code}`, code, price, isAvailable: true, bookPrices: { sharp: price + 0.1, soft: price - 0.2 } })),
    });
    for (let i = 0; i < 30; i++) ctx.refit.quotes.push({ sportId: 1, dataSource: 'sim', startDateTime: new Date(NOW.getTime() - i * 3600_000), markets: [book(2.8)], closingLine: null });
    const out = await refitJob(ctx, 1, '2026112112');
    expect(out).to.include({ sportId: 1, window: '2026112112', written: true });
    expect(out.gamesUsed).to.equal(ctx.refit.games.length);
    const fit = ctx.refit.fits.get(1);
    expect(fit).to.include({ sportId: 1, window: '2026112112', fittedAt: NOW, gamesUsed: out.gamesUsed });
    expect(fit?.params).to.not.equal(null);
    expect(fit?.bookRanking).to.deep.equal(out.bookRanking);
    expect(out.bookRanking[0]).to.equal('sharp');
  });

  it('happy: only the stored pre-kickoff views of completed events weigh the blend; an analysis after kickoff, or one without both views, does not', async () => {
    const ctx = fakeContext(NOW);
    season(ctx);
    const [a, b, c] = ctx.refit.games;
    const views = { blendInputs: { market: [0.5, 0.3, 0.2], model: [0.6, 0.25, 0.15] } };
    ctx.refit.insights.push(
      { _id: a._id, analysisInsight: views, analysisTimestamp: new Date(a.startDateTime.getTime() - 3600_000), startDateTime: a.startDateTime },
      { _id: b._id, analysisInsight: views, analysisTimestamp: new Date(b.startDateTime.getTime() + 60_000), startDateTime: b.startDateTime },
      { _id: c._id, analysisInsight: { blendInputs: { market: [0.5] } }, analysisTimestamp: new Date(c.startDateTime.getTime() - 60_000), startDateTime: c.startDateTime },
    );
    expect((await refitJob(ctx, 1, '2026112112')).blendEvents).to.equal(1);
  });

  it('error: a fit of an older window is not written over a newer one; a sport without games writes an empty fit', async () => {
    const ctx = fakeContext(NOW);
    season(ctx);
    await refitJob(ctx, 1, '2026112112');
    expect((await refitJob(ctx, 1, '2026112111')).written).to.equal(false);
    expect(ctx.refit.fits.get(1)?.window).to.equal('2026112112');
    const empty = await refitJob(ctx, 2, '2026112112');
    expect(empty).to.include({ gamesUsed: 0, blendWeight: 0, written: true });
    expect(ctx.refit.fits.get(2)?.params).to.equal(null);
  });
});
