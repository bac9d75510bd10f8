import { expect } from 'chai';
import { createApp } from '../../api/app';
import { MAX_HEADER_BYTES } from '../../api/server';
import { hashKey } from '../../shared/domain/billing/keys';
import { setEnvForChildren } from '../../shared/platform/config';
import { redis } from '../../shared/platform/db/redis';
import { cacheKey } from '../../shared/platform/billing/access';
import { ledgerConsumerForThisSuite } from '../helpers/ledgerConsumer';
import { findLedgerEntriesOfAccount } from '../../shared/platform/db/repositories/fixtures';
import { serve, startApi, type TestServer } from '../helpers/api';
import { accountWithKey, bearer } from '../helpers/meteredApp';
import { get, rawRequest, type RawAnswer } from '../helpers/rawHttp';

const SHAPE = ['code', 'error', 'message', 'statusCode'];
/** An answer Express gave (not a refusal of malformed HTTP) also carries its request id. */
const SHAPE_WITH_ID = ['code', 'error', 'message', 'requestId', 'statusCode'];

/** The contract's error answer: the status, the three fields (plus documented extras), JSON. */
function expectError(answer: RawAnswer, status: number, what: string): Record<string, unknown> {
  expect(answer.reset, `${what}: connection reset`).to.equal(false);
  expect(answer.hung, `${what}: no answer`).to.equal(false);
  expect(answer.status, `${what}: status`).to.equal(status);
  expect(answer.headers['content-type'], what).to.match(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body, what).to.include.keys(SHAPE);
  expect(body.statusCode, what).to.equal(status);
  expect(body.message, what)
    .to.be.a('string')
    .and.not.match(/\n\s+at /);
  return body;
}

