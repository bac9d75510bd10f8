import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context';

/** Server-side sessions: an opaque random id in the cookie, its hash in the store. */

export const SESSION_TTL_S = 7 * 86400;

const idHash = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

export interface SessionView {
  accountId: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A new session (32 random bytes of id, 32 of CSRF token); the id is returned once, for the cookie. */
export async function startSession(ctx: AppContext, accountId: string): Promise<SessionView & { sessionId: string }> {
  const sessionId = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.clock.now().getTime() + SESSION_TTL_S * 1000);
  await ctx.sessions.create({ _id: idHash(sessionId), accountId, csrfToken, expiresAt });
  return { sessionId, accountId, csrfToken, expiresAt };
}

/** The live session of a cookie's id, or undefined (unknown, ended or expired). */
export async function resolveSession(ctx: AppContext, sessionId: string | undefined): Promise<SessionView | undefined> {
  if (!sessionId) return undefined;
  const doc = await ctx.sessions.findLive(idHash(sessionId), ctx.clock.now());
  return doc ? { accountId: doc.accountId, csrfToken: doc.csrfToken, expiresAt: doc.expiresAt } : undefined;
}

export async function endSession(ctx: AppContext, sessionId: string | undefined): Promise<void> {
  if (sessionId) await ctx.sessions.delete(idHash(sessionId));
}

/** Constant-time comparison of the X-CSRF-Token header with the session's token. */
export function csrfMatches(header: unknown, token: string): boolean {
  if (typeof header !== 'string' || header.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(header), Buffer.from(token));
}
