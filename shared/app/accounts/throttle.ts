import type { AppContext } from '../context';

/**
 * Login throttling, shared by every web process. Each attempt is counted before its password is
 * checked, atomically (the throttle store's counters), so a burst gets 429s past the limit, and
 * given back when the password was right:
 * - per client address: MAX_ATTEMPTS_PER_ADDRESS failed logins per window, whatever the e-mail
 *   (one address guessing many accounts);
 * - per e-mail: MAX_FAILURES_PER_EMAIL failed logins per window from addresses the account has not
 *   signed in from. An address that signed in to the account within KNOWN_ADDRESS_DAYS is known:
 *   its logins skip the e-mail's count, so strangers guessing the password cannot lock the owner
 *   out of the places they use (they still meet the per-address limit).
 */
export const LOGIN_WINDOW_S = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_ATTEMPTS_PER_ADDRESS = 30;
export const KNOWN_ADDRESS_DAYS = 30;

export interface LoginTicket {
  email: string;
  address: string;
  /** Whether the e-mail's count was taken (an unknown address). */
  countedEmail: boolean;
}

export type LoginAdmission = { allowed: true; ticket: LoginTicket } | { allowed: false; retryAfterS: number };

/** Admits one login attempt, counted: refused past the address's or (from an unknown address) the e-mail's limit. */
export async function admitLogin(ctx: AppContext, email: string, address: string): Promise<LoginAdmission> {
  const store = ctx.throttle;
  const byAddress = await store.take('login-addr', address, MAX_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_S);
  if (!byAddress.allowed) return { allowed: false, retryAfterS: byAddress.retryAfterS };
  if (await store.isKnownAddress(email, address)) return { allowed: true, ticket: { email, address, countedEmail: false } };
  const byEmail = await store.take('login-email', email, MAX_FAILURES_PER_EMAIL, LOGIN_WINDOW_S);
  if (!byEmail.allowed) return { allowed: false, retryAfterS: byEmail.retryAfterS };
  return { allowed: true, ticket: { email, address, countedEmail: true } };
}

/** The password was right: the attempt is given back and the address becomes known to the account. */
export async function loginSucceeded(ctx: AppContext, ticket: LoginTicket): Promise<void> {
  await ctx.throttle.release('login-addr', ticket.address);
  if (ticket.countedEmail) await ctx.throttle.release('login-email', ticket.email);
  await ctx.throttle.rememberAddress(ticket.email, ticket.address, KNOWN_ADDRESS_DAYS);
}

/** For tests and operators: forget an address's count. */
export async function clearAddressFailures(ctx: AppContext, address: string): Promise<void> {
  await ctx.throttle.resetLimit('login-addr', address);
}
