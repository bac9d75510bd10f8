import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { createClient, credits, type OddsClient, type operations } from '../../../clients/typescript/src/index';
import { appendCommitments } from '../../../shared/app/commitments/append';
import { processContext } from '../../../shared/app/processContext';
import { canonicalize } from '../../../shared/domain/commitments/canonical';
import { isValidTimeZone } from '../../../shared/domain/days';
import { betItemId, marketId } from '../../../shared/domain/markets/catalog';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { appendOddsHistoryIgnoringDuplicates } from '../../../shared/platform/db/repositories/events';
import { appendChanges } from '../../../shared/platform/feed/changeFeed';
import { setEnvForChildren } from '../../../shared/platform/config';
import { insertAiOutput, insertEvents, insertLiveEventData, insertLiveSnapshot, insertSettledRecommendation } from '../../helpers/fixtures';
import { readApiWith, type ReadApi } from '../../helpers/readApi';
import { forgetLocalFailures, PASSWORD, uniqueEmail } from '../account/client';

/** What one typed call answered: its status, content type and body (undefined for 204). */
interface Answer {
  status: number;
  response: Response;
  body: unknown;
}

type Result = { data?: unknown; error?: unknown; response: Response };
const settle = ({ data, error, response }: Result): Answer => ({ status: response.status, response, body: data ?? error });
const answer = async (call: Promise<Result>): Promise<Answer> => settle(await call);

const MOVING_ITEM = betItemId(marketId('2401', 'SOCCER_MATCH_RESULT', null), '1');

/** The operations a client calls: the document's `webhooks` are requests the service makes to its customers. */
type Called = Exclude<keyof operations, `webhook_${string}`>;

/**
 * The typed client (clients/typescript) against the real app: every operation of the OpenAPI
 * document is called through it with valid parameters (keyed by operationId, so a new operation
 * without a call here fails the type check and this test), each answers 2xx, and its body
 * validates against the document's schema of that status.
 */
