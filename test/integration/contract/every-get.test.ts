import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { describeProblem, lintDocument } from '../../../scripts/contract';
import { addCredits, createAccount, createKey } from '../../../shared/app/billing/accounts';
import { appendCommitments } from '../../../shared/app/commitments/append';
import { processContext } from '../../../shared/app/processContext';
import { canonicalize } from '../../../shared/domain/commitments/canonical';
import { isValidTimeZone } from '../../../shared/domain/days';
import { betItemId, marketId } from '../../../shared/domain/markets/catalog';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { CONFIG_VARS, overrideEnv } from '../../../shared/platform/config';
import { appendOddsHistoryIgnoringDuplicates } from '../../../shared/platform/db/repositories/events';
import { clearReadData, insertAiOutput, insertEvents, insertLiveEventData, insertLiveSnapshot, insertSettledRecommendation, seedReference } from '../../helpers/fixtures';
import { startApi, type TestServer } from '../../helpers/api';
import { Browser, forgetLocalFailures } from '../account/client';
import { newSecret } from '../../../shared/domain/webhooks/signing';

/**
 * The served OpenAPI document as a client's tools read it. Every GET operation in its `paths` is
 * called on the real app (real Redis and FerretDB, seeded data) with real parameters: a 2xx, a
 * 400 from a parameter it does not take, a 401 without its credentials, and the 404s and test
 * key answers below. Each answer's status must be documented, its content type listed under that
 * status, and a JSON body valid against that schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1
 * uses, `$ref`s resolved in the document). An operation added without an example here fails.
 */

/**
 * Who calls: the funded live key, a test key (the tests' delay of 0: today's data), a test key
 * under the default delay (data this fresh has no answer old enough: its 503 test_data_pending),
 * the signed-in session, or no credentials.
 */
type Caller = 'live' | 'test' | 'delayed' | 'session' | 'none';

interface Example {
  url: string;
  as: Caller;
  status: number;
}

/** One answer as served, kept to validate again against a changed document. */
interface Exchange {
  operation: string;
  url: string;
  status: number;
  contentType: string;
  body: unknown;
}

const MOVING_ITEM = betItemId(marketId('3501', 'SOCCER_MATCH_RESULT', null), '1');
const RECORD_ID = `contract-rec-${Date.now()}`;
const UNKNOWN_EVENT = '77777777';
/** The session's webhook endpoint (its deliveries' list), stored under a known id. */
const WEBHOOK_ID = `we_contract${Date.now()}`;

