import { resolve } from 'node:path';
import { expect } from 'chai';
import { aiQueue } from '../../../jobs/ai';
import { queueFor } from '../../../shared/platform/queues/client';
import { settlementQueue } from '../../../jobs/settlement';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { overrideEnv } from '../../../shared/platform/config';
import { syncWorldClock, worldNow } from '../../../shared/platform/clock/worldClock';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { evaluateScenarioEvent, loadScenario, type Scenario, type ScenarioEvent } from '../../../shared/platform/providers/simulated/scenario';
import { clearIngested, nextSlot } from '../../helpers/ingest';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { readApi, type ReadApi } from '../../helpers/readApi';

/**
 * GET /v2/matches/{eventId}/odds?at=: the simulated provider plays docs/scenarios/odds-history.json
 * through the real poll at known instants; the API then serves the prices of any instant, which
 * must be the scenario's as of the latest poll at or before it.
 */
const SCENARIO = resolve(__dirname, '../../../docs/scenarios/odds-history.json');
const EVENT = '7300001';
const T = (hhmm: string) => new Date(`2026-10-03T${hhmm}:00Z`);
const iso = (hhmm: string) => T(hhmm).toISOString();

const MR = `${EVENT}-SOCCER_MATCH_RESULT`;
const OU = `${EVENT}-SOCCER_UNDER_OVER@2.5`;
const BTTS = `${EVENT}-SOCCER_BOTH_TEAMS_TO_SCORE`;

/** The scenario's prices, market by market (outcome codes in catalog order), at each stored instant. */
const PRE_MATCH = { [MR]: [2.0, 3.4, 3.9], [OU]: [1.9, 1.9], [BTTS]: [1.8, 2.0] };
const AT_1300 = { ...PRE_MATCH, [MR]: [1.95, 3.5, 4.0] };
const AT_1340 = { ...AT_1300, [OU]: [1.85, 1.95] };
const AT_1415 = { ...AT_1340, [MR]: [1.6, 4.0, 6.0] };
const AT_1435 = { ...AT_1415, [BTTS]: [1.5, 2.6] };

/** Polls (the instants the provider is read at); a stored instant is a poll that saw a price move. */
const POLLS = ['12:00', '12:30', '13:00', '13:40', '14:05', '14:15', '14:35', '17:00'];
const STORED = ['12:00', '13:00', '13:40', '14:15', '14:35'];

interface Market {
  id: string;
  betItems: { code: string; price: number; isAvailable: boolean }[];
}

const pricesOf = (markets: Market[]) => Object.fromEntries(markets.map((m) => [m.id, m.betItems.map((i) => i.price)]));

