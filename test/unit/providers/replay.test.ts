import { expect } from 'chai';
import { ReplayProvider, APPEAR_MS, CLOSE_LEAD_MS, EPOCH_LEAD_MS } from '../../../shared/platform/providers/replay';
import { interpolatePrice } from '../../../shared/platform/providers/replay/books';
import { loadReplaySeasons, type ReplayLog, type ReplayMatch } from '../../../shared/platform/providers/replay/season';
import { matchTimeline } from '../../../shared/platform/providers/replay/timeline';
import type { FeedEvent, FeedOdds } from '../../../shared/domain/providers/types';
import { dataFolder, hasSeason, rowOf, seasonLines } from '../../helpers/footballData';

const HOUR = 3_600_000;
const ctx = (t: number) => ({ at: new Date(t), signal: new AbortController().signal });
const num = (s: string) => (s === '' ? null : Number(s));

function collector(): ReplayLog & { lines: { fields: Record<string, unknown>; message: string }[] } {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return { lines, warn: (fields, message) => lines.push({ fields, message }) };
}

async function readAt(p: ReplayProvider, m: ReplayMatch, t: number): Promise<{ event: FeedEvent | undefined; odds: FeedOdds | undefined; p: ReplayProvider }> {
  const event = (await p.listEvents(ctx(t))).find((e) => e.eventId === m.eventId);
  const odds = event ? (await p.fetchOdds(ctx(t), [event]))[0] : undefined;
  return { event, odds, p };
}

/** A book's prices of a market at `t`, by outcome code. */
function bookPrices(odds: FeedOdds, sysname: string, book: string): number[] {
  const i = odds.bookmakers.indexOf(book);
  const market = odds.markets.find((x) => x.betTypeSysname === sysname)!;
  return market.items.map((it) => it.prices[i]!);
}

