import type { Request } from 'express';
import { resolveSession } from '../../../shared/app/accounts/sessions';
import { nextRef } from '../../../shared/app/billing/metering';
import { StreamSession, startOf } from '../../../shared/app/stream/session';
import { sseMessage } from '../../../shared/domain/stream/messages';
import type { Config } from '../../../shared/platform/config';
import { acquireSlot } from '../../../shared/platform/stream/slots';
import { cookieSessionId, sessionOf } from '../../account/session';
import { ApiError } from '../../errors';
import { accountStreamResponse } from '../../schemas/accountStream';
import { streamHeaders, streamQuery } from '../../schemas/stream';
import { route } from '../route';
import type { Route } from '../spec';
import { lastEventIdOf, streamFilterOf } from '../streamRequest';
import { ACCOUNT } from './common';

/**
 * The slots of an account's dashboard streams: apart from its keys' (a key id never has this
 * form), limited like one test key's.
 */
export const accountStreamSlot = (accountId: string) => `account-${accountId}`;

const notSignedIn = (req: Request) => new ApiError('NOT_SIGNED_IN', 'Not signed in: the session ended').toBody(req.id);

/**
 * GET /v2/account/stream: the stream of GET /v2/stream for the signed-in session, what the
 * dashboard's Live page reads with the browser's EventSource (which sends the session cookie and
 * cannot send an Authorization header; the page never holds a key's secret). The same feed,
 * query, resume and messages, on the same StreamSession, under a test key's rules: free, so the
 * test feed (delayed by TEST_KEY_SNAPSHOT_S, marked), at most
 * STREAM_MAX_CONNECTIONS_TEST open per account across every web process, and it ends with an
 * `error` message (not_signed_in) at the first heartbeat after the session ended (logout, expiry).
 */
export function accountStreamRoutes(settings: Config): Route[] {
  const window = Math.floor(settings.STREAM_RESUME_WINDOW_MS / 1000);
  const limit = settings.STREAM_MAX_CONNECTIONS_TEST;
  return [
    route({
      ...ACCOUNT,
      path: '/stream',
      auth: 'session',
      operationId: 'accountStream',
      summary: 'Stream of changes for the dashboard (Server-Sent Events)',
      description:
        "The stream of GET /v2/stream (same channels, filters, messages, resume with `Last-Event-ID` or `lastEventId` within the resume window, `snapshot_required`, heartbeats, merging for a reader that stays behind) for the signed-in session instead of a key: what the dashboard's Live page reads with EventSource. " +
        `Under a test key's rules: free, so it is the test feed (each change ${settings.TEST_KEY_SNAPSHOT_S} seconds after it was stored, marked \`delayed\`, \`X-Data-Delayed\`) whatever the balance; at most ${limit} open per account (past it a 429 too_many_streams). ` +
        'It ends with an `error` message (not_signed_in) at the first heartbeat after the session ended (sign-out or expiry).',
      query: streamQuery,
      lists: ['channels', 'eventIds'],
      headers: streamHeaders,
      response: accountStreamResponse,
      mediaType: 'text/event-stream',
      extensions: { 'x-resume-window-seconds': window },
      errors: {
        400: 'A bad parameter, or a Last-Event-ID that is not a message id.',
        429: 'Too many requests from this address, or the account holds its open streams already (too_many_streams).',
      },
      handler: async ({ query, req, res, app, stream }) => {
        const { accountId } = sessionOf(req);
        const cookie = cookieSessionId(req);
        const lastEventId = lastEventIdOf(req, query);
        const filter = streamFilterOf(query);
        const cfg = app.config;
        const start = await startOf(app, lastEventId);
        const connectionId = nextRef();
        const slot = accountStreamSlot(accountId);
        if (!(await acquireSlot(slot, connectionId, cfg.STREAM_MAX_CONNECTIONS_TEST, cfg.STREAM_HEARTBEAT_MS * 3))) {
          throw new ApiError(
            'TOO_MANY_STREAMS',
            `This account holds ${cfg.STREAM_MAX_CONNECTIONS_TEST} open streams, its limit: close a Live page, or retry later.`,
            { limit: cfg.STREAM_MAX_CONNECTIONS_TEST },
            { 'Retry-After': '5' },
          );
        }
        const session = new StreamSession(app, res, {
          connectionId,
          filter,
          start,
          keyId: slot,
          period: null,
          // The test feed: a session pays nothing, so it reads what a test key reads, delayed.
          delayMs: cfg.TEST_KEY_SNAPSHOT_S * 1000,
        });
        const delayed: Record<string, string> = cfg.TEST_KEY_SNAPSHOT_S > 0 ? { 'X-Data-Delayed': 'true', 'X-Data-Delay-Seconds': String(cfg.TEST_KEY_SNAPSHOT_S) } : {};
        return stream('text/event-stream; charset=utf-8', { 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no', 'X-Resume-Window-Seconds': String(window), ...delayed }, (body) => {
          // The session is checked again at each heartbeat: signed out (or expired), the stream ends.
          let checking = false;
          const check = setInterval(() => {
            if (checking) return;
            checking = true;
            resolveSession(app, cookie)
              .then((live) => {
                if (live) return;
                if (!body.destroyed) body.write(sseMessage('error', notSignedIn(req), null));
                session.close();
              })
              // MongoDB unreachable: the session is not known to have ended, and the stream goes on.
              .catch(() => undefined)
              .finally(() => (checking = false));
          }, cfg.STREAM_HEARTBEAT_MS);
          void session.ended.then(() => clearInterval(check));
          return session.run();
        });
      },
    }),
  ];
}