describe('GET /v2/matches/{eventId}/odds?at=: odds at any past instant, from a scripted scenario', function () {
  this.timeout(120_000);
  let api: ReadApi;
  let handle: ProviderHandle;
  let scenario: Scenario;
  let event: ScenarioEvent;
  /** The markets the detail view served right after the 14:35 poll (the last reprice). */
  let detailAt1435: unknown;
  const odds = (at: string, headers?: Record<string, string>) => api.get(`/v2/matches/${EVENT}/odds?at=${encodeURIComponent(at)}`, headers);
  const data = async (at: string) => {
    const res = await odds(at);
    expect(res.status, at).to.equal(200);
    return res.body.data;
  };

  before(async () => {
    api = await readApi();
    await clearIngested();
    scenario = loadScenario(SCENARIO);
    event = scenario.events[0];
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario }));
    for (const hhmm of POLLS) {
      const outcome = await pollProvider(processContext(), handle, { slot: nextSlot(), at: T(hhmm), settlementDelayMs: () => 150_000 });
      expect(outcome.status, hhmm).to.equal('ok');
      if (hhmm === '14:35') {
        const detail = await api.get(`/v2/matches/${EVENT}`);
        detailAt1435 = detail.body.data.markets;
      }
    }
  });
  after(async () => {
    handle?.breaker.shutdown();
    await queueFor(settlementQueue).obliterate({ force: true });
    await queueFor(aiQueue).obliterate({ force: true });
    await clearIngested();
    await api.close();
  });

  describe('happy', () => {
    const cases: { at: string; capturedAt: string | null; previousAt: string | null; nextAt: string | null; prices: Record<string, number[]> }[] = [
      { at: '11:00', capturedAt: null, previousAt: null, nextAt: '12:00', prices: {} },
      { at: '12:00', capturedAt: '12:00', previousAt: null, nextAt: '13:00', prices: PRE_MATCH },
      { at: '12:30', capturedAt: '12:00', previousAt: null, nextAt: '13:00', prices: PRE_MATCH },
      { at: '12:59', capturedAt: '12:00', previousAt: null, nextAt: '13:00', prices: PRE_MATCH },
      { at: '13:00', capturedAt: '13:00', previousAt: '12:00', nextAt: '13:40', prices: AT_1300 },
      { at: '13:40', capturedAt: '13:40', previousAt: '13:00', nextAt: '14:15', prices: AT_1340 },
      { at: '14:05', capturedAt: '13:40', previousAt: '13:00', nextAt: '14:15', prices: AT_1340 },
      { at: '14:15', capturedAt: '14:15', previousAt: '13:40', nextAt: '14:35', prices: AT_1415 },
      { at: '14:35', capturedAt: '14:35', previousAt: '14:15', nextAt: null, prices: AT_1435 },
      { at: '16:59', capturedAt: '14:35', previousAt: '14:15', nextAt: null, prices: AT_1435 },
    ];
    for (const c of cases) {
      it(`happy: at ${c.at} the scenario's prices as of ${c.capturedAt ?? 'nothing stored yet'}, with the stored instants around it`, async () => {
        const d = await data(iso(c.at));
        expect(d).to.deep.include({
          eventId: EVENT,
          dataSource: 'simulated',
          at: iso(c.at),
          capturedAt: c.capturedAt && iso(c.capturedAt),
          previousAt: c.previousAt && iso(c.previousAt),
          nextAt: c.nextAt && iso(c.nextAt),
          firstCapturedAt: iso('12:00'),
          reason: c.capturedAt ? null : 'before_first_capture',
        });
        expect(pricesOf(d.markets)).to.deep.equal(c.prices);
      });
    }

    it("happy: at every poll instant the prices served are the provider's own at that instant (the scenario evaluated there)", async () => {
      for (const hhmm of POLLS.filter((p) => p < '14:40')) {
        const feed = evaluateScenarioEvent(scenario, event, T(hhmm).getTime()).odds;
        expect(feed, hhmm).to.not.equal(null);
        const want = Object.fromEntries((feed?.markets ?? []).map((m) => [m.line === null ? `${EVENT}-${m.betTypeSysname}` : `${EVENT}-${m.betTypeSysname}@${m.line}`, m.items.map((i) => i.price)]));
        expect(pricesOf((await data(iso(hhmm))).markets), hhmm).to.deep.equal(want);
      }
    });

    it('happy: a millisecond before a stored instant is the state before it; the instant itself is the new state', async () => {
      const before = await data(new Date(T('14:15').getTime() - 1).toISOString());
      const exactly = await data('2026-10-03T16:15:00+02:00');
      expect([before.capturedAt, before.nextAt]).to.deep.equal([iso('13:40'), iso('14:15')]);
      expect(pricesOf(before.markets)).to.deep.equal(AT_1340);
      expect([exactly.at, exactly.capturedAt]).to.deep.equal([iso('14:15'), iso('14:15')]);
      expect(pricesOf(exactly.markets)).to.deep.equal(AT_1415);
    });

    it('happy: nextAt and previousAt walk every stored instant, forwards and backwards', async () => {
      const forwards: string[] = [];
      let next: string | null = (await data(iso('11:00'))).nextAt;
      while (next) {
        const d = await data(next);
        forwards.push(d.capturedAt);
        next = d.nextAt;
      }
      expect(forwards).to.deep.equal(STORED.map(iso));
      const backwards: string[] = [];
      let at: string | null = iso('23:00');
      while (at) {
        const d = await data(at);
        backwards.push(d.capturedAt);
        at = d.previousAt;
      }
      expect(backwards).to.deep.equal(STORED.map(iso).reverse());
    });

    it("happy: before the first stored price: no markets, nothing captured, the first instant next, the reason and the world clock's now", async () => {
      const asked = Date.now();
      const { worldNow: now, ...d } = await data('2020-01-01T00:00:00Z');
      expect(d).to.deep.equal({
        eventId: EVENT,
        dataSource: 'simulated',
        at: '2020-01-01T00:00:00.000Z',
        capturedAt: null,
        previousAt: null,
        nextAt: iso('12:00'),
        firstCapturedAt: iso('12:00'),
        reason: 'before_first_capture',
        markets: [],
        closingLine: null,
      });
      // This file's world runs on the wall clock (SIM_SPEED 1, no SIM_EPOCH): its now is the wall clock's.
      expect(Date.parse(now)).to.be.within(asked - 1000, Date.now() + 1000);
    });

    it('happy: the closing line from kickoff on (the last pre-match prices, captured at kickoff), none before it', async () => {
      expect((await data(new Date(T('14:00').getTime() - 1).toISOString())).closingLine).to.equal(null);
      expect((await data(iso('13:40'))).closingLine).to.equal(null);
      for (const hhmm of ['14:00', '14:15', '16:59']) {
        const closing = (await data(iso(hhmm))).closingLine;
        expect(closing.capturedAt, hhmm).to.equal(iso('14:00'));
        expect(pricesOf(closing.markets), hhmm).to.deep.equal(AT_1340);
        expect(closing.markets.flatMap((m: Market) => m.betItems.map((i) => i.isAvailable))).to.satisfy((a: boolean[]) => a.every(Boolean));
      }
    });

    it("happy: the markets in the detail view's shape: at the last reprice they equal what the detail served then", async () => {
      const d = await data(iso('14:35'));
      expect(d.markets).to.deep.equal(detailAt1435);
      const localized = (await api.get(`/v2/matches/${EVENT}/odds?at=${iso('14:35')}&locale=es`)).body.data.markets.find((m: Market) => m.id === OU);
      expect(localized.caption).to.match(/Goles/i);
      expect(localized.betItems.map((i: { caption: string }) => i.caption)).to.deep.equal(['Más de 2.5', 'Menos de 2.5']);
    });

    it('happy: available while the event is open, unavailable from the instant it ended (every market closes then)', async () => {
      const endedAt = evaluateScenarioEvent(scenario, event, T('17:00').getTime()).event.endedAt;
      expect(endedAt).to.be.instanceOf(Date);
      const ended = endedAt ?? T('17:00');
      const open = await data(new Date(ended.getTime() - 1).toISOString());
      const closed = await data(ended.toISOString());
      expect(open.markets.flatMap((m: Market) => m.betItems.map((i) => i.isAvailable))).to.satisfy((a: boolean[]) => a.length === 7 && a.every(Boolean));
      expect(closed.markets.flatMap((m: Market) => m.betItems.map((i) => i.isAvailable))).to.satisfy((a: boolean[]) => a.length === 7 && a.every((x) => !x));
      expect(pricesOf(closed.markets)).to.deep.equal(AT_1435);
    });

    it('happy: metered like the event detail: 1 credit, X-Credits-Consumed and X-Credits-Remaining say so; x-credits 1 in the OpenAPI document', async () => {
      const first = await odds(iso('13:00'));
      const second = await odds(iso('13:00'));
      const detail = await api.get(`/v2/matches/${EVENT}`);
      for (const res of [first, second, detail]) expect(res.headers.get('x-credits-consumed')).to.equal('1');
      expect(Number(second.headers.get('x-credits-remaining'))).to.equal(Number(first.headers.get('x-credits-remaining')) - 1);
      expect(Number(detail.headers.get('x-credits-remaining'))).to.equal(Number(second.headers.get('x-credits-remaining')) - 1);
      const op = api.document.paths['/v2/matches/{eventId}/odds'].get;
      expect(op['x-credits']).to.equal(api.document.paths['/v2/matches/{eventId}'].get['x-credits']).and.to.equal(1);
      expect(op.parameters.find((p: { name: string }) => p.name === 'at')).to.deep.include({ in: 'query', required: true });
      expect(op.parameters.find((p: { name: string }) => p.name === 'at').schema).to.include({ type: 'string', format: 'date-time' });
      expect(Object.keys(op.responses)).to.include.members(['200', '400', '401', '402', '403', '404']);
      const costs = await api.get('/v2/costs');
      expect(costs.body.data.find((r: { path: string }) => r.path === '/v2/matches/{eventId}/odds')).to.include({ credits: 1, keyRequired: true });
    });
  });

  describe('happy: the world clock (a demo deployment, SIM_SPEED 120 from SIM_EPOCH)', () => {
    const EPOCH = Date.parse('2026-10-03T16:00:00Z');
    let restoreEnv: () => void;
    /** The wall-clock span in which the world clock was anchored at EPOCH. */
    let anchored: [number, number];
    before(async () => {
      restoreEnv = overrideEnv({ SIM_SPEED: '120', SIM_EPOCH: new Date(EPOCH).toISOString() });
      const from = Date.now();
      await syncWorldClock();
      anchored = [from, Date.now()];
    });
    after(async () => {
      restoreEnv();
      await syncWorldClock();
    });

    it("happy: worldNow is the world clock's now, not the wall clock's: the epoch plus 120 times the real time since", async () => {
      const before = Date.now();
      const d = await data(iso('14:35'));
      const after = Date.now();
      const now = Date.parse(d.worldNow);
      expect(now).to.be.within(EPOCH + (before - anchored[1]) * 120, EPOCH + (after - anchored[0]) * 120);
      expect(Math.abs(now - after), 'the wall clock').to.be.above(86_400_000);
    });

    it('happy: an instant taken from worldNow (its minute ago) is served the prices stored by then', async () => {
      const now = Date.parse((await data(iso('12:00'))).worldNow);
      const d = await data(new Date(now - 60_000).toISOString());
      expect([d.capturedAt, d.reason]).to.deep.equal([iso('14:35'), null]);
      expect(pricesOf(d.markets)).to.deep.equal(AT_1435);
    });

    it("error: the wall clock's minute ago is after the world's now: a 400 naming the world clock's now, never charged", async () => {
      const res = await odds(new Date(Date.now() - 60_000).toISOString());
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_parameter' });
      const named = /now is (\S+) on the world clock/.exec(res.body.message);
      expect(named, res.body.message).to.not.equal(null);
      expect(Date.parse(named?.[1] ?? '')).to.be.below(Date.now() - 86_400_000);
      expect(res.headers.get('x-credits-consumed')).to.equal('0');
    });
  });

  describe('error', () => {
    const bad: [string, RegExp][] = [
      ['', /missing query parameter "at"/],
      ['?at=', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=yesterday', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=2026-10-03', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=2026-10-03T13:00:00', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=2026-02-30T13:00:00Z', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=2016-12-31T23:59:60Z', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=1791032400000', /at must be an ISO 8601 date-time with a time zone/],
      ['?at=2026-10-03T13:00:00Z&locale=fr', /locale must be one of en, es, pt/],
      ['?at=2026-10-03T13:00:00Z&dataSource=simbook-a', /unknown query parameter "dataSource"/],
    ];
    for (const [query, message] of bad) {
      it(`error: ${query || 'no at'} is a 400 naming the parameter, never charged`, async () => {
        const res = await api.get(`/v2/matches/${EVENT}/odds${query}`);
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ statusCode: 400, error: 'Bad Request', code: 'invalid_parameter' });
        expect(res.body.message).to.match(message);
        expect(res.headers.get('x-credits-consumed')).to.equal('0');
      });
    }

    it('error: an instant in the future is a 400 saying so, never charged', async () => {
      const res = await odds(new Date(worldNow().getTime() + 3_600_000).toISOString());
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/at must not be in the future \(now is \d{4}-\d\d-\d\dT/);
      expect(res.headers.get('x-credits-consumed')).to.equal('0');
    });

    it('error: an unknown event is a 404, never charged; a malformed id is a 400', async () => {
      const missing = await api.get(`/v2/matches/99999999/odds?at=${iso('13:00')}`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.include({ statusCode: 404, code: 'not_found', message: 'Event 99999999 not found' });
      expect(missing.headers.get('x-credits-consumed')).to.equal('0');
      const malformed = await api.get(`/v2/matches/${EVENT}-slug/odds?at=${iso('13:00')}`);
      expect(malformed.status).to.equal(400);
      expect(malformed.body.message).to.match(/eventId/);
    });
  });

  describe('security', () => {
    it('security: no key or a made-up key is a 401 and serves nothing', async () => {
      for (const headers of [{ Authorization: '' }, bearer('sk_live_' + 'x'.repeat(32))]) {
        const res = await odds(iso('13:00'), headers);
        expect(res.status).to.equal(401);
        expect(res.body.data).to.equal(undefined);
      }
    });

    it('security: query operators, repeated and nested values are 400s before any database access', async () => {
      for (const query of ['?at[$gt]=2026-10-03T13:00:00Z', '?at=2026-10-03T13:00:00Z&at=2026-10-03T14:00:00Z', '?at=%7B%22%24gt%22%3A1%7D', `?at=${'9'.repeat(5000)}`]) {
        const res = await api.get(`/v2/matches/${EVENT}/odds${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.headers.get('x-credits-consumed'), query).to.equal('0');
      }
    });

    it('security: a bad instant is a 400 even on an empty balance (validated before the debit); a good one is refused for credits', async () => {
      const { key } = await accountWithKey(0);
      const future = await odds(new Date(worldNow().getTime() + 3_600_000).toISOString(), bearer(key));
      expect(future.status).to.equal(400);
      const malformed = await odds('yesterday', bearer(key));
      expect(malformed.status).to.equal(400);
      const good = await odds(iso('13:00'), bearer(key));
      expect(good.status).to.equal(402);
      expect(good.body.markets).to.equal(undefined);
    });
  });
});
