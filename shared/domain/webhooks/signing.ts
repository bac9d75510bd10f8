import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (standardwebhooks.com), as its libraries and Svix's verify them:
 * the secret is `whsec_` and the base64 of its key; each attempt's `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, several separated by a
 * space while a rotated secret's predecessor is still honoured.
 */

export const SECRET_PREFIX = 'whsec_';
/** Key bytes of a new secret (the specification asks for 24 to 64). */
const KEY_BYTES = 32;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

/** The key bytes of a `whsec_` secret. */
function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new RangeError('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** The `v1,<base64>` signature of one attempt with one secret. */
export function sign(secret: string, id: string, timestampS: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampS}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt: the same id on every attempt, the attempt's own time, a signature per secret. */
export function signedHeaders(secrets: readonly string[], id: string, timestampS: number, body: string): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (secrets.length === 0) throw new RangeError('a delivery is signed with at least one secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampS, body)).join(' '),
  };
}
