/** The session cookie (pure): what Set-Cookie says, and reading it back from a Cookie header. */

export const SESSION_COOKIE = 'odds_session';

export interface CookieContext {
  /** Served over https (the request was, or PUBLIC_URL is): the cookie is then Secure. */
  secure: boolean;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Path=/ (the API
 * and the dashboard both get it), Max-Age = the session's remaining life.
 */
export function sessionCookie(value: string, maxAgeS: number, ctx: CookieContext): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(maxAgeS))}`, 'HttpOnly', 'SameSite=Lax', ...(ctx.secure ? ['Secure'] : [])].join('; ');
}

/** Tells the browser to forget the cookie. */
export function clearedSessionCookie(ctx: CookieContext): string {
  return sessionCookie('', 0, ctx);
}

/** The session cookie's value in a Cookie header, or undefined (several: the first, as browsers send the most specific first). */
export function sessionIdFromCookieHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** Whether cookies must be Secure: the request came over https, or the service's public URL is https. */
export function isSecureContext(requestSecure: boolean, publicUrl: string): boolean {
  return requestSecure || /^https:/i.test(publicUrl);
}
