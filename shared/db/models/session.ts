import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A signed-in browser. `_id` is the SHA-256 of the session id the cookie carries: the id itself is
 * stored nowhere, so a read of this collection signs nobody in. Expired sessions are removed by a
 * TTL index on MongoDB; FerretDB 1.x refuses the index ("expireAfterSeconds is not implemented"), so
 * the repository creates it itself where it can, sweeps expired ones otherwise, and every read
 * checks `expiresAt` (shared/db/repositories/sessions.ts).
 */
const SessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    /** Sent back in X-CSRF-Token by every state-changing request of this session. */
    csrfToken: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true, collection: 'sessions' },
);
SessionSchema.index({ accountId: 1 });

export type SessionDoc = InferSchemaType<typeof SessionSchema>;
export const Session = model('Session', SessionSchema);
