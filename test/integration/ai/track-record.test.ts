import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import mongoose from 'mongoose';
import { trackRecordResponses } from '../../../api/schemas/trackRecord';
import { appendCommitments } from '../../../shared/app/commitments/append';
import { buildLinks, linkHash, verifyLinks, verifyProof, type Commitment } from '../../../shared/domain/commitments/chain';
import { commitRecommendations } from '../../../shared/app/commitments/commit';
import { publishChainHead } from '../../../shared/app/commitments/publish';
import { canonicalize } from '../../../shared/domain/commitments/canonical';
import { findLinkOf, findLinksFrom } from '../../../shared/platform/db/repositories/commitments';
import { getConfig } from '../../../shared/platform/config';
import { processContext } from '../../../shared/app/processContext';
import { settleEvent } from '../../../shared/app/settlement/settleEvent';
import { startApi, type TestServer } from '../../helpers/api';
import { cli } from '../../helpers/cli';
import { createEvent, createRecommendations } from '../../helpers/settlementFixtures';
import { wellFormedRoot } from '../../helpers/xml';
import { spawnEntry } from '../../helpers/processes';
import { Browser } from '../account/client';

/**
 * The commitments chain on the real store (MongoDB or FerretDB): concurrent appends keep one
 * chain, appends are idempotent, settlement adds links and edits none; the track-record
 * endpoints over HTTP; `verify-record` as its own process, passing and then catching a tampered link.
 */
const validator = new Ajv({ strict: false, allErrors: true });
addFormats(validator);
function valid(name: keyof typeof trackRecordResponses, body: unknown): void {
  const check = validator.compile(trackRecordResponses[name]);
  expect(check(body), JSON.stringify(check.errors?.slice(0, 3))).to.equal(true);
}

const raw = (name: string) => mongoose.connection.collection(name);
const record = (i: number, tag = 't'): Commitment => ({ kind: 'recommendation', recordId: `${tag}-${i}`, record: canonicalize({ id: `${tag}-${i}`, odds: 2 + i / 100 }) });
const allLinks = () => findLinksFrom(0, 100000);