/** At least one answer per GET operation of the document, keyed `GET <path>`. */
const EXAMPLES: Record<string, Example[]> = {
  'GET /v2/health': [{ url: '/v2/health', as: 'none', status: 200 }],
  'GET /v2/matches': [
    { url: '/v2/matches?status=upcoming,live,completed&limit=5&locale=es', as: 'live', status: 200 },
    { url: '/v2/matches', as: 'test', status: 200 },
    { url: '/v2/matches?limit=3', as: 'delayed', status: 503 },
  ],
  'GET /v2/matches/trending': [{ url: '/v2/matches/trending?timezone=Europe/Madrid', as: 'live', status: 200 }],
  'GET /v2/matches/live': [{ url: '/v2/matches/live?prioritize=true', as: 'live', status: 200 }],
  'GET /v2/matches/{eventId}': [
    { url: '/v2/matches/3501?locale=pt', as: 'live', status: 200 },
    { url: '/v2/matches/3502', as: 'live', status: 200 },
    { url: `/v2/matches/${UNKNOWN_EVENT}`, as: 'live', status: 404 },
  ],
  'GET /v2/matches/{eventId}/live-odds': [
    { url: '/v2/matches/3502/live-odds', as: 'live', status: 200 },
    { url: '/v2/matches/3501/live-odds', as: 'live', status: 404 },
  ],
  'GET /v2/matches/{eventId}/odds': [
    { url: `/v2/matches/3501/odds?at=${encodeURIComponent(new Date().toISOString())}`, as: 'live', status: 200 },
    { url: `/v2/matches/${UNKNOWN_EVENT}/odds?at=2024-01-01T00:00:00Z`, as: 'live', status: 404 },
  ],
  'GET /v2/competitions': [{ url: '/v2/competitions', as: 'none', status: 200 }],
  'GET /v2/regions': [{ url: '/v2/regions?locale=es', as: 'none', status: 200 }],
  'GET /v2/teams': [{ url: '/v2/teams?search=a&limit=5', as: 'live', status: 200 }],
  'GET /v2/stats': [{ url: '/v2/stats', as: 'none', status: 200 }],
  'GET /v2/ai/featured-picks': [
    { url: '/v2/ai/featured-picks?limit=3', as: 'live', status: 200 },
    { url: '/v2/ai/featured-picks', as: 'test', status: 200 },
    { url: '/v2/ai/featured-picks', as: 'delayed', status: 503 },
  ],
  'GET /v2/ai/processed-insights': [{ url: '/v2/ai/processed-insights?status=upcoming,live,completed', as: 'live', status: 200 }],
  'GET /v2/ai/value-opportunities': [{ url: '/v2/ai/value-opportunities?minEdge=1', as: 'live', status: 200 }],
  'GET /v2/ai/betting-recommendations': [{ url: '/v2/ai/betting-recommendations?limit=10', as: 'live', status: 200 }],
  'GET /v2/ai/performance': [{ url: '/v2/ai/performance?days=7', as: 'live', status: 200 }],
  'GET /v2/ai/performance/daily': [{ url: '/v2/ai/performance/daily?days=3', as: 'live', status: 200 }],
  'GET /v2/ai/track-record': [{ url: '/v2/ai/track-record?days=30', as: 'live', status: 200 }],
  'GET /v2/ai/track-record/chart.svg': [{ url: '/v2/ai/track-record/chart.svg?kind=calibration', as: 'live', status: 200 }],
  'GET /v2/ai/track-record/chain': [{ url: '/v2/ai/track-record/chain?limit=5', as: 'live', status: 200 }],
  'GET /v2/ai/track-record/heads': [{ url: '/v2/ai/track-record/heads', as: 'live', status: 200 }],
  'GET /v2/ai/track-record/{recommendationId}/proof': [
    { url: `/v2/ai/track-record/${RECORD_ID}/proof`, as: 'live', status: 200 },
    { url: '/v2/ai/track-record/rec-unknown/proof', as: 'live', status: 404 },
  ],
  'GET /v2/bets/events/{eventId}/settle-bet': [
    { url: '/v2/bets/events/3503/settle-bet', as: 'live', status: 200 },
    { url: `/v2/bets/events/${UNKNOWN_EVENT}/settle-bet`, as: 'live', status: 404 },
  ],
  'GET /v2/bets/bet-items/{betItemId}/odds-movement': [
    { url: `/v2/bets/bet-items/${MOVING_ITEM}/odds-movement`, as: 'live', status: 200 },
    { url: `/v2/bets/bet-items/${MOVING_ITEM}/odds-movement?dataSource=sim-book-b`, as: 'live', status: 404 },
  ],
  'GET /v2/stream': [
    { url: '/v2/stream?eventIds=3501', as: 'live', status: 200 },
    { url: '/v2/stream?channels=scores', as: 'test', status: 200 },
  ],
  'GET /v2/account': [{ url: '/v2/account', as: 'session', status: 200 }],
  'GET /v2/account/keys': [{ url: '/v2/account/keys', as: 'session', status: 200 }],
  'GET /v2/account/usage': [{ url: '/v2/account/usage?days=7', as: 'session', status: 200 }],
  'GET /v2/account/track-record': [{ url: '/v2/account/track-record?days=30', as: 'session', status: 200 }],
  'GET /v2/account/track-record/chart.svg': [{ url: '/v2/account/track-record/chart.svg?kind=calibration', as: 'session', status: 200 }],
  'GET /v2/account/stream': [{ url: '/v2/account/stream?eventIds=3501', as: 'session', status: 200 }],
  'GET /v2/account/webhooks': [{ url: '/v2/account/webhooks', as: 'session', status: 200 }],
  'GET /v2/account/webhooks/{id}/deliveries': [
    { url: `/v2/account/webhooks/${WEBHOOK_ID}/deliveries?limit=5`, as: 'session', status: 200 },
    { url: '/v2/account/webhooks/we_unknown/deliveries', as: 'session', status: 404 },
  ],
  'GET /v2/account/packages': [{ url: '/v2/account/packages', as: 'none', status: 200 }],
  'GET /v2/account/payment-method': [{ url: '/v2/account/payment-method', as: 'session', status: 200 }],
};

/** A parameter no operation takes: every GET validates its query, so this is its 400. */
const withUnknownParameter = (url: string) => `${url}${url.includes('?') ? '&' : '?'}contractProbe=1`;

const pointerPart = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The GET operations of a document, `GET <path>`. */
const getOperations = (document: any): string[] =>
  Object.keys(document.paths)
    .filter((p) => document.paths[p].get)
    .map((p) => `GET ${p}`);

/**
 * Every way the answers break the document: an undocumented status, a content type the status
 * does not list, a JSON body its schema refuses (each ajv error with its instance path).
 */
