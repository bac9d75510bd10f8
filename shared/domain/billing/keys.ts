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

/**
 * One character of a key as a URL or a header may carry it: itself, or percent-encoded (hex in
 * either case, the `%` itself encoded again any number of times: `%5F`, `%5f`, `%255F`), or as
 * `%u00XX`. Matched case-insensitively.
 */
const encoded = (literal: string, hex: string) => `(?:${literal}|%(?:25)*(?:u00)?(?:${hex}))`;
const char = (c: string) => encoded(c, c.charCodeAt(0).toString(16));
const word = (w: string) => [...w].map(char).join('');
/** A base62 character, plain or encoded: 0-9 (30-39), A-Z (41-5A), a-z (61-7A). */
const BASE62 = encoded('[0-9a-z]', '3[0-9]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]');
const KEY_IN_TEXT = new RegExp(`${word('sk_')}(${word('live')}|${word('test')})${char('_')}${BASE62}+`, 'gi');
/** A base64 character, plain or encoded: base62's, `+` (2B), `/` (2F) and `=` (3D). */
const BASE64 = encoded('[0-9a-z+/=]', '3[0-9d]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|2b|2f');
/** A webhook endpoint's signing secret (`whsec_` and base64: shared/domain/webhooks/signing.ts). */
const WEBHOOK_SECRET_IN_TEXT = new RegExp(`${word('whsec_')}${BASE64}+`, 'gi');

/** A percent-encoded text decoded however often it was encoded (only what maskKeys matched: no invalid sequences). */
const decodeAll = (text: string) => text.replace(/%(?:25)*(?:u00)?([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Masks anything shaped like one of our keys or webhook secrets (for log lines built from URLs or
 * messages), in any encoding a URL or a header can carry it: `sk_live_...`, `sk%5Flive%5F...`,
 * `whsec_...`, every character percent-encoded, lower-case hex, encoded twice.
 */
export function maskKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, (_, mode: string) => `sk_${decodeAll(mode).toLowerCase()}_[redacted]`).replace(WEBHOOK_SECRET_IN_TEXT, 'whsec_[redacted]');
}