describe('replay provider (real season excerpt)', function () {
  const SEASON = 'E0_2223';
  before(function () {
    if (!hasSeason(SEASON)) this.skip();
  });

  const ROWS = 12;
  let lines: string[];
  let matches: ReplayMatch[];
  let provider: ReplayProvider;
  let log: ReturnType<typeof collector>;
  before(function () {
    if (!hasSeason(SEASON)) return;
    lines = seasonLines(SEASON, ROWS);
    log = collector();
    matches = loadReplaySeasons(dataFolder({ [`${SEASON}.csv`]: lines.join('\n') }), [SEASON], log);
    provider = new ReplayProvider({ matches, clock: (t) => t });
  });
  const fileRow = (m: ReplayMatch) => rowOf(lines[0], lines[m.row - 1]);

  it('happy: every row is a match, named as in the file, in the Premier League (GB-ENG), books as separate dataSources', () => {
    expect(log.lines).to.deep.equal([]);
    expect(matches).to.have.length(ROWS);
    const first = fileRow(matches[0]);
    expect([matches[0].homeTeam, matches[0].awayTeam]).to.deep.equal([first.HomeTeam, first.AwayTeam]);
    expect(matches[0].competition).to.include({ name: 'Premier League', regionCode: 'GB-ENG' });
    expect(provider.bookmakers).to.deep.equal(['bet365', 'bwin', 'interwetten', 'pinnacle', 'williamhill', 'vcbet']);
    expect(ReplayProvider.epochOf(matches)!.getTime()).to.equal(matches[0].kickoff - EPOCH_LEAD_MS);
  });

  it('happy: listed days before kickoff at the opening prices, at the closing prices before kickoff', async () => {
    for (const m of matches) {
      const r = fileRow(m);
      expect((await readAt(provider, m, m.kickoff - APPEAR_MS - 1)).event, 'not listed yet').to.equal(undefined);
      const open = (await readAt(provider, m, m.kickoff - APPEAR_MS)).odds!;
      expect(bookPrices(open, 'SOCCER_MATCH_RESULT', 'bet365')).to.deep.equal([num(r.B365H), num(r.B365D), num(r.B365A)]);
      expect(bookPrices(open, 'SOCCER_MATCH_RESULT', 'pinnacle')).to.deep.equal([num(r.PSH), num(r.PSD), num(r.PSA)]);
      expect(bookPrices(open, 'SOCCER_UNDER_OVER', 'pinnacle')).to.deep.equal([num(r['P>2.5']), num(r['P<2.5'])]);
      const close = (await readAt(provider, m, m.kickoff - CLOSE_LEAD_MS + 1)).odds!;
      expect(bookPrices(close, 'SOCCER_MATCH_RESULT', 'bet365')).to.deep.equal([num(r.B365CH), num(r.B365CD), num(r.B365CA)]);
      expect(bookPrices(close, 'SOCCER_MATCH_RESULT', 'pinnacle')).to.deep.equal([num(r.PSCH), num(r.PSCD), num(r.PSCA)]);
      expect(bookPrices(close, 'SOCCER_MATCH_RESULT', 'vcbet')).to.deep.equal([num(r.VCCH), num(r.VCCD), num(r.VCCA)]);
      expect(bookPrices(close, 'SOCCER_UNDER_OVER', 'bet365')).to.deep.equal([num(r['B365C>2.5']), num(r['B365C<2.5'])]);
      const ah = close.markets.find((x) => x.betTypeSysname === 'SOCCER_ASIAN_HANDICAP')!;
      expect(ah.line).to.equal(num(r.AHCh));
      expect(bookPrices(close, 'SOCCER_ASIAN_HANDICAP', 'pinnacle')).to.deep.equal([num(r.PCAHH), num(r.PCAHA)]);
      expect(close.markets.flatMap((x) => x.items).every((it) => !it.suspended)).to.equal(true);
    }
  });

  it('happy: prices move monotonically from open to close in implied probability; in play they are suspended', async () => {
    const m = matches[0];
    const series: number[] = [];
    for (let t = m.kickoff - APPEAR_MS; t < m.kickoff; t += HOUR) series.push(1 / bookPrices((await readAt(provider, m, t)).odds!, 'SOCCER_MATCH_RESULT', 'bet365')[0]);
    const up = series[series.length - 1] >= series[0];
    for (let i = 1; i < series.length; i++) expect(up ? series[i] >= series[i - 1] - 1e-3 : series[i] <= series[i - 1] + 1e-3, `step ${i}`).to.equal(true);
    const live = (await readAt(provider, m, m.kickoff + 10 * 60_000)).odds!;
    expect(live.markets.flatMap((x) => x.items).every((it) => it.suspended)).to.equal(true);
    expect(interpolatePrice(2, 4, 0.5)).to.equal(2.67);
    expect(interpolatePrice(2.62, 3.1, 1)).to.equal(3.1);
  });

  it('happy: live with a path ending in the file; completed with the real half-time and full-time score, corners and cards', async () => {
    for (const m of matches) {
      const r = fileRow(m);
      const ev = (t: number) => readAt(provider, m, t).then((x) => x.event!);
      const live = await ev(m.kickoff + 50 * 60_000);
      expect(live.status).to.equal('live');
      const ht = (await provider.fetchLiveStats(ctx(m.kickoff + 50 * 60_000), [live]))[0];
      expect(ht.phaseSysname).to.equal('HALF_TIME');
      expect([ht.stats.homeGoals, ht.stats.awayGoals]).to.deep.equal([num(r.HTHG), num(r.HTAG)]);
      // The score never goes down during the match.
      let last = -1;
      for (let minute = 0; minute < 105; minute += 5) {
        const s = (await provider.fetchLiveStats(ctx(m.kickoff + minute * 60_000), [live]))[0].stats;
        const total = s.homeGoals! + s.awayGoals!;
        expect(total).to.be.at.least(last);
        last = total;
      }
      const done = await ev(m.kickoff + 110 * 60_000);
      expect(done.status).to.equal('completed');
      const result = (await provider.fetchResults(ctx(m.kickoff + 110 * 60_000), [done]))[0];
      expect(result.stats).to.deep.equal({
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
      // The last live minute already shows every count of the file (the path ends where the match did).
      const end = (await provider.fetchLiveStats(ctx(m.kickoff + 104.9 * 60_000), [live]))[0].stats;
      expect([end.homeGoals, end.awayGoals, end.homeCorners, end.awayCorners, end.homeYellowCards, end.awayYellowCards]).to.deep.equal([
        num(r.FTHG),
        num(r.FTAG),
        num(r.HC),
        num(r.AC),
        num(r.HY),
        num(r.AY),
      ]);
      expect((await readAt(provider, m, m.kickoff + 105 * 60_000 + 7 * HOUR)).event, 'gone after the lookback').to.equal(undefined);
    }
  });

  it('happy: idle until the next match is listed (the clock may skip there), not while one is listed, null after the last', () => {
    const first = matches[0];
    const last = matches.at(-1)!;
    expect(provider.idleUntil(new Date(first.kickoff - APPEAR_MS - 5 * 86_400_000))!.getTime()).to.equal(first.kickoff - APPEAR_MS);
    expect(provider.idleUntil(new Date(first.kickoff - APPEAR_MS))).to.equal(null);
    expect(provider.idleUntil(new Date(first.kickoff + HOUR))).to.equal(null);
    expect(provider.idleUntil(new Date(last.kickoff + 30 * 86_400_000))).to.equal(null);
  });

  it('happy: the in-play path is deterministic and consistent with the half-time score for a whole season', () => {
    const all = loadReplaySeasons(dataFolder({ [`${SEASON}.csv`]: seasonLines(SEASON, 400).join('\n') }), [SEASON], collector());
    expect(all.length).to.equal(380);
    for (const m of all) {
      const tl = matchTimeline(15, `${m.season}|${m.homeTeam}|${m.awayTeam}`, m.counts);
      expect(tl).to.deep.equal(m.timeline);
      const goals = (team: string, first: boolean) => tl.filter((i) => i.type === 'goal' && i.team === team && i.minute < 45 === first).length;
      expect([goals('home', true), goals('away', true), goals('home', false), goals('away', false)]).to.deep.equal([
        m.counts.hthg,
        m.counts.htag,
        m.counts.fthg - m.counts.hthg!,
        m.counts.ftag - m.counts.htag!,
      ]);
      expect(tl.every((i) => (i.minute > 0 && i.minute < 45) || (i.minute > 60 && i.minute < 105))).to.equal(true);
    }
  });
});

describe('replay provider: bad files are skipped with a log line naming file and row, never a crash', function () {
  const SEASON = 'E0_2223';
  before(function () {
    if (!hasSeason(SEASON)) this.skip();
  });
  const load = (files: Record<string, string>, seasons: string[]) => {
    const log = collector();
    const matches = loadReplaySeasons(dataFolder(files), seasons, log);
    return { matches, log };
  };

  it('error: a file without a required column is skipped whole, naming the file and the column', () => {
    const [header, ...rows] = seasonLines(SEASON, 3);
    const { matches, log } = load({ 'E0_2223.csv': [header.replace('HomeTeam', 'Home'), ...rows].join('\n') }, ['E0_2223']);
    expect(matches).to.deep.equal([]);
    expect(log.lines).to.have.length(1);
    expect(log.lines[0].message).to.match(/E0_2223\.csv skipped: missing columns HomeTeam/);
  });

  it('error: a missing file is logged and the other seasons still play', () => {
    const { matches, log } = load({ 'E0_2223.csv': seasonLines(SEASON, 2).join('\n') }, ['E0_9999', 'E0_2223']);
    expect(matches).to.have.length(2);
    expect(log.lines.map((l) => l.message)).to.have.length(1);
    expect(log.lines[0].message).to.match(/E0_9999\.csv skipped: cannot be read/);
  });

  it('edge: empty odds cells leave that book out of that market (logged with the row); a row without any match-result price is skipped', () => {
    const [header, a, b, c] = seasonLines(SEASON, 3);
    const cols = header.split(',');
    const blank = (line: string, names: string[]) =>
      line
        .split(',')
        .map((cell, i) => (names.includes(cols[i]) ? '' : cell))
        .join(',');
    const noResultPrices = cols.filter((k) => /^(B365|BW|IW|PS|WH|VC)C?[HDA]$/.test(k));
    const text = [header, blank(a, ['B365H']), b, blank(c, noResultPrices)].join('\n');
    const { matches, log } = load({ 'E0_2223.csv': text }, ['E0_2223']);
    expect(matches.map((m) => m.row)).to.deep.equal([2, 3]);
    const first = matches[0].markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
    // Bet365's opening triple is incomplete: its closing prices stand for both ends.
    expect(first.open.get('bet365')).to.deep.equal(first.close.get('bet365'));
    expect(log.lines.map((l) => [l.fields.file, l.fields.row])).to.deep.include.members([
      ['E0_2223.csv', 2],
      ['E0_2223.csv', 4],
    ]);
    expect(log.lines.find((l) => l.fields.row === 2)!.message).to.match(/bet365 left out of a market \(empty or invalid cells B365H\)/);
    expect(log.lines.find((l) => l.fields.row === 4)!.message).to.match(/row 4 skipped: no bookmaker prices the match result/);
  });

  it('edge: a byte-order mark, both date formats (dd/mm/yy and dd/mm/yyyy), no Time column, blank lines', () => {
    const [header, a, b] = seasonLines(SEASON, 2);
    const withoutTime = (line: string) =>
      line
        .split(',')
        .filter((_, i) => i !== 2)
        .join(',');
    const shortDate = withoutTime(a).replace(/^E0,(\d\d)\/(\d\d)\/20(\d\d)/, 'E0,$1/$2/$3');
    const text = '\uFEFF' + [withoutTime(header), shortDate, '', withoutTime(b), ',,,,', ''].join('\r\n');
    const { matches, log } = load({ 'E0_2223.csv': text }, ['E0_2223']);
    expect(log.lines).to.deep.equal([]);
    expect(matches.map((m) => new Date(m.kickoff).toISOString())).to.deep.equal(['2022-08-05T14:00:00.000Z', '2022-08-06T14:00:00.000Z']);
    expect(matches[0].competition.name).to.equal('Premier League');
  });

  it('error: an unreadable date, no full-time score, a half-time score above the full-time one are skipped rows', () => {
    const [header, a, b, c, d] = seasonLines(SEASON, 4);
    const cols = header.split(',');
    const set = (line: string, values: Record<string, string>) =>
      line
        .split(',')
        .map((cell, i) => values[cols[i]] ?? cell)
        .join(',');
    const text = [header, set(a, { Date: '2022-08-05' }), set(b, { FTHG: '' }), set(c, { HTHG: '5' }), d].join('\n');
    const { matches, log } = load({ 'E0_2223.csv': text }, ['E0_2223']);
    expect(matches.map((m) => m.row)).to.deep.equal([5]);
    expect(log.lines.map((l) => l.message)).to.deep.equal([
      'replay: E0_2223.csv row 2 skipped: unreadable date "2022-08-05"',
      'replay: E0_2223.csv row 3 skipped: no full-time score (FTHG/FTAG)',
      `replay: E0_2223.csv row 4 skipped: half-time score 5-${rowOf(header, c).HTAG} does not fit full-time ${rowOf(header, c).FTHG}-${rowOf(header, c).FTAG}`,
    ]);
  });

  it('edge: an older season (dd/mm/yy, no closing columns but Pinnacle) holds each book at its opening price', () => {
    if (!hasSeason('E0_1617')) return;
    const lines = seasonLines('E0_1617', 3);
    const { matches, log } = load({ 'E0_1617.csv': lines.join('\n') }, ['E0_1617']);
    expect(log.lines).to.deep.equal([]);
    expect(matches).to.have.length(3);
    const r = rowOf(lines[0], lines[matches[0].row - 1]);
    const mr = matches[0].markets.find((x) => x.betTypeSysname === 'SOCCER_MATCH_RESULT')!;
    expect(mr.close.get('bet365')).to.deep.equal([num(r.B365H), num(r.B365D), num(r.B365A)]);
    expect(mr.close.get('pinnacle')).to.deep.equal([num(r.PSCH), num(r.PSCD), num(r.PSCA)]);
    expect(matches[0].markets.map((x) => x.betTypeSysname)).to.deep.equal(['SOCCER_MATCH_RESULT']);
  });
});

describe('replay provider: describing matches it no longer lists', () => {
  const SEASON = 'E0_2223';
  const HOUR_MS = 3_600_000;
  before(function () {
    if (!hasSeason(SEASON)) this.skip();
  });

  it("happy: a match past its listing window is described as completed, and its result is the file's; unknown ids are left out", async () => {
    const lines = seasonLines(SEASON, 2);
    const matches = loadReplaySeasons(dataFolder({ [`${SEASON}.csv`]: lines.join('\n') }), [SEASON], { warn: () => undefined });
    const m = matches[0];
    const r = rowOf(lines[0], lines[m.row - 1]);
    const p = new ReplayProvider({ matches, clock: (t) => t });
    const later = m.kickoff + 48 * HOUR_MS;
    expect((await p.listEvents(ctx(later))).map((e) => e.eventId)).to.not.include(m.eventId);
    const described = await p.describeEvents(ctx(later), [m.eventId, 'not-a-match']);
    expect(described.map((e) => [e.eventId, e.status])).to.deep.equal([[m.eventId, 'completed']]);
    const [result] = await p.fetchResults(ctx(later), described);
    expect(result.stats).to.include({ homeGoals: Number(r.FTHG), awayGoals: Number(r.FTAG) });
    // Before kickoff it is described as upcoming, as listed.
    expect((await p.describeEvents(ctx(m.kickoff - HOUR_MS), [m.eventId]))[0].status).to.equal('upcoming');
  });
});
