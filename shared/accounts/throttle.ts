import { createHash } from 'node:crypto';
import { key, redis } from '../db/redis';

/**
 * Login throttling in Redis, shared by every web process: failed logins are counted per e-mail
 * and per client address in fixed windows. Past the limit a login is refused (429) until the
 * window ends, before any password is checked. A successful login clears its e-mail's count.
 */
export const LOGIN_WINDOW_S = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

// Hashed: the e-mail does not appear in Redis key names.
const emailKey = (email: string) => key('login-fail', 'email', createHash('sha256').update(email).digest('hex').slice(0, 32));
const addressKey = (address: string) => key('login-fail', 'addr', address.replace(/[^0-9A-Fa-f.:]/g, '_'));

/** Seconds until a login for this e-mail from this address may be tried again, or 0 when it may now. */
export async function loginBlockedFor(email: string, address: string): Promise<number> {
  const keys = [emailKey(email), addressKey(address)];
  const limits = [MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_ADDRESS];
  const r = redis().multi();
  for (const k of keys) r.get(k).ttl(k);
  const out = (await r.exec()) ?? [];
  let wait = 0;
  for (let i = 0; i < keys.length; i++) {
    const count = Number(out[i * 2]?.[1] ?? 0);
    const ttl = Number(out[i * 2 + 1]?.[1] ?? -2);
    if (count >= limits[i]) wait = Math.max(wait, ttl > 0 ? ttl : LOGIN_WINDOW_S);
  }
  return wait;
}

/** Counts a failed login against the e-mail and the address (the window starts at the first failure). */
export async function recordLoginFailure(email: string, address: string): Promise<void> {
  const r = redis().multi();
  for (const k of [emailKey(email), addressKey(address)]) r.incr(k).expire(k, LOGIN_WINDOW_S, 'NX');
  await r.exec();
}

export async function clearEmailFailures(email: string): Promise<void> {
  await redis().del(emailKey(email));
}

/** For tests and operators: forget an address's failures. */
export async function clearAddressFailures(address: string): Promise<void> {
  await redis().del(addressKey(address));
}
