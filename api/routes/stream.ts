import { bearerKey } from '../../shared/domain/billing/keys';
import { nextRef } from '../../shared/app/billing/metering';
import { backlogMinutes, chargeBacklog, chargeOpening, chargePeriod } from '../../shared/app/stream/metering';
import { StreamSession, startOf, type PeriodVerdict } from '../../shared/app/stream/session';
import { idTime } from '../../shared/domain/stream/messages';
import type { Config } from '../../shared/platform/config';
import { acquireSlot, releaseSlot } from '../../shared/platform/stream/slots';
import { ApiError } from '../errors';
import { streamHeaders, streamQuery, streamResponse } from '../schemas/stream';
import { route } from './route';
import type { Route } from './spec';
import { lastEventIdOf, streamFilterOf } from './streamRequest';

/**
 * GET /v2/stream: the change feed as Server-Sent Events (docs/stream.md). Everything that can
 * refuse the request (parameters, key, balance, the key's open streams, the resume point's read)
 * answers in the error shape before the stream's first byte; afterwards the stream ends with an
 * `error` message instead.
 */
export function streamRoute(cfg: Config): Route {
  const window = Math.floor(cfg.STREAM_RESUME_WINDOW_MS / 1000);
  return route({
    path: '/stream',
    price: '/v2/stream',
    auth: 'key',
    operationId: 'stream',
    summary: 'Stream of changes (Server-Sent Events)',
    description:
      'Every change the service stores, pushed as Server-Sent Events: odds (price moves, closing lines), scores (live scores and stats, lineups), status, recommendations (each new one) and settlements (graded bets, results and corrections), ' +
      'filtered by channels, sport, competition and event ids. Every message carries an id; reconnect with `Last-Event-ID` (or `lastEventId`) to receive exactly the entries missed, each as a message of its own, in order, ' +
      `within the resume window of ${window} seconds (\`x-resume-window-seconds\`): the backlog is written at the pace the connection drains, never merged because it is large. Past the window, or from an id this feed never sent, the first message is \`snapshot_required\` with the reason: fetch the REST state, then keep reading (the stream goes on live). ` +
      `A heartbeat comment every ${Math.round(cfg.STREAM_HEARTBEAT_MS / 1000)} seconds when idle. A reader that stays behind the live feed for more than ${Math.round(cfg.STREAM_SLOW_READER_MS / 1000)} seconds gets what it has not read merged per event and kind: each merged message says \`conflated\`, how many entries it covers (\`merged\`, \`firstEntryId\`, \`lastEntryId\`) and carries an id a resume from which is exact; past ${cfg.STREAM_MAX_PENDING} merged messages, \`snapshot_required\` (slow_consumer) and the end. ` +
      `Open streams per key: ${cfg.STREAM_MAX_CONNECTIONS_LIVE} (live), ${cfg.STREAM_MAX_CONNECTIONS_TEST} (test); past it a 429 too_many_streams. ` +
      'Credits: debited at open and at the start of each further minute while connected; a resume also pays each started minute it replays, less the open (`X-Credits-Consumed` says the total; without the credits a 402/403 before any byte). A balance that runs out, or a revoked key, ends the stream with an `error` message in the error shape. ' +
      `Test keys: the test feed, each change ${cfg.TEST_KEY_SNAPSHOT_S} seconds after it was stored, marked \`delayed\` (\`X-Data-Delayed\`), no credits; each minute is one request of the account's daily test cap, and the stream ends at it (rate_limited).`,
    tag: 'Stream',
    query: streamQuery,
    lists: ['channels', 'eventIds'],
    headers: streamHeaders,
    response: streamResponse,
    mediaType: 'text/event-stream',
    snapshots: false,
    extensions: { 'x-resume-window-seconds': window },
    errors: { 429: 'Rate limited, or the key holds its open streams already (too_many_streams).' },
    handler: async ({ query, req, res, app, stream }) => {
      const metered = res.locals.metered;
      const plaintext = bearerKey(req.headers.authorization);
      if (!metered || !plaintext) throw new Error('GET /v2/stream reached without its key check');
      const lastEventId = lastEventIdOf(req, query);
      const filter = streamFilterOf(query);
      const settings = app.config;
      const { key, priced, debit } = metered;
      const start = await startOf(app, lastEventId);
      const connectionId = nextRef();
      const limit = key.mode === 'live' ? settings.STREAM_MAX_CONNECTIONS_LIVE : settings.STREAM_MAX_CONNECTIONS_TEST;
      if (!(await acquireSlot(key.keyId, connectionId, limit, settings.STREAM_HEARTBEAT_MS * 3))) {
        throw new ApiError('TOO_MANY_STREAMS', `This key holds ${limit} open streams, its limit: close one, or retry later.`, { limit }, { 'Retry-After': '5' });
      }
      const live = key.mode === 'live';
      const charges: Record<string, string> = {};
      if (live && start.from === 'id') {
        // A resume replays the feed since its id: priced by the minutes it covers (the open pays the first).
        const minutes = backlogMinutes(idTime(start.afterId), Date.now(), settings.STREAM_BILLING_INTERVAL_MS) * priced.credits;
        if (minutes > 0) {
          const charged = await chargeBacklog(app, { key, cost: minutes, ref: `${connectionId}.backlog`, endpoint: priced.id });
          if (!charged.ok) {
            await releaseSlot(key.keyId, connectionId);
            throw new ApiError(
              'INSUFFICIENT_CREDITS',
              `Insufficient credits: resuming from this id replays ${minutes + priced.credits} minutes of the feed, ${minutes + priced.credits} credits with the open; resume from a later id, or open without one.`,
              // The open's credit is given back with the refusal.
              { creditsRequired: minutes + priced.credits, creditsRemaining: charged.balance + priced.credits },
            );
          }
          charges['X-Credits-Consumed'] = String(minutes + priced.credits);
          charges['X-Credits-Remaining'] = String(charged.balance);
        }
      }
      const period = async (n: number): Promise<PeriodVerdict> => {
        const r = await chargePeriod(app, { plaintext, key, cost: priced.credits, endpoint: priced.id, ref: `${connectionId}.${n}` });
        if (r.ok) return { ok: true };
        if (r.reason === 'revoked') return { ok: false, body: new ApiError('INVALID_API_KEY', 'Invalid API key').toBody(req.id) };
        if (r.reason === 'capped') {
          return {
            ok: false,
            body: new ApiError(
              'RATE_LIMITED',
              `The test keys of this account made their ${r.cap} requests of today (UTC): each minute of a test key's stream is one. Use a live key, or retry after ${r.retryAfterS} seconds.`,
              {
                retryAfterS: r.retryAfterS,
              },
            ).toBody(req.id),
          };
        }
        return {
          ok: false,
          body: new ApiError('INSUFFICIENT_CREDITS', `Insufficient credits: this stream costs ${priced.credits} credit per minute.`, {
            creditsRequired: priced.credits,
            creditsRemaining: r.balance,
          }).toBody(req.id),
        };
      };
      const delayMs = live ? 0 : settings.TEST_KEY_SNAPSHOT_S * 1000;
      const session = new StreamSession(app, res, { connectionId, filter, start, keyId: key.keyId, period, delayMs });
      const delayed: Record<string, string> = delayMs > 0 ? { 'X-Data-Delayed': 'true', 'X-Data-Delay-Seconds': String(delayMs / 1000) } : {};
      return stream(
        'text/event-stream; charset=utf-8',
        { 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no', 'X-Resume-Window-Seconds': String(window), ...delayed, ...charges },
        async () => {
          // The open's debit is charged now: the response ends long after the holds' stale sweep would give it back.
          chargeOpening(app, { key, debit, cost: priced.credits, endpoint: priced.id });
          await session.run();
        },
      );
    },
  });
}
