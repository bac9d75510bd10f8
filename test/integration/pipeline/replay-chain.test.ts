import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import { addCredits, createAccount, createKey } from '../../../shared/app/billing/accounts';
import { countRecommendationsMatching } from '../../../shared/platform/db/repositories/ai';
import { countEventsMatching } from '../../../shared/platform/db/repositories/events';
import { findAllSettledRecommendations, findEventStartsAndStatusesByIds } from '../../../shared/platform/db/repositories/fixtures';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { cli } from '../../helpers/cli';
import { dataFolder, hasSeason, seasonLines } from '../../helpers/footballData';
import { waitUntil } from '../../helpers/processes';
import { freePort, Stack } from '../../helpers/stack';

const SEASON = 'E0_2223';
/** The first two matchdays of the Premier League 2022/23 (5 to 7 and 13 to 15 August 2022). */
const ROWS = 20;

/**
 * Real matches through the real workers: the five processes with the replay provider on an
 * excerpt of a real season at 3000x (the clock skips the empty days between the matchdays). Every
 * recommendation is written and committed before its kickoff, settles with the closing line, and
 * the chain passes `verify-record`.
 */
describe('pipeline: two real matchdays replayed through every process (FerretDB, Redis)', function () {
  this.timeout(15 * 60_000);
  let stack: Stack;
  let key: string;

  before(async function () {
    if (!hasSeason(SEASON)) return this.skip();
    await connectMongo();
    const account = await createAccount(processContext(), { name: 'replay chain' });
    await addCredits(processContext(), { accountId: String(account.id), packageCredits: 20000 });
    key = (await createKey(processContext(), { accountId: String(account.id), name: 'replay chain' })).key;
    const folder = dataFolder({ [`${SEASON}.csv`]: seasonLines(SEASON, ROWS).join('\n') });
    stack = new Stack(await freePort(), {
      PROVIDERS: 'replay',
      REPLAY_DATA: folder,
      REPLAY_SEASONS: SEASON,
      SIM_SPEED: '3000',
      POLL_INTERVAL_MS: '1000',
      SETTLEMENT_DELAY_MS: '2000',
      SETTLEMENT_SWEEP_MS: '5000',
    });
    stack.start();
  });
  after(async () => {
    await stack?.kill();
  });
  afterEach(function () {
    if (this.currentTest?.state !== 'failed' || !stack) return;
    console.log(
      stack
        .output()
        .split('\n')
        .filter((l) => /"level":[4-6]0|skipped a stretch/.test(l))
        .slice(-25)
        .join('\n'),
    );
  });

  it('happy: every match ends with its real score and every recommendation settles, with the closing line', async () => {
    const started = Date.now();
    await waitUntil(
      'every match ended and every recommendation settled',
      async () => (await countEventsMatching({ dataSource: 'replay', status: 'completed' })) === ROWS && (await countRecommendationsMatching({ settled: false })) === 0,
      10 * 60_000,
      2000,
    );
    console.log(`      ${ROWS} matches replayed and settled ${Math.round((Date.now() - started) / 1000)} s after start`);
    expect(stack.output()).to.include('simulated clock skipped a stretch with nothing to poll');

    const settled = await findAllSettledRecommendations();
    expect(settled.length).to.be.greaterThan(0);
    const events = new Map((await findEventStartsAndStatusesByIds(settled.map((r) => r.eventId))).map((e) => [String(e._id), e]));
    for (const r of settled) {
      const e = events.get(r.eventId)!;
      expect(r.createdAt.getTime(), `recommendation ${String(r._id)} written before kickoff`).to.be.lessThan(e.startDateTime.getTime());
      expect(['won', 'lost', 'push', 'half-won', 'half-lost']).to.include(r.result);
    }
    // The files carry every book's closing prices: each bet has its closing odds and CLV.
    const withClose = settled.filter((r) => typeof r.closingOdds === 'number' && typeof r.clv === 'number');
    expect(withClose.length, 'settled bets with a closing line').to.equal(settled.length);
  });

  it('happy: /v2/ai/track-record counts them with CLV, and verify-record recomputes the chain and proofs', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const record = await stack.get('/v2/ai/track-record?days=3650', auth);
    expect(record.status).to.equal(200);
    expect(record.body.bets).to.equal((await findAllSettledRecommendations()).length);
    expect(record.body.clv.bets).to.equal(record.body.bets);
    expect(record.body.clv.mean).to.be.a('number');
    expect(record.body.head.length).to.be.greaterThan(record.body.bets);
    const verified = await cli('verify-record', '--url', stack.url, '--key', key, '--proofs', '5', '--json');
    expect(verified.code, verified.err).to.equal(0);
    expect(verified.json).to.include({ ok: true, firstBad: null });
    expect(verified.json.links).to.equal(record.body.head.length);
  });
});