describe('track record: the commitments chain and its endpoints', function () {
  this.timeout(120000);
  let api: TestServer;

  before(async () => {
    api = await startApi();
    await raw('commitments').deleteMany({});
    await raw('chainheads').deleteMany({});
  });
  after(() => api?.close());

  it('happy: 20 concurrent appends (and the same records again, concurrently) keep one chain, seq 0..n-1, each record once', async () => {
    const before = (await allLinks()).length;
    const added = await Promise.all(Array.from({ length: 20 }, (_, i) => appendCommitments(processContext(), [record(i, 'conc')])));
    expect(added.reduce((a, b) => a + b, 0)).to.equal(20);
    // Overlapping batches racing: every record ends up linked exactly once.
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => appendCommitments(processContext(), [record(i, 'conc'), record(i, 'more'), record(i + 1, 'more')])));
    expect(again.reduce((a, b) => a + b, 0)).to.equal(11);
    const links = await allLinks();
    expect(links.length).to.equal(before + 31);
    expect(links.map((l) => l.seq)).to.deep.equal(links.map((_, i) => i));
    expect(new Set(links.map((l) => `${l.kind}:${l.recordId}`)).size).to.equal(links.length);
    expect(verifyLinks(links).ok).to.equal(true);
  });

  it('happy: a retried append adds nothing', async () => {
    const n = (await allLinks()).length;
    expect(await appendCommitments(processContext(), [record(3, 'conc'), record(4, 'conc')])).to.equal(0);
    expect((await allLinks()).length).to.equal(n);
  });

  it('happy: links another writer added since this process last looked are found: the next append follows them', async () => {
    const links = await allLinks();
    await appendCommitments(processContext(), [record(0, 'mine')]);
    // 37 links by "another process": written straight to the store (not through this process's repository).
    const head = { hash: (await allLinks()).at(-1)!.hash, length: links.length + 1 };
    const theirs = buildLinks(
      head,
      Array.from({ length: 37 }, (_, i) => record(i, 'theirs')),
    );
    await raw('commitments').insertMany(
      theirs.map(
        (l) => ({ _id: l.seq, key: `${l.kind}:${l.recordId}`, subject: l.recordId, kind: l.kind, recordId: l.recordId, record: l.record, prevHash: l.prevHash, hash: l.hash, at: new Date() }) as never,
      ),
    );
    expect(await appendCommitments(processContext(), [record(1, 'mine')])).to.equal(1);
    const after = await allLinks();
    expect(after.length).to.equal(links.length + 39);
    expect(after.at(-1)).to.include({ seq: links.length + 38, recordId: 'mine-1', prevHash: theirs.at(-1)!.hash });
    expect(verifyLinks(after).ok).to.equal(true);
  });

  it('happy: two other processes and this one appending at once (40 records each, one call each) keep one chain, each record once', async () => {
    const before = (await allLinks()).length;
    const env = { MONGODB_DB: getConfig().MONGODB_DB, LOG_LEVEL: 'warn' };
    const others = ['p1', 'p2'].map((tag) => spawnEntry('test/helpers/appendChainProcess.ts', env, [tag, '40']));
    const mine = await Promise.all(Array.from({ length: 40 }, (_, i) => appendCommitments(processContext(), [record(i, 'p0')])));
    const exits = await Promise.all(others.map((o) => o.exited));
    others.forEach((o, i) => expect(exits[i].code, o.output()).to.equal(0));
    expect(others.map((o) => o.output().trim())).to.deep.equal(['added 40', 'added 40']);
    expect(mine.reduce((a, b) => a + b, 0)).to.equal(40);
    const links = await allLinks();
    expect(links.length).to.equal(before + 120);
    expect(links.map((l) => l.seq)).to.deep.equal(links.map((_, i) => i));
    expect(new Set(links.map((l) => l.recordId)).size).to.equal(links.length);
    expect(verifyLinks(links).ok).to.equal(true);
  });

  let recIds: string[] = [];
  it('happy: a settlement is appended as a later link; the recommendation link is not edited', async () => {
    const eventId = await createEvent({ start: new Date(Date.now() - 3 * 3600_000) });
    recIds = await createRecommendations(eventId, [
      { key: 'home', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.2, confidence: 'High' },
      { key: 'over', betTypeSysname: 'SOCCER_UNDER_OVER', code: 'O', line: 3.5, odds: 2.5, confidence: 'Low' },
    ]);
    const ev = { id: eventId, home: 'Home FC', away: 'Away FC', competition: 'League', startAt: new Date(Date.now() - 3 * 3600_000) };
    expect(await commitRecommendations(processContext(), recIds, ev)).to.equal(2);
    expect(await commitRecommendations(processContext(), recIds, ev)).to.equal(0);
    const committed = await findLinkOf('recommendation', recIds[0]);
    await settleEvent(processContext(), eventId);
    await settleEvent(processContext(), eventId); // a retried job
    const after = await findLinkOf('recommendation', recIds[0]);
    expect(after).to.deep.equal(committed);
    const settled = await findLinkOf('recommendation-settlement', `${recIds[0]}@v0`);
    expect(settled, 'settlement link').to.not.equal(null);
    expect(settled!.seq).to.be.greaterThan(committed!.seq);
    expect(JSON.parse(settled!.record)).to.include({ id: recIds[0], result: 'won', resultVersion: 0 });
    expect(JSON.parse((await findLinkOf('recommendation-settlement', `${recIds[1]}@v0`))!.record)).to.include({ result: 'lost' });
    const links = await allLinks();
    expect(links.filter((l) => l.recordId.startsWith(`${recIds[0]}@`)).length).to.equal(1);
    expect(verifyLinks(links).ok).to.equal(true);
  });

  it('happy: GET /v2/ai/track-record counts the settled bets, by confidence, with the chain head', async () => {
    const res = await api.get('/v2/ai/track-record?days=3650');
    expect(res.status).to.equal(200);
    valid('trackRecord', res.body);
    expect(res.body.bets).to.be.at.least(2);
    const links = await allLinks();
    expect(res.body.head).to.include({ hash: links.at(-1)!.hash, length: links.length });
    const high = await api.get('/v2/ai/track-record?days=3650&confidence=High&sport=soccer');
    expect(high.status).to.equal(200);
    expect(high.body.byConfidence.find((c: { confidence: string }) => c.confidence === 'Low').bets).to.equal(0);
    expect(high.body.filters).to.deep.equal({ sport: 'soccer', confidence: 'High', per: 'recommendation' });
  });

  it('happy: per=outcome counts a recommendation re-issued at new odds once; per=recommendation (the default) counts each', async () => {
    const start = new Date(Date.now() - 4 * 3600_000);
    const eventId = await createEvent({ start });
    const ids = await createRecommendations(eventId, [
      { key: 'first', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.2, createdAt: new Date(start.getTime() - 30 * 3600_000) },
      { key: 'again', betTypeSysname: 'SOCCER_MATCH_RESULT', code: '1', odds: 2.3, createdAt: new Date(start.getTime() - 10 * 3600_000) },
    ]);
    await commitRecommendations(processContext(), ids, { id: eventId, home: 'Home FC', away: 'Away FC', competition: 'League', startAt: start });
    await settleEvent(processContext(), eventId);
    const every = await api.get('/v2/ai/track-record?days=3650');
    const once = await api.get('/v2/ai/track-record?days=3650&per=outcome');
    expect(once.status).to.equal(200);
    valid('trackRecord', once.body);
    expect(ids).to.have.length(2);
    expect(every.body.filters.per).to.equal('recommendation');
    expect(once.body.filters.per).to.equal('outcome');
    expect(every.body.bets - once.body.bets).to.equal(1);
    // Both won at 2.2 and 2.3: the re-issue's 1.3 units are what per=outcome leaves out.
    expect(every.body.profit - once.body.profit).to.be.closeTo(1.3, 1e-9);
    expect((await api.get('/v2/ai/track-record/chart.svg?per=outcome')).status).to.equal(200);
    expect((await api.get('/v2/ai/track-record?per=bet')).status).to.equal(400);
  });

  it("happy: the dashboard's signed-in view serves the same record and charts, free; security: no session is a 401; error: a bad kind, days or per is a 400 naming it", async () => {
    const browser = new Browser(api.url);
    expect((await browser.signup()).status).to.equal(201);
    const balance = (await browser.send('GET', '/v2/account')).body.account.balance;
    for (const per of ['recommendation', 'outcome']) {
      const mine = await browser.send('GET', `/v2/account/track-record?days=3650&per=${per}`);
      const metered = await api.get(`/v2/ai/track-record?days=3650&per=${per}`);
      expect(mine.status, per).to.equal(200);
      valid('trackRecord', mine.body);
      const figures = (b: Record<string, unknown>) => ({ ...b, period: undefined, head: undefined, lastPublishedHead: undefined, charts: undefined });
      expect(figures(mine.body), per).to.deep.equal(figures(metered.body));
    }
    for (const kind of ['cumulative', 'clv', 'calibration']) {
      const svg = await browser.send('GET', `/v2/account/track-record/chart.svg?kind=${kind}&days=3650&per=outcome`);
      expect(svg.status, kind).to.equal(200);
      expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
      expect(wellFormedRoot(svg.body as string)).to.equal('svg');
      expect(svg.body as string).to.include('first bet per outcome');
    }
    expect((await browser.send('GET', '/v2/account')).body.account.balance, 'not metered').to.equal(balance);
    const stranger = new Browser(api.url);
    for (const path of ['/v2/account/track-record', '/v2/account/track-record/chart.svg']) expect((await stranger.send('GET', path)).status, path).to.equal(401);
    const bad: [string, RegExp][] = [
      ['/v2/account/track-record/chart.svg?kind=pie', /kind must be one of cumulative, clv, calibration/],
      ['/v2/account/track-record?days=0', /days must be an integer from 1 to 3650/],
      ['/v2/account/track-record?days=1e3', /days must be an integer/],
      ['/v2/account/track-record?per=bet', /per must be recommendation or outcome/],
      ['/v2/account/track-record?sport=soccer', /unknown parameter "sport"/],
      ['/v2/account/track-record?days=1&days=2', /days must be a single value/],
    ];
    for (const [path, message] of bad) {
      const r = await browser.send('GET', path);
      expect(r.status, path).to.equal(400);
      expect(r.body).to.include({ statusCode: 400, error: 'Bad Request' });
      expect(r.body.message, path).to.match(message);
    }
    expect((await browser.send('POST', '/v2/account/track-record', {})).status).to.equal(405);
  });

  it('sad: bad parameters are 400s naming the parameter, unknown ids 404', async () => {
    for (const q of ['days=0', 'days=abc', 'confidence=Huge', 'sport=chess', 'other=1']) {
      const res = await api.get(`/v2/ai/track-record?${q}`);
      expect(res.status, q).to.equal(400);
    }
    expect((await api.get('/v2/ai/track-record/chart.svg')).headers.get('content-type'), 'kind defaults to cumulative').to.match(/^image\/svg\+xml/);
    expect((await api.get('/v2/ai/track-record/chart.svg?kind=pie')).status).to.equal(400);
    expect((await api.get('/v2/ai/track-record/chain?limit=0')).status).to.equal(400);
    const missing = await api.get('/v2/ai/track-record/rec-nope/proof');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ statusCode: 404, error: 'Not Found' });
  });

  it('happy: the proof of a recommendation recomputes the current head and lists its settlement', async () => {
    const res = await api.get(`/v2/ai/track-record/${encodeURIComponent(recIds[0])}/proof`);
    expect(res.status).to.equal(200);
    valid('trackRecordProof', res.body);
    expect(res.body.record.parsed).to.include({ id: recIds[0], odds: 2.2, confidence: 'High' });
    expect(res.body.settlements.map((s: { recordId: string }) => s.recordId)).to.deep.equal([`${recIds[0]}@v0`]);
    expect(verifyProof(res.body)).to.deep.include({ ok: true });
    const links = await allLinks();
    expect(res.body.head.length).to.equal(links.length);
  });

  it('happy: a proof lists at most `limit` later links and says where the path goes on; `to` proves to an earlier (published) head; sad: a `to` not holding the record, or past the head, is a 400', async () => {
    await appendCommitments(
      processContext(),
      Array.from({ length: 10 }, (_, i) => record(i, 'later')),
    );
    const id = encodeURIComponent(recIds[0]);
    const links = await allLinks();
    const seq = (await findLinkOf('recommendation', recIds[0]))!.seq;

    const capped = await api.get(`/v2/ai/track-record/${id}/proof?limit=3`);
    expect(capped.status).to.equal(200);
    valid('trackRecordProof', capped.body);
    expect(capped.body.path.map((l: { seq: number }) => l.seq)).to.deep.equal([seq + 1, seq + 2, seq + 3]);
    expect(capped.body.next).to.equal(seq + 4);
    expect(capped.body.head).to.include({ length: links.length, hash: links.at(-1)!.hash });
    // Alone it stops short of the head; with the chain from `next` it recomputes it.
    expect(verifyProof(capped.body).ok).to.equal(false);
    const rest = await api.get(`/v2/ai/track-record/chain?from=${capped.body.next}`);
    expect(verifyProof({ ...capped.body, path: [...capped.body.path, ...rest.body.links] })).to.deep.include({ ok: true });

    const full = await api.get(`/v2/ai/track-record/${id}/proof`);
    expect(full.body.next).to.equal(null);
    expect(full.body.path).to.have.length(links.length - seq - 1);

    const toEarlier = await api.get(`/v2/ai/track-record/${id}/proof?to=${seq + 2}`);
    expect(toEarlier.status).to.equal(200);
    valid('trackRecordProof', toEarlier.body);
    expect(toEarlier.body.head).to.deep.equal({ hash: links[seq + 1].hash, length: seq + 2, time: links[seq + 1].at.toISOString() });
    expect(toEarlier.body.path.map((l: { seq: number }) => l.seq)).to.deep.equal([seq + 1]);
    expect(toEarlier.body.next).to.equal(null);
    expect(verifyProof(toEarlier.body)).to.deep.include({ ok: true });
    // The link itself is the head of length seq + 1: an empty path.
    const atLink = await api.get(`/v2/ai/track-record/${id}/proof?to=${seq + 1}`);
    expect(atLink.body.path).to.deep.equal([]);
    expect(verifyProof(atLink.body)).to.deep.include({ ok: true });

    for (const q of [`to=${seq}`, `to=${links.length + 1}`, 'to=0', 'limit=0', 'limit=1001', 'to=x']) {
      const res = await api.get(`/v2/ai/track-record/${id}/proof?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.message, q).to.match(/to|limit/);
    }
  });

  it('happy: chart.svg in each kind is a well-formed SVG served as image/svg+xml', async () => {
    for (const kind of ['cumulative', 'clv', 'calibration']) {
      const res = await api.get(`/v2/ai/track-record/chart.svg?kind=${kind}&days=3650`);
      expect(res.status, kind).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^image\/svg\+xml/);
      expect(wellFormedRoot(res.body as string)).to.equal('svg');
    }
  });

  it('happy: chain pages and the hourly published heads', async () => {
    const first = await api.get('/v2/ai/track-record/chain?from=0&limit=10');
    valid('trackRecordChain', first.body);
    expect(first.body.links.map((l: { seq: number }) => l.seq)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first.body.next).to.equal(10);
    const published = await publishChainHead(processContext(), '2030010100');
    expect(published.published).to.equal(true);
    expect((await publishChainHead(processContext(), '2030010100')).published).to.equal(false);
    const heads = await api.get('/v2/ai/track-record/heads');
    valid('trackRecordHeads', heads.body);
    expect(heads.body.heads[0]).to.include({ hour: '2030010100', hash: published.hash, length: published.length });
  });

  it('happy: verify-record recomputes the chain, heads and proofs; sad: a tampered stored record is caught, naming its link', async () => {
    const ok = await cli('verify-record', '--url', api.url, '--key', api.key!, '--proofs', '3', '--json');
    expect(ok.code, ok.err).to.equal(0);
    expect(ok.json).to.include({ ok: true, proofsChecked: 3, publishedHeadsChecked: 1, firstBad: null });
    // The breakdown, from the chain alone, counts the bets the endpoint counts.
    const breakdown = await cli('record-breakdown', '--url', api.url, '--key', api.key!, '--json');
    expect(breakdown.code, breakdown.err).to.equal(0);
    const served = await api.get('/v2/ai/track-record?days=3650');
    expect(breakdown.json.rows[0]).to.deep.include({ by: 'all', bets: served.body.bets, wins: served.body.wins, profit: served.body.profit });
    // Proofs of two links each: the verifier completes every path (the oldest record's is the whole chain) from the chain.
    const paged = await cli('verify-record', '--url', api.url, '--key', api.key!, '--proofs', '4', '--proof-limit', '2', '--json');
    expect(paged.code, paged.err).to.equal(0);
    expect(paged.json).to.include({ ok: true, proofsChecked: 4, firstBad: null });
    const badLimit = await cli('verify-record', '--url', api.url, '--key', api.key!, '--proof-limit', '0');
    expect(badLimit.code).to.equal(2);
    expect(badLimit.err).to.match(/--proof-limit must be from 1 to 1000/);
    const human = await cli('verify-record', '--url', `${api.url}/v2`, '--key', api.key!, '--proofs', '0');
    expect(human.out).to.match(/^chain OK: \d+ links recompute to head [0-9a-f]{64}/);

    const victim = await findLinkOf('recommendation', recIds[1]);
    const tampered = victim!.record.replace('"odds":2.5', '"odds":3.5');
    expect(tampered).to.not.equal(victim!.record);
    await raw('commitments').updateOne({ _id: victim!.seq } as never, { $set: { record: tampered } });
    // Chain pages are served from the page cache: an edit behind the API's back shows once the page turns over (the next `ai` bump, or CACHE_TTL_S).
    await bumpCacheVersion('ai');
    const bad = await cli('verify-record', '--url', api.url, '--key', api.key!, '--proofs', '0');
    expect(bad.code).to.equal(1);
    expect(bad.out).to.include(`CHAIN BROKEN at link ${victim!.seq}`);
    await raw('commitments').updateOne({ _id: victim!.seq } as never, { $set: { record: victim!.record } });

    // Rewriting history consistently (record and every later hash) no longer matches a published head.
    const links = await allLinks();
    const published = await publishChainHead(processContext(), '2030010101');
    expect(published.length).to.equal(links.length);
    const rewritten = links.map((l) => ({ ...l }));
    rewritten[victim!.seq].record = tampered;
    for (let i = victim!.seq; i < rewritten.length; i++) {
      if (i > 0) rewritten[i].prevHash = rewritten[i - 1].hash;
      rewritten[i].hash = linkHash(rewritten[i].prevHash, rewritten[i].record);
      await raw('commitments').updateOne({ _id: i } as never, { $set: { record: rewritten[i].record, prevHash: rewritten[i].prevHash, hash: rewritten[i].hash } });
    }
    const rewrittenRun = await cli('verify-record', '--url', api.url, '--key', api.key!, '--proofs', '0', '--json');
    expect(rewrittenRun.code).to.equal(1);
    expect(rewrittenRun.json.firstBad.problem).to.match(/published for hour 20300101/);
  });

  it('happy: the chain emptied behind this process (a fresh database) starts again at link 0', async () => {
    await raw('commitments').deleteMany({});
    expect(await appendCommitments(processContext(), [record(0, 'fresh'), record(1, 'fresh')])).to.equal(2);
    const links = await allLinks();
    expect(links.map((l) => [l.seq, l.recordId])).to.deep.equal([
      [0, 'fresh-0'],
      [1, 'fresh-1'],
    ]);
    expect(verifyLinks(links).ok).to.equal(true);
  });
});