describe('API hostile input: every refusal in the error shape, none by a reset', function () {
  this.timeout(60000);
  let api: TestServer;
  before(async () => (api = await startApi()));
  after(() => api.close());

  describe('error: requests Node refuses before Express', () => {
    it('raw non-ASCII bytes in the path or the query are a 400 in the error shape', async () => {
      for (const target of [Buffer.from('/v2/é', 'utf8'), Buffer.from('/v2/matches?sport=fútbol', 'utf8'), Buffer.from([0x2f, 0x76, 0x32, 0x2f, 0xff, 0xfe])]) {
        const body = expectError(await rawRequest(api.url, get(target)), 400, target.toString('latin1'));
        expect(body.error).to.equal('Bad Request');
        expect(body.message).to.match(/percent-encoded/);
      }
    });

    it('a request line over the header limit is a 414 (a 20 KB query value, a 64 KB and a 1 MB path)', async () => {
      const cases = { 'query 20 KB': `/v2/matches?sport=${'a'.repeat(20 * 1024)}`, 'path 64 KB': `/v2/${'a'.repeat(64 * 1024)}`, 'path 1 MB': `/v2/${'b'.repeat(1024 * 1024)}` };
      for (const [what, target] of Object.entries(cases)) {
        const body = expectError(await rawRequest(api.url, get(target)), 414, what);
        expect(body).to.include({ error: 'URI Too Long' });
      }
    });

    it('a client library sending a 64 KB URL reads the 414 (no reset while it is still writing)', async () => {
      const res = await fetch(`${api.url}/v2/${'c'.repeat(64 * 1024)}`);
      expect(res.status).to.equal(414);
      expect(await res.json()).to.deep.equal({
        statusCode: 414,
        message: `Request line over ${MAX_HEADER_BYTES / 1024} KB: send fewer or shorter query parameters`,
        error: 'URI Too Long',
        code: 'uri_too_long',
      });
    });

    it('headers over the limit are a 431, however the bytes arrive', async () => {
      const one = expectError(await rawRequest(api.url, get('/v2/health', [`X-Padding: ${'p'.repeat(20 * 1024)}`])), 431, 'one big header');
      expect(one.error).to.equal('Request Header Fields Too Large');
      const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(60)}`);
      expectError(await rawRequest(api.url, get('/v2/health', many)), 431, 'many headers');
    });

    it('malformed header lines and request lines are a 400 in the error shape', async () => {
      const cases: Record<string, string> = {
        'space in a header name': 'GET /v2/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
        'control byte in a value': 'GET /v2/health HTTP/1.1\r\nHost: x\r\nX-A: \x01\r\n\r\n',
        'not HTTP at all': 'HELLO\r\n\r\n',
        'Content-Length with chunked': 'GET /v2/health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
        'bad HTTP version': 'GET /v2/health HTTP/9.x\r\nHost: x\r\n\r\n',
      };
      for (const [what, request] of Object.entries(cases)) expectError(await rawRequest(api.url, request), 400, what);
    });

    it('CONNECT is a 405 and an unknown Expect a 417, both in the error shape', async () => {
      const connect = await rawRequest(api.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expectError(connect, 405, 'CONNECT');
      expect(connect.headers.allow).to.equal('GET, HEAD');
      expectError(await rawRequest(api.url, get('/v2/health', ['Expect: 200-ok'])), 417, 'Expect');
    });
  });

  describe('error: requests Express sees', () => {
    it('malformed percent-encoding in the path is a 400 naming it; in the query, the parameter is refused', async () => {
      const path = await api.get('/v2/matches/%E0%A4%A');
      expect(path.status).to.equal(400);
      expect(path.body).to.deep.equal({
        statusCode: 400,
        message: 'Invalid request parameters: malformed percent-encoding in the path',
        error: 'Bad Request',
        code: 'malformed_request',
        requestId: path.headers.get('x-request-id'),
      });
      const query = await api.get('/v2/matches?sport=%ZZsoccer');
      expect(query.status).to.equal(400);
      expect(Object.keys(query.body).sort()).to.deep.equal(SHAPE_WITH_ID);
    });

    it('a single-valued parameter given twice is a 400 naming it', async () => {
      const res = await api.get('/v2/matches?limit=1&limit=2');
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Invalid request parameters: parameter "limit" must be given once');
    });

    it('security: prototype-named and nested parameters are refused as unknown, on every kind of endpoint', async () => {
      for (const path of ['/v2/matches', '/v2/health', '/v2/ai/betting-recommendations']) {
        for (const q of ['__proto__=x', 'constructor=x', 'hasOwnProperty=1', 'toString=1', '__proto__[polluted]=1', 'constructor[prototype][x]=1']) {
          const res = await api.get(`${path}?${q}`);
          expect(res.status, `${path}?${q}`).to.equal(400);
          expect(Object.keys(res.body).sort(), `${path}?${q}`).to.deep.equal(SHAPE_WITH_ID);
        }
      }
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('another method on a known path is a 405 with Allow; on an unknown path a 404', async () => {
      const post = await fetch(`${api.url}/v2/matches`, { method: 'POST', headers: bearer(api.key!) });
      expect(post.status).to.equal(405);
      expect(post.headers.get('allow')).to.equal('GET, HEAD');
      expect(await post.json()).to.include({ statusCode: 405, error: 'Method Not Allowed' });
      const del = await fetch(`${api.url}/v2/nothing-here`, { method: 'DELETE' });
      expect(del.status).to.equal(404);
      expect(Object.keys((await del.json()) as object).sort()).to.deep.equal(SHAPE_WITH_ID);
    });
  });

  describe('happy: a refused request is cheap', () => {
    const ledger = ledgerConsumerForThisSuite();
    it('a 400 is refused before the debit: no ledger entry, X-Credits-Consumed 0', async () => {
      const { accountId, key: k } = await accountWithKey(100);
      const res = await api.get('/v2/ai/value-opportunities?minEdge=lots', bearer(k));
      expect(res.status).to.equal(400);
      expect(res.headers.get('x-credits-consumed')).to.equal('0');
      const ok = await api.get('/v2/matches?limit=1', bearer(k));
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('x-credits-remaining')).to.equal('99');
      await ledger.written();
      const entries = await findLedgerEntriesOfAccount(accountId, ['debit', 'refund']);
      expect(entries.map((e) => `${e.kind} ${e.endpoint}`)).to.deep.equal(['debit GET /v2/matches']);
    });

    it('a bad parameter is a 400 even when the balance could not pay (checked before credits)', async () => {
      const empty = await accountWithKey(0);
      const res = await api.get('/v2/matches?limit=many', bearer(empty.key));
      expect(res.status).to.equal(400);
      expect((await api.get('/v2/matches', bearer(empty.key))).status).to.equal(402);
    });

    it('security: a made-up key is refused and remembered, so the next try reads no database; a new real key still works', async () => {
      const madeUp = `sk_live_${'Z'.repeat(32)}`;
      for (let i = 0; i < 3; i++) expect((await api.get('/v2/matches', bearer(madeUp))).status).to.equal(401);
      expect(await redis().get(cacheKey(hashKey(madeUp)))).to.equal('unknown');
      const real = await accountWithKey(10);
      expect((await api.get('/v2/matches?limit=1', bearer(real.key))).status).to.equal(200);
    });
  });

  describe('happy: the OpenAPI document names where the API is', () => {
    it('servers is the address the request arrived on (never its Host header), or PUBLIC_URL when set', async () => {
      const doc = await api.get('/v2/openapi.json');
      expect(doc.body.servers).to.deep.equal([{ url: api.url }]);
      for (const host of ['<script>', 'evil.example']) {
        const forged = await rawRequest(api.url, `GET /v2/openapi.json HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(JSON.parse(forged.body).servers, host).to.deep.equal([{ url: api.url }]);
      }
      setEnvForChildren({ PUBLIC_URL: 'https://odds.example.com/' });
      const pub = await serve(createApp());
      try {
        expect((await pub.get('/v2/openapi.json')).body.servers).to.deep.equal([{ url: 'https://odds.example.com' }]);
      } finally {
        setEnvForChildren({ PUBLIC_URL: '' });
        await pub.close();
      }
    });
  });
});