function violations(document: any, exchanges: readonly Exchange[]): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isValidTimeZone });
  ajv.addSchema(document, 'api');
  const out: string[] = [];
  for (const x of exchanges) {
    const path = x.operation.replace(/^GET /, '');
    const label = `${x.operation} (${x.url}) -> ${x.status}`;
    const responses = document.paths[path]?.get?.responses ?? {};
    const statusKey = [String(x.status), `${String(x.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!statusKey) {
      out.push(`${label}: status not documented (documents ${Object.keys(responses).join(', ')})`);
      continue;
    }
    const content = responses[statusKey].content ?? {};
    const media = x.contentType.split(';')[0].trim().toLowerCase();
    if (!(media in content)) {
      out.push(`${label}: content type ${media || '(none)'} not documented (documents ${Object.keys(content).join(', ') || 'no body'})`);
      continue;
    }
    // text/event-stream, SVG: the document gives no schema of their bytes to check (OpenAPI 3.1 has no event schema).
    if (media !== 'application/json') continue;
    const validate = ajv.getSchema(`api#/paths/${pointerPart(path)}/get/responses/${statusKey}/content/${pointerPart(media)}/schema`);
    if (!validate) {
      out.push(`${label}: no schema to validate against`);
      continue;
    }
    if (!validate(x.body)) for (const e of validate.errors ?? []) out.push(`${label}: ${e.instancePath || '(body)'} ${e.message} (${e.schemaPath})`);
  }
  return out;
}

