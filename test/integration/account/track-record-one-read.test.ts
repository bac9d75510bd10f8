import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { accountTrackRecordResponse, trackRecordResponses } from '../../../api/schemas/trackRecord';
import { processContext } from '../../../shared/app/processContext';
import { settleEvent } from '../../../shared/app/settlement/settleEvent';
import { startApi, type TestServer } from '../../helpers/api';
import { createEvent, createRecommendations } from '../../helpers/settlementFixtures';
import { Browser } from './client';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validAccount = ajv.compile(accountTrackRecordResponse);
const validPublic = ajv.compile(trackRecordResponses.trackRecord);

interface Answer {
  bets: number;
  clv: { bets: number };
  period: { days: number | 'all'; from: string | null; to: string };
  charts: { cumulative: string; clv: string; calibration: string };
}

/** What a chart says it draws: the bets of its header ("N bets, ...") and of its subtitle ("..., N settled bets"). */
function drawn(svg: string): { header: number; subtitle: number; window: string } {
  const header = /<text [^>]*text-anchor="end">(\d+) bets, /.exec(svg);
  const desc = /<desc>(.*)<\/desc>/.exec(svg);
  const subtitle = desc ? /(\d+) settled bets$/.exec(desc[1]) : null;
  return { header: header ? Number(header[1]) : 0, subtitle: subtitle ? Number(subtitle[1]) : -1, window: desc?.[1].split(',')[0] ?? '' };
}

/** A settled event of its own with `n` recommendations on it (won and lost). */
let made = 0;
async function settledBets(n: number): Promise<void> {
  const start = new Date(Date.now() - 4 * 3600_000);
  const eventId = await createEvent({ start });
  const codes = ['1', 'X', '2'];
  await createRecommendations(
    eventId,
    Array.from({ length: n }, (_, i) => ({ key: `one-read-${made++}`, betTypeSysname: 'SOCCER_MATCH_RESULT', code: codes[i % 3], odds: 2 + i / 10, createdAt: new Date(start.getTime() - 3600_000) })),
  );
  await settleEvent(processContext(), eventId);
}

/**
 * The dashboard's track record (GET /v2/account/track-record) carries its charts in the same
 * answer as its figures, drawn from one read of the bets: while settlements are written, every
 * answer's headline count is the count its charts draw. `days=all` is said as all.
 */
describe('dashboard track record: figures and charts from one read; All is all', function () {
  this.timeout(60_000);
  let api: TestServer;
  let browser: Browser;

  before(async () => {
    api = await startApi();
    browser = new Browser(api.url);
    expect((await browser.signup()).status).to.equal(201);
    await settledBets(2);
  });
  after(() => api?.close());

  const read = async (query: string): Promise<Answer> => {
    const res = await browser.send('GET', `/v2/account/track-record?${query}`);
    expect(res.status, query).to.equal(200);
    expect(validAccount(res.body), JSON.stringify(validAccount.errors?.slice(0, 3))).to.equal(true);
    return res.body as Answer;
  };

  it('happy: while settlements are written, each answer has the bets of its figures drawn in its charts, and the count moves between answers', async () => {
    const before = await read('days=all&per=recommendation');
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 8; i++) await settledBets(3);
      writing = false;
    })();
    const answers: Answer[] = [];
    while (writing) answers.push(await read('days=all&per=recommendation'));
    await writer;
    answers.push(await read('days=all&per=recommendation'));
    for (const a of answers) {
      const cumulative = drawn(a.charts.cumulative);
      expect([cumulative.header, cumulative.subtitle], 'cumulative chart').to.deep.equal([a.bets, a.bets]);
      expect(drawn(a.charts.calibration).subtitle, 'calibration chart').to.equal(a.bets);
      expect(drawn(a.charts.clv).subtitle, 'CLV chart').to.equal(a.bets);
    }
    const counts = answers.map((a) => a.bets);
    expect(new Set(counts).size, `settlements landed between the answers: ${counts.join(', ')}`).to.be.at.least(2);
    expect(counts[counts.length - 1], 'every bet written counted at the end').to.equal(before.bets + 24);
  });

  it('happy: days=all is every settled bet, said as all: period days all and no start, charts subtitled "all time"; a number of days stays a window', async () => {
    const all = await read('days=all');
    const year = await read('days=365');
    expect(all.period).to.deep.include({ days: 'all', from: null });
    expect(all.bets).to.be.at.least(year.bets).and.at.least(26);
    for (const svg of Object.values(all.charts)) expect(drawn(svg).window).to.equal('all time');
    expect(year.period.days).to.equal(365);
    expect(Date.parse(year.period.to) - Date.parse(year.period.from ?? '')).to.equal(365 * 86_400_000);
    for (const svg of Object.values(year.charts)) expect(drawn(svg).window).to.equal('last 365 days');

    const metered = await api.get('/v2/ai/track-record?days=all');
    expect(metered.status).to.equal(200);
    expect(validPublic(metered.body), JSON.stringify(validPublic.errors?.slice(0, 3))).to.equal(true);
    expect(metered.body).to.deep.include({ bets: all.bets, period: { ...all.period, to: metered.body.period.to } });
    const chart = await api.get('/v2/ai/track-record/chart.svg?days=all&kind=clv');
    expect(chart.status).to.equal(200);
    expect(drawn(chart.body as string).window).to.equal('all time');
  });

  it('error: a window that is neither 1 to 3650 days nor all is a 400 saying both, never served', async () => {
    for (const days of ['0', '3651', 'ALL', 'al', '1e3', 'all,30', '']) {
      const mine = await browser.send('GET', `/v2/account/track-record?days=${days}`);
      const metered = await api.get(`/v2/ai/track-record?days=${days}`);
      for (const res of [mine, metered]) {
        expect(res.status, days).to.equal(400);
        expect(res.body, days).to.deep.include({ statusCode: 400, code: 'invalid_parameter' });
        expect((res.body as { message: string }).message, days).to.match(/days must be an integer from 1 to 3650, or all/);
      }
    }
  });
});
