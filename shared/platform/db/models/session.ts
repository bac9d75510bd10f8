import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * A signed-in browser. `_id` is the SHA-256 of the session id the cookie carries: the id itself is
 * stored nowhere, so a read of this collection signs nobody in. `csrfToken` is sent back in
 * X-CSRF-Token by every state-changing request of this session. Expired sessions are removed by a
 * TTL index on MongoDB; FerretDB 1.x refuses the index ("expireAfterSeconds is not implemented"), so
 * the repository creates it itself where it can, sweeps expired ones otherwise, and every read
 * checks `expiresAt` (shared/platform/db/repositories/sessions.ts).
 */
const SessionSchema = new Schema({ ...required({ _id: String, accountId: String, csrfToken: String, expiresAt: Date }) }, { timestamps: true, collection: 'sessions' });

export type SessionDoc = InferSchemaType<typeof SessionSchema>;
export const Session = defineModel('Session', SessionSchema, [
  [{ accountId: 1 }, { read: 'to review: only fixtures.ts:expireSessionsOfAccount (tests) filters on accountId', gin: { accountId: 'to review: only fixtures.ts:expireSessionsOfAccount (tests)' } }],
]);
