import { createHash, randomBytes } from 'node:crypto';

/** Pure key material: generation, parsing and hashing. No I/O. */

export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters = 190 random bits (at least 128 required). */
export const KEY_RANDOM_CHARS = 32;
/** Characters of the random part kept visible in the prefix (the rest, 155+ bits, stays secret). */
const VISIBLE_CHARS = 6;
const KEY_PATTERN = new RegExp(`^sk_(live|test)_[0-9A-Za-z]{${KEY_RANDOM_CHARS}}$`);

/** Uniform base62 characters by rejection sampling (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(kind: 'acct' | 'key'): string {
  return `${kind}_${randomBase62(16)}`;
}

export interface NewKey {
  plaintext: string;
  hash: string;
  prefix: string;
  mode: KeyMode;
}

export function generateKey(mode: KeyMode): NewKey {
  const plaintext = `sk_${mode}_${randomBase62(KEY_RANDOM_CHARS)}`;
  return { plaintext, hash: hashKey(plaintext), prefix: plaintext.slice(0, `sk_${mode}_`.length + VISIBLE_CHARS), mode };
}

export function hashKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

/** The key of an Authorization header, or undefined when the header is missing or malformed. */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m || !KEY_PATTERN.test(m[1])) return undefined;
  return m[1];
}

export function modeOf(plaintext: string): KeyMode {
  return plaintext.startsWith('sk_live_') ? 'live' : 'test';
}

/** Masks anything shaped like one of our keys (for log lines built from URLs or messages). */
export function maskKeys(text: string): string {
  return text.replace(/sk_(live|test)_[0-9A-Za-z]+/g, 'sk_$1_[redacted]');
}
