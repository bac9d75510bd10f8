import type { Request, Response } from 'express';
import { endSession, startSession } from '../../../shared/app/accounts/sessions';
import type { AppContext } from '../../../shared/app/context';
import { accountView, logIn, signUp } from '../../../shared/app/accounts/selfServe';
import type { Config } from '../../../shared/platform/config';
import { clearSessionCookie, cookieSessionId, sessionOf, setSessionCookie } from '../../account/session';
import { perAddress } from '../../middleware/perAddress';
import { clientAddress } from '../../requestAddress';
import { accountSessionResponse, credentialsBody, noQuery } from '../../schemas/account';
import { route } from '../route';
import { noContent, type Route } from '../spec';
import { ACCOUNT } from './common';

/** A new session for the account: the cookie set, the account and the session's CSRF token answered. */
async function signedIn(ctx: AppContext, req: Request, res: Response, accountId: string) {
  // Rotated at every sign-in: a session id planted before login is worthless after it.
  await endSession(ctx, cookieSessionId(req));
  const session = await startSession(ctx, accountId);
  setSessionCookie(ctx, req, res, session.sessionId);
  return { account: await accountView(ctx, accountId), csrfToken: session.csrfToken };
}

/** Sign-up, login, logout and the signed-in account. */
export function sessionRoutes(cfg: Config): Route[] {
  return [
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/signup',
      auth: 'none',
      operationId: 'accountSignup',
      summary: 'Create an account',
      description: 'Creates the account with 500 free credits and signs in: sets the session cookie (HttpOnly, SameSite=Lax).',
      // Counted before any work: each sign-up costs a 32 MiB scrypt and grants free credits.
      guards: [perAddress('signup-addr', () => cfg.SIGNUP_PER_ADDRESS_PER_HOUR, 3600, 'sign-ups')],
      query: null,
      body: credentialsBody,
      status: 201,
      response: accountSessionResponse,
      errors: {
        400: 'Malformed e-mail or weak password (under 12 characters or a common password); the message names the field.',
        409: 'An account with this e-mail exists (case-insensitive).',
        415: 'Not a JSON body.',
        429: 'Too many sign-ups or requests from this address; Retry-After says when to try again.',
      },
      handler: async ({ req, res, body, json, app }) => {
        const { accountId } = await signUp(app, { email: body.email, password: body.password });
        return json(await signedIn(app, req, res, accountId));
      },
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/login',
      auth: 'none',
      operationId: 'accountLogin',
      summary: 'Sign in',
      description: 'Starts a new session (a new cookie; the previous session of this browser ends).',
      query: null,
      body: credentialsBody,
      response: accountSessionResponse,
      errors: {
        400: 'email or password missing.',
        401: 'Wrong e-mail or password (one answer for both).',
        429: 'Too many failed logins for this e-mail or from this address; Retry-After says when to try again.',
      },
      handler: async ({ req, res, body, json, app }) => {
        const { accountId } = await logIn(app, { email: body.email, password: body.password }, clientAddress(req));
        return json(await signedIn(app, req, res, accountId));
      },
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/logout',
      auth: 'session',
      operationId: 'accountLogout',
      summary: 'Sign out',
      description: 'Ends the session and clears the cookie.',
      query: null,
      status: 204,
      response: noContent,
      handler: async ({ req, res, noContent, app }) => {
        await endSession(app, cookieSessionId(req));
        clearSessionCookie(app, req, res);
        return noContent();
      },
    }),
    route({
      ...ACCOUNT,
      path: '/',
      auth: 'session',
      operationId: 'accountGet',
      summary: 'The signed-in account',
      description: 'E-mail, balance (live credits), testBalance (test credits, apart: only test keys see them), auto-recharge settings and the CSRF token of the session.',
      query: noQuery,
      response: accountSessionResponse,
      handler: async ({ req, json, app }) => {
        const { accountId, csrfToken } = sessionOf(req);
        return json({ account: await accountView(app, accountId), csrfToken });
      },
    }),
  ];
}
