import type { Request, RequestHandler, Response } from 'express';
import { clearedSessionCookie, isSecureContext, sessionCookie, sessionIdFromCookieHeader } from '../../shared/domain/accounts/cookies';
import { csrfMatches, resolveSession, SESSION_TTL_S, type SessionView } from '../../shared/app/accounts/sessions';
import type { AppContext } from '../../shared/app/context';
import { ApiError } from '../errors';

/** The session of the account API: who is signed in, and the CSRF check (the `session` access of a RouteSpec). */

export const cookieContext = (ctx: AppContext, req: Request) => ({ secure: isSecureContext(req.secure, ctx.config.PUBLIC_URL) });

export function setSessionCookie(ctx: AppContext, req: Request, res: Response, sessionId: string): void {
  res.setHeader('Set-Cookie', sessionCookie(sessionId, SESSION_TTL_S, cookieContext(ctx, req)));
}

export function clearSessionCookie(ctx: AppContext, req: Request, res: Response): void {
  res.setHeader('Set-Cookie', clearedSessionCookie(cookieContext(ctx, req)));
}

export const cookieSessionId = (req: Request) => sessionIdFromCookieHeader(req.headers.cookie);

/** The session each request was let through with (requireSession). */
const sessions = new WeakMap<Request, SessionView>();

const notSignedIn = () => new ApiError('NOT_SIGNED_IN', 'Not signed in: sign up or log in first');

/** The session of a request requireSession let through; a request it did not see is not signed in. */
export function sessionOf(req: Request): SessionView {
  const session = sessions.get(req);
  if (!session) throw notSignedIn();
  return session;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * 401 without a live session; then, for a state-changing method, 403 unless X-CSRF-Token is the
 * session's token. A cross-site page can make the browser send the cookie (a top-level GET under
 * SameSite=Lax), never read the token, so it cannot forge a change.
 */
export function requireSession(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    try {
      const session = await resolveSession(ctx, cookieSessionId(req));
      if (!session) return next(notSignedIn());
      if (STATE_CHANGING.has(req.method) && !csrfMatches(req.headers['x-csrf-token'], session.csrfToken)) {
        return next(new ApiError('CSRF_REJECTED', 'Missing or wrong X-CSRF-Token header: send the csrfToken of GET /v2/account'));
      }
      sessions.set(req, session);
      next();
    } catch (err) {
      next(err);
    }
  };
}
