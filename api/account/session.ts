import type { Request, RequestHandler, Response } from 'express';
import { clearedSessionCookie, isSecureContext, sessionCookie, sessionIdFromCookieHeader } from '../../shared/domain/accounts/cookies';
import { csrfMatches, resolveSession, SESSION_TTL_S, type SessionView } from '../../shared/app/accounts/sessions';
import { getConfig } from '../../shared/platform/config';
import { ApiError } from '../errors';

/** The session middleware of the account API: who is signed in, and the CSRF check. */

export const cookieContext = (req: Request) => ({ secure: isSecureContext(req.secure, getConfig().PUBLIC_URL) });

export function setSessionCookie(req: Request, res: Response, sessionId: string): void {
  res.setHeader('Set-Cookie', sessionCookie(sessionId, SESSION_TTL_S, cookieContext(req)));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.setHeader('Set-Cookie', clearedSessionCookie(cookieContext(req)));
}

export const cookieSessionId = (req: Request) => sessionIdFromCookieHeader(req.headers.cookie);

export const sessionOf = (res: Response) => (res.locals as { session: SessionView }).session;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * 401 without a live session; then, for a state-changing method, 403 unless X-CSRF-Token is the
 * session's token. A cross-site page can make the browser send the cookie (a top-level GET under
 * SameSite=Lax), never read the token, so it cannot forge a change.
 */
export function requireSession(): RequestHandler {
  return async (req, res, next) => {
    try {
      const session = await resolveSession(cookieSessionId(req));
      if (!session) return next(new ApiError('NOT_SIGNED_IN', 'Not signed in: sign up or log in first'));
      if (STATE_CHANGING.has(req.method) && !csrfMatches(req.headers['x-csrf-token'], session.csrfToken)) {
        return next(new ApiError('CSRF_REJECTED', 'Missing or wrong X-CSRF-Token header: send the csrfToken of GET /v2/account'));
      }
      (res.locals as { session: SessionView }).session = session;
      next();
    } catch (err) {
      next(err);
    }
  };
}
