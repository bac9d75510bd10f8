import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a password must be (pure apart from reading the list once). */

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase; short enough that hashing a hostile one costs nothing extra. */
export const MAX_PASSWORD_LENGTH = 256;

let common: Set<string> | undefined;

/** The common-passwords list kept in the repository (lower-cased; one a line). */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(join(__dirname, 'common-passwords.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter((l) => l && !l.startsWith('#')),
  );
  return common;
}

/** Why `password` is refused, or undefined when it is acceptable. Counted in code points, not UTF-16 units. */
export function passwordProblem(password: unknown, email?: string): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) return 'is too common: choose another';
  if (new Set(password).size < 4) return 'is too repetitive: use more different characters';
  if (email && lower === email.toLowerCase()) return 'must not be the e-mail address';
  return undefined;
}
