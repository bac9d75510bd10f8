/** E-mail addresses as account identifiers (pure). */

/** Longest address SMTP carries (RFC 5321: 254 characters in a path). */
export const MAX_EMAIL_LENGTH = 254;

// Deliberately plain: one @, a non-empty local part without spaces, a dotted domain of letters,
// digits and hyphens. Anything a mail server would refuse outright is refused here.
const EMAIL = /^[^\s@"<>()[\]\\,;:]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** The form an address is stored and looked up under: trimmed and lower-cased, so sign-up and login ignore case. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Whether `raw` (before normalisation) is an address we accept. */
export function isEmail(raw: unknown): raw is string {
  if (typeof raw !== 'string') return false;
  const e = normalizeEmail(raw);
  return e.length <= MAX_EMAIL_LENGTH && EMAIL.test(e);
}