describe('typed client: every endpoint of the document through @odds-ai/client', function () {
  this.timeout(60000);
  let api: ReadApi;
  let client: OddsClient;
  let session: OddsClient;
  let cookie: string | undefined;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isValidTimeZone });
  const recordId = `client-rec-${Date.now()}`;
  const email = uniqueEmail('client');
  let csrf = '';
  let keyId = '';
  let setupId = '';
  let webhookId = '';
  let deliveryId = '';

  before(async () => {
    setEnvForChildren({ STREAM_POLL_MS: '100' });
    api = await readApiWith();
    ajv.addSchema(api.document, 'api');
    await forgetLocalFailures();
    const soon = new Date(Date.now() + 3600_000);
    await insertEvents({ id: '2401', start: soon, views: 3 }, { id: '2402', start: '2024-05-01T18:00:00Z', status: 'live' }, { id: '2403', start: '2024-04-01T18:00:00Z', status: 'completed' });
    await insertLiveSnapshot('2402', 'simulated');
    await insertLiveEventData('2402');
    await insertAiOutput('2401', soon);
    await appendOddsHistoryIgnoringDuplicates(
      [1.9, 1.85, 1.95].map((price, i) => {
        const at = new Date(Date.now() - (3 - i) * 60_000);
        return { _id: `2401|simulated|${at.getTime()}`, eventId: '2401', dataSource: 'simulated', at, items: [{ id: MOVING_ITEM, price }] };
      }),
    );
    await insertSettledRecommendation('2403');
    await appendCommitments(processContext(), [{ kind: 'recommendation', recordId, record: canonicalize({ id: recordId, odds: 2.05 }) }]);
    await bumpCacheVersion('events', 'competitions');
    client = createClient({ baseUrl: api.url, apiKey: api.key });
    // The account API's session: a fetch that keeps the cookie, as a browser does.
    session = createClient({
      baseUrl: api.url,
      fetch: async (input, init) => {
        const req = new Request(input, init);
        if (cookie) req.headers.set('Cookie', cookie);
        const res = await fetch(req);
        const set = /^odds_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
        if (set !== undefined) cookie = set ? `odds_session=${set}` : undefined;
        return res;
      },
    });
  });
  after(() => api?.close());

  const csrfHeader = () => ({ 'X-CSRF-Token': csrf });

  /** One call per operation of the document, in this order (the account API's in a session's order). */
  const calls: { [K in Called]: () => Promise<Answer> } = {
    health: () => answer(client.GET('/v2/health')),
    listMatches: () => answer(client.GET('/v2/matches', { params: { query: { status: ['upcoming', 'live', 'completed'], limit: 5, locale: 'es' } } })),
    trendingMatches: () => answer(client.GET('/v2/matches/trending', { params: { query: { timezone: 'Europe/Madrid' } } })),
    liveMatches: () => answer(client.GET('/v2/matches/live', { params: { query: { prioritize: true } } })),
    matchDetail: () => answer(client.GET('/v2/matches/{eventId}', { params: { path: { eventId: '2401' }, query: { locale: 'pt' } } })),
    liveOdds: () => answer(client.GET('/v2/matches/{eventId}/live-odds', { params: { path: { eventId: '2402' } } })),
    matchOddsAt: () => answer(client.GET('/v2/matches/{eventId}/odds', { params: { path: { eventId: '2401' }, query: { at: new Date().toISOString() } } })),
    listCompetitions: () => answer(client.GET('/v2/competitions')),
    listRegions: () => answer(client.GET('/v2/regions', { params: { query: { locale: 'en' } } })),
    searchTeams: () => answer(client.GET('/v2/teams', { params: { query: { search: 'a', limit: 5 } } })),
    systemStats: () => answer(client.GET('/v2/stats')),
    featuredPicks: () => answer(client.GET('/v2/ai/featured-picks', { params: { query: { limit: 3 } } })),
    processedInsights: () => answer(client.GET('/v2/ai/processed-insights', { params: { query: { status: ['upcoming', 'live', 'completed'] } } })),
    valueOpportunities: () => answer(client.GET('/v2/ai/value-opportunities', { params: { query: { minEdge: 1 } } })),
    bettingRecommendations: () => answer(client.GET('/v2/ai/betting-recommendations', { params: { query: { limit: 10 } } })),
    performance: () => answer(client.GET('/v2/ai/performance', { params: { query: { days: 7 } } })),
    performanceDaily: () => answer(client.GET('/v2/ai/performance/daily', { params: { query: { days: 3 } } })),
    trackRecord: () => answer(client.GET('/v2/ai/track-record', { params: { query: { days: 30 } } })),
    trackRecordChart: () => answer(client.GET('/v2/ai/track-record/chart.svg', { params: { query: { kind: 'calibration' } }, parseAs: 'text' })),
    trackRecordChain: () => answer(client.GET('/v2/ai/track-record/chain', { params: { query: { limit: 5 } } })),
    trackRecordHeads: () => answer(client.GET('/v2/ai/track-record/heads')),
    trackRecordProof: () => answer(client.GET('/v2/ai/track-record/{recommendationId}/proof', { params: { path: { recommendationId: recordId } } })),
    settleBet: () => answer(client.GET('/v2/bets/events/{eventId}/settle-bet', { params: { path: { eventId: '2403' } } })),
    oddsMovement: () => answer(client.GET('/v2/bets/bet-items/{betItemId}/odds-movement', { params: { path: { betItemId: MOVING_ITEM } } })),
    stream: async () => {
      // The stream's 200 is text/event-stream: a change appended after it opens arrives typed.
      const s = client.stream({ eventIds: ['2401'], retryMs: 100 });
      const it = s[Symbol.asyncIterator]();
      const first = it.next();
      await new Promise((r) => setTimeout(r, 300));
      await appendChanges('client-test', `e${Date.now()}`, [{ eventId: '2401', kind: 'score', at: new Date(), data: { home: 1, away: 0 }, provider: 'simulated' }]);
      const { value } = await first;
      s.close();
      expect(value).to.deep.include({ type: 'change', channel: 'scores', kind: 'score', eventId: '2401', data: { home: 1, away: 0 } });
      return { status: 200, response: new Response(null, { headers: { 'content-type': 'text/event-stream' } }), body: undefined };
    },
    accountSignup: async () => {
      const r = await session.POST('/v2/account/signup', { body: { email, password: PASSWORD } });
      csrf = r.data?.csrfToken ?? '';
      return settle(r);
    },
    accountLogin: async () => {
      const r = await session.POST('/v2/account/login', { body: { email, password: PASSWORD } });
      csrf = r.data?.csrfToken ?? '';
      return settle(r);
    },
    accountLogout: () => answer(session.POST('/v2/account/logout', { params: { header: csrfHeader() } })),
    accountGet: () => answer(session.GET('/v2/account')),
    accountKeysList: () => answer(session.GET('/v2/account/keys')),
    accountKeysCreate: async () => {
      const r = await session.POST('/v2/account/keys', { params: { header: csrfHeader() }, body: { name: 'typed client', mode: 'test' } });
      keyId = r.data?.id ?? '';
      return settle(r);
    },
    accountKeysRevoke: () => answer(session.DELETE('/v2/account/keys/{id}', { params: { path: { id: keyId }, header: csrfHeader() } })),
    accountUsage: () => answer(session.GET('/v2/account/usage', { params: { query: { days: 7 } } })),
    accountTrackRecord: () => answer(session.GET('/v2/account/track-record', { params: { query: { days: 30 } } })),
    accountTrackRecordChart: () => answer(session.GET('/v2/account/track-record/chart.svg', { params: { query: { kind: 'calibration' } }, parseAs: 'text' })),
    accountStream: async () => {
      // The session's stream (the dashboard's Live page): a change appended after it opens arrives.
      const r = await session.GET('/v2/account/stream', { params: { query: { eventIds: ['2401'] } }, parseAs: 'stream' });
      const reader = r.data?.getReader();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await appendChanges('client-test', `s${Date.now()}`, [{ eventId: '2401', kind: 'score', at: new Date(), data: { home: 2, away: 0 }, provider: 'simulated' }]);
      let text = '';
      while (reader && !text.includes('event: scores')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader?.cancel();
      expect(text).to.include('event: scores');
      return { status: r.response.status, response: r.response, body: undefined };
    },
    accountPackages: () => answer(session.GET('/v2/account/packages')),
    accountPurchase: () => answer(session.POST('/v2/account/purchases', { params: { header: { ...csrfHeader(), 'Idempotency-Key': `client-${email}` } }, body: { package: 20000 } })),
    accountPaymentMethodGet: () => answer(session.GET('/v2/account/payment-method')),
    accountPaymentMethodSetup: async () => {
      const r = await session.POST('/v2/account/payment-method', { params: { header: csrfHeader() }, body: { testCard: 'pm_card_visa' } });
      setupId = r.data?.setup.id ?? '';
      return settle(r);
    },
    accountPaymentMethodRemove: () => answer(session.DELETE('/v2/account/payment-method', { params: { header: csrfHeader() } })),
    accountPaymentMethodConfirm: () => answer(session.POST('/v2/account/payment-method/confirm', { params: { header: csrfHeader() }, body: { setupId } })),
    accountAutoRechargeSet: () => answer(session.PUT('/v2/account/auto-recharge', { params: { header: csrfHeader() }, body: { threshold: 1000, package: 100000 } })),
    accountAutoRechargeOff: () => answer(session.DELETE('/v2/account/auto-recharge', { params: { header: csrfHeader() } })),
    accountWebhooksCreate: async () => {
      // A public address: nothing is delivered here (no delivery worker runs), the endpoint is only managed.
      const r = await session.POST('/v2/account/webhooks', { params: { header: csrfHeader() }, body: { url: 'https://93.184.216.34/hooks', events: ['recommendation.created', 'balance.low'] } });
      webhookId = r.data?.id ?? '';
      return settle(r);
    },
    accountWebhooksList: () => answer(session.GET('/v2/account/webhooks')),
    accountWebhooksTest: async () => {
      const r = await session.POST('/v2/account/webhooks/{id}/test', { params: { path: { id: webhookId }, header: csrfHeader() } });
      deliveryId = r.data?.deliveryId ?? '';
      return settle(r);
    },
    accountWebhooksDeliveries: () => answer(session.GET('/v2/account/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { limit: 5 } } })),
    accountWebhooksRedeliver: () => answer(session.POST('/v2/account/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: webhookId, deliveryId }, header: csrfHeader() } })),
    accountWebhooksRotateSecret: () => answer(session.POST('/v2/account/webhooks/{id}/rotate-secret', { params: { path: { id: webhookId }, header: csrfHeader() } })),
    accountWebhooksEnable: () => answer(session.POST('/v2/account/webhooks/{id}/enable', { params: { path: { id: webhookId }, header: csrfHeader() } })),
    accountWebhooksDelete: () => answer(session.DELETE('/v2/account/webhooks/{id}', { params: { path: { id: webhookId }, header: csrfHeader() } })),
  };

  /** The session's order: signed up, signed in, a key made and revoked, a card saved and used, signed out last. */
  const ORDER: Called[] = [
    'accountSignup',
    'accountLogin',
    'accountGet',
    'accountKeysCreate',
    'accountKeysList',
    'accountKeysRevoke',
    'accountWebhooksCreate',
    'accountWebhooksList',
    'accountWebhooksTest',
    'accountWebhooksDeliveries',
    'accountWebhooksRedeliver',
    'accountWebhooksRotateSecret',
    'accountWebhooksEnable',
    'accountWebhooksDelete',
    'accountUsage',
    'accountTrackRecord',
    'accountTrackRecordChart',
    'accountStream',
    'accountPackages',
    'accountPaymentMethodSetup',
    'accountPaymentMethodConfirm',
    'accountPaymentMethodGet',
    'accountPurchase',
    'accountAutoRechargeSet',
    'accountAutoRechargeOff',
    'accountPaymentMethodRemove',
    'accountLogout',
  ];

  it('happy: every operation of /v2/openapi.json answers 2xx through the typed client, its body as the document describes it', async () => {
    const operationsOf = new Map<string, { path: string; method: string; operation: any }>();
    for (const [path, item] of Object.entries<any>(api.document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) operationsOf.set(operation.operationId, { path, method, operation });
    }
    // The document and the client's calls name the same operations: none without a call, none stale.
    expect([...operationsOf.keys()].sort()).to.deep.equal(Object.keys(calls).sort());
    const isOperation = (id: string): id is Called => Object.hasOwn(calls, id);
    const order = [
      ...Object.keys(calls)
        .filter(isOperation)
        .filter((id) => !ORDER.includes(id)),
      ...ORDER,
    ];
    const validators = new Map<string, ValidateFunction>();
    for (const id of order) {
      const entry = operationsOf.get(id);
      if (!entry) throw new Error(`${id} is not in the document`);
      const { path, method, operation } = entry;
      const got = await calls[id]();
      const label = `${method.toUpperCase()} ${path} (${id})`;
      expect(got.status, `${label}: ${JSON.stringify(got.body)}`).to.be.within(200, 299);
      const documented = operation.responses[String(got.status)];
      expect(documented, `${label} documents ${got.status}`).to.not.equal(undefined);
      const type = got.response.headers.get('content-type') ?? '';
      if (got.status === 204) continue;
      const mediaType = Object.keys(documented.content)[0];
      expect(type.split(';')[0], label).to.equal(mediaType);
      if (mediaType !== 'application/json') continue;
      const pointer = `api#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${got.status}/content/application~1json/schema`;
      const validate = validators.get(pointer) ?? ajv.getSchema(pointer);
      if (!validate) throw new Error(`no schema for ${label} ${got.status}`);
      validators.set(pointer, validate);
      expect(validate(got.body), `${label} does not match the document: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
    }
  });

  it('happy: a metered answer reports its credits; a refusal is the typed error shape', async () => {
    const { data, response } = await client.GET('/v2/matches/{eventId}', { params: { path: { eventId: '2401' } } });
    expect(data).to.not.equal(undefined);
    const spent = credits(response);
    expect(spent.consumed).to.equal(1);
    expect(spent.remaining).to.be.a('number');
    const missing = await client.GET('/v2/matches/{eventId}', { params: { path: { eventId: '77777777' } } });
    expect(missing.response.status).to.equal(404);
    expect(missing.error).to.deep.include({ statusCode: 404, code: 'not_found' });
    const keyless = createClient({ baseUrl: api.url });
    const refused = await keyless.GET('/v2/matches');
    expect(refused.error).to.deep.include({ statusCode: 401, code: 'invalid_api_key' });
  });
});