describe('contract: every GET operation of the served OpenAPI document answers as it says', function () {
  this.timeout(60000);
  let api: TestServer;
  let testKey: string;
  let browser: Browser;
  let document: any;
  const exchanges: Exchange[] = [];

  /** One call as `as`, its answer kept (a stream's status and headers, then it is closed). */
  async function call(operation: string, url: string, as: Caller): Promise<Exchange> {
    const headers: Record<string, string> = {};
    if (as === 'live') headers.Authorization = `Bearer ${api.key}`;
    if (as === 'test' || as === 'delayed') headers.Authorization = `Bearer ${testKey}`;
    if (as === 'session') headers.Cookie = browser.cookie!;
    const aborted = new AbortController();
    const restore = as === 'delayed' ? overrideEnv({ TEST_KEY_SNAPSHOT_S: String(CONFIG_VARS.TEST_KEY_SNAPSHOT_S.default) }) : undefined;
    let res: Response;
    try {
      res = await fetch(api.url + url, { headers, signal: aborted.signal });
      // The keys' per-second rate limit (2/s for a test key) is hit by a run this fast; the
      // client waits as Retry-After says, as a client of the API would.
      for (let retry = 0; res.status === 429 && res.headers.get('retry-after') && retry < 5; retry++) {
        const wait = Number(res.headers.get('retry-after')) * 1000;
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, wait));
        res = await fetch(api.url + url, { headers, signal: aborted.signal });
      }
    } finally {
      restore?.();
    }
    const contentType = res.headers.get('content-type') ?? '';
    let body: unknown;
    if (contentType.startsWith('text/event-stream')) {
      aborted.abort();
    } else {
      const text = await res.text();
      try {
        body = contentType.startsWith('application/json') ? JSON.parse(text) : text;
      } catch {
        body = text;
      }
    }
    const x = { operation, url, status: res.status, contentType, body };
    exchanges.push(x);
    return x;
  }

  before(async () => {
    api = await startApi();
    await clearReadData();
    await seedReference();
    await forgetLocalFailures();
    const soon = new Date(Date.now() + 3600_000);
    await insertEvents({ id: '3501', start: soon, views: 3 }, { id: '3502', start: '2024-05-01T18:00:00Z', status: 'live' }, { id: '3503', start: '2024-04-01T18:00:00Z', status: 'completed' });
    await insertLiveSnapshot('3502', 'simulated');
    await insertLiveEventData('3502');
    await insertAiOutput('3501', soon);
    await insertSettledRecommendation('3503');
    await appendOddsHistoryIgnoringDuplicates(
      [1.9, 1.85, 1.95].map((price, i) => {
        const at = new Date(Date.now() - (3 - i) * 60_000);
        return { _id: `3501|simulated|${at.getTime()}`, eventId: '3501', dataSource: 'simulated', at, items: [{ id: MOVING_ITEM, price }] };
      }),
    );
    await appendCommitments(processContext(), [{ kind: 'recommendation', recordId: RECORD_ID, record: canonicalize({ id: RECORD_ID, odds: 2.05 }) }]);
    await bumpCacheVersion('events', 'competitions');
    const account = await createAccount(processContext(), { name: 'contract test keys' });
    await addCredits(processContext(), { accountId: String(account.id), packageCredits: 20000 });
    testKey = (await createKey(processContext(), { accountId: String(account.id), name: 'contract', mode: 'test' })).key;
    browser = new Browser(api.url);
    const signedUp = await browser.signup();
    expect(signedUp.status, JSON.stringify(signedUp.body)).to.equal(201);
    await processContext().webhooks.createEndpoint({ _id: WEBHOOK_ID, accountId: signedUp.body.account.id, url: 'https://93.184.216.34/hooks', events: ['balance.low'], secret: newSecret() });
    const served = await fetch(`${api.url}/v2/openapi.json`);
    expect(served.status).to.equal(200);
    document = await served.json();
  });
  after(() => api?.close());

  it('happy: Redocly lint (recommended rules) finds no error and no warning in the served document, and does find planted ones', async () => {
    const planted = structuredClone(document);
    delete planted.info.license;
    planted.paths['/v2/account/packages'].get.responses = { 200: planted.paths['/v2/account/packages'].get.responses['200'] };
    const [served, broken] = await Promise.all([lintDocument(document), lintDocument(planted)]);
    expect(served.map(describeProblem)).to.deep.equal([]);
    expect(broken.map((p) => `${p.severity} ${p.ruleId}`).sort()).to.deep.equal(['warn info-license', 'warn operation-4xx-response']);
  });

  it('happy: every GET operation answers its 2xx, a 400, a 401 without credentials and its examples, each as documented', async () => {
    const operations = getOperations(document);
    // An operation of the document without an example fails here, as does an example of none.
    expect(
      operations.filter((op) => !EXAMPLES[op]),
      'GET operations without an example',
    ).to.deep.equal([]);
    expect(
      Object.keys(EXAMPLES).filter((op) => !operations.includes(op)),
      'examples of no operation',
    ).to.deep.equal([]);
    const wrongStatus: string[] = [];
    const expectStatus = (x: Exchange, status: number) => {
      if (x.status !== status) wrongStatus.push(`${x.operation} (${x.url}): ${x.status}, not ${status}: ${JSON.stringify(x.body)?.slice(0, 200)}`);
    };
    for (const op of operations) {
      const examples = EXAMPLES[op];
      for (const e of examples) expectStatus(await call(op, e.url, e.as), e.status);
      const ok = examples.find((e) => e.status < 300)!;
      expect(ok, `${op}: an example answering 2xx`).to.not.equal(undefined);
      expectStatus(await call(op, withUnknownParameter(ok.url), ok.as), 400);
      const security = (document.paths[op.replace(/^GET /, '')].get.security ?? []) as Record<string, unknown>[];
      if (security.length) expectStatus(await call(op, ok.url, 'none'), 401);
    }
    const found = violations(document, exchanges);
    expect(wrongStatus, 'answers of another status than expected').to.deep.equal([]);
    expect(found, `${found.length} violations of the served document`).to.deep.equal([]);
    // Every operation had a 2xx and a 400 checked; every keyed or signed-in one a 401.
    for (const op of operations) {
      const statuses = new Set(exchanges.filter((x) => x.operation === op).map((x) => x.status));
      expect([...statuses].some((s) => s < 300) && statuses.has(400), `${op}: ${[...statuses].join(', ')}`).to.equal(true);
    }
  });

  it('error: the validator reports a planted wrong schema, an undocumented status and an undocumented content type', () => {
    expect(exchanges.length, 'the answers of the test above').to.be.greaterThan(100);
    const planted = structuredClone(document);
    planted.components.schemas.Error.properties.statusCode = { type: 'string' };
    delete planted.paths['/v2/account/packages'].get.responses['200'];
    planted.paths['/v2/ai/track-record/chart.svg'].get.responses['200'].content = { 'image/png': { schema: { type: 'string' } } };
    const found = violations(planted, exchanges);
    const jsonErrors = exchanges.filter((x) => x.status >= 400 && x.contentType.startsWith('application/json'));
    expect(jsonErrors.length).to.be.greaterThan(60);
    expect(found.filter((v) => v.includes(': /statusCode must be string'))).to.have.length(jsonErrors.length);
    expect(found).to.include('GET /v2/account/packages (/v2/account/packages) -> 200: status not documented (documents 400, 429)');
    expect(found).to.include('GET /v2/ai/track-record/chart.svg (/v2/ai/track-record/chart.svg?kind=calibration) -> 200: content type image/svg+xml not documented (documents image/png)');
  });
});
